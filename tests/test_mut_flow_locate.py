"""verify.dynamics.flow._locate (mutation tests): locating the event inside an accepted step — the regula falsi on the
step's dense output, then the secant on full steps of length θh and each of its exits (a trial step that fails or does
not converge, a non-finite event value, a flat event function, a secant step leaving the step), with the best full step
kept and the dense output as the fallback.

The stepper is a stand-in with a known trajectory, so every expected value is derived here in closed form:
D = 1, ψ = x, the norm event (x − c)/c with c = 3/4 (the real ``_event_value``, ``par.norm`` = ‖ψ‖ = |x|). The step being
located has h = 1 and dense output P(θ) = θ + θ² (exact in the s = 3 Radau IIA collocation polynomial: degree 2 ≤ s), so
the regula falsi's root is θ_P = 1/2 (P(1/2) = 3/4). A full trial step of length θ lands on the "true" trajectory
T(θ) = θ + θ² + ε(θ⁴ − θ) (ε = 1/100; T(1) = P(1) = 2, the step's end), whose root θ_T is computed here by exact
bisection (Fractions): the secant must find θ_T, not θ_P, and the first trial (at θ_P) cannot meet the event since
T(1/2) − 3/4 = ε(1/16 − 1/2) ≠ 0."""
from fractions import Fraction

import pytest
from flint import arb, arb_mat

import verify.dynamics.radau_solver as rs
from verify.dynamics.flow import _locate
from verify.dynamics.radau import tableau
from verify.numbers.precision import working_precision

DPS = 30
C = Fraction(3, 4)
EPS = Fraction(1, 100)


def P(t):
    return t + t * t


def T(t):
    return t + t * t + EPS * (t ** 4 - t)


def _root(f, lo=Fraction(0), hi=Fraction(1), bits=120):
    """The root of f − C in [lo, hi] (f increasing there) by exact bisection."""
    for _ in range(bits):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if f(m) < C else (lo, m)
    return lo


THETA_T = _root(T)


def _fr(q):
    return arb(q.numerator) / q.denominator


class _Par:
    @staticmethod
    def norm(v):  # the Euclidean norm of ψ (= |x| for D = 1; the state's u must not enter it)
        return sum((a * a for a in v), arb(0)).sqrt()


class _Sys:
    D = 1
    par = _Par()


class _Stepper:
    """Full steps from y0 = (0, 0) of length hs land on (T(hs), hs); ``plan`` overrides call k: an exception to raise,
    "diverged" (not converged), or an x value for the end of the step."""

    def __init__(self, tab, plan=None):
        self.sysm, self.tab, self.tol = _Sys(), tab, arb(10) ** -DPS
        self.plan, self.calls = plan or {}, []

    def main(self, y0, hs, Zpred, scale):
        k = len(self.calls)
        self.calls.append((list(y0), hs, Zpred, scale))
        what = self.plan.get(k)
        if isinstance(what, Exception):
            raise what
        ends = [[_T_arb(ck * hs), ck * hs] for ck in self.tab.c]
        if what is not None and what != "diverged":
            ends[-1][0] = what
        Z = arb_mat([[e[0] - y0[0], e[1] - y0[1]] for e in ends])
        return rs.SolveResult(Z=Z, converged=what != "diverged", iterations=1, rate=0.1, evaluations=1), None


def _T_arb(t):
    return t + t * t + _fr(EPS) * (t ** 4 - t)


def _setup(plan=None):
    tab = tableau(3)
    y0 = [arb(0), arb(0)]
    Z = arb_mat([[P(ck), ck] for ck in tab.c])  # P(c_k) − P(0), θ(c_k) − 0
    st = _Stepper(tab, plan)
    ev_h = (arb(2) - _fr(C)) / _fr(C)  # the step's end: x = P(1) = T(1) = 2
    return st, y0, Z, ev_h


def _run(plan=None):
    st, y0, Z, ev_h = _setup(plan)
    y1, hs, Zs = _locate(st, y0, arb(1), Z, "SCALE", _fr(C), None, ev_h)
    return st, y0, Z, y1, hs, Zs


def _close(a, q, rel=Fraction(1, 10 ** 27)):
    return abs(a - _fr(q)) <= _fr(rel) * max(abs(_fr(q)), arb(1))


def test_the_secant_finds_the_full_steps_root_not_the_dense_outputs():
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run()
        assert _close(hs, THETA_T) and not _close(hs, Fraction(1, 2))
        assert _close(y1[0], C) and _close(y1[1], THETA_T)  # the end of the returned full step: (T(θ_T), θ_T)
        assert abs((y1[0] - _fr(C)) / _fr(C)) <= 10 * st.tol  # the event met to 10·10^−dps
        # the returned stages are those of the full step of length hs: row k = T(c_k·hs) − T(0)
        for k, ck in enumerate(st.tab.c):
            assert abs(Zs[k, 0] - _T_arb(ck * hs)) <= arb(10) ** -27
        # the first trial is at the dense output's root θ_P = 1/2 from y0 with the predictor restaged there
        y0c, h1, Zp, scale = st.calls[0]
        assert _close(h1, Fraction(1, 2)) and scale == "SCALE" and [x == 0 for x in y0c] == [True, True]
        assert abs(Zp[2, 0] - _fr(P(Fraction(1, 2)))) <= arb(10) ** -27  # P restaged on [0, 1/2]: its end P(1/2)
        assert abs(Zp[0, 0] - P(st.tab.c[0] / 2)) <= arb(10) ** -27
        # θ_P misses the event of T, so at least two full steps; each trial inside the step (0, 2h]
        assert 2 <= len(st.calls) <= 20
        assert all(0 < c[1] <= 2 for c in st.calls)


@pytest.mark.parametrize("first", [ValueError("far off"), ZeroDivisionError(), OverflowError(), "diverged",
                                   arb("nan")])
def test_no_usable_full_step_falls_back_to_the_dense_output(first):
    """The first trial raises, does not converge or gives a non-finite event: the collocation polynomial at the
    regula falsi's root θ_P = 1/2 — (P(1/2), 1/2) = (3/4, 1/2), step h/2, its stages P(c_k/2) — is returned."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({0: first})
        assert len(st.calls) == 1
        assert _close(hs, Fraction(1, 2))
        assert _close(y1[0], C) and _close(y1[1], Fraction(1, 2))
        for k, ck in enumerate(st.tab.c):
            assert abs(Zs[k, 0] - P(ck / 2)) <= arb(10) ** -27 and abs(Zs[k, 1] - ck / 2) <= arb(10) ** -27


@pytest.mark.parametrize("second", [ValueError("far off"), "diverged", arb("nan")])
def test_a_failed_later_trial_keeps_the_best_full_step(second):
    """The first trial (at θ_P = 1/2) converged; the second fails: the first full step — (T(1/2), 1/2) — is returned,
    not the dense output (P(1/2) = 3/4) nor nothing."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({1: second})
        assert len(st.calls) == 2
        assert _close(hs, Fraction(1, 2)) and _close(y1[0], T(Fraction(1, 2))) and not _close(y1[0], C)
        assert abs(Zs[2, 0] - _fr(T(Fraction(1, 2)))) <= arb(10) ** -27


def test_the_best_step_is_kept_when_a_later_one_is_worse():
    """Trial 1 (θ_P) misses by |T(1/2) − 3/4|/(3/4) = 7/300; trial 2 is made to land farther (x = 0.5: 1/3 off), then
    trial 3 fails: the first step is returned."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({1: arb("0.5"), 2: ValueError("far off")})
        assert len(st.calls) == 3
        assert _close(hs, Fraction(1, 2)) and _close(y1[0], T(Fraction(1, 2)))


def test_a_flat_event_function_stops_the_secant():
    """Trial 1 lands exactly on the step's end value (x = 2, the event value ev_h of θ = 1): the secant has no slope
    — one trial, its step returned."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({0: arb(2), 1: _fr(C)})
        assert len(st.calls) == 1
        assert _close(hs, Fraction(1, 2)) and _close(y1[0], Fraction(2))


@pytest.mark.parametrize("x1", ["2.001", "1.999"])
def test_a_secant_step_leaving_the_step_stops_the_secant(x1):
    """Trial 1 at θ = 1/2 with event value f1 against ev_h = 5/3 at θ = 1: the secant's next θ = 1/2 + (f1/2)/(f1 −
    ev_h) is > 2 for f1 ∈ (ev_h, 3·ev_h/2) (x = 2.001) and ≤ 0 for f1 ∈ [ev_h/2, ev_h) (x = 1.999): both outside
    (0, 2] — stop with trial 1, though a further trial would have met the event (trial 2 is planned exactly on it)."""
    with working_precision(DPS):
        f1 = (abs(arb(x1)) - _fr(C)) / _fr(C)
        ev_h = (arb(2) - _fr(C)) / _fr(C)
        nxt = arb("0.5") + (f1 / 2) / (f1 - ev_h)
        assert nxt > 2 or nxt <= 0  # the derivation above
        st, y0, Z, y1, hs, Zs = _run({0: arb(x1), 1: _fr(C)})
        assert len(st.calls) == 1
        assert _close(hs, Fraction(1, 2)) and abs(y1[0] - arb(x1)) <= arb(10) ** -27


def test_a_first_trial_meeting_the_event_is_the_answer():
    """The first trial lands on the event (x = 3/4 exactly): one full step, returned as it is."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({0: _fr(C), 1: arb(0)})
        assert len(st.calls) == 1 and _close(y1[0], C) and _close(hs, Fraction(1, 2))


def test_a_concave_dense_output_moves_the_upper_end_of_the_bracket():
    """Dense output Q(θ) = 3θ − θ² (Q(1) = 2, concave): the regula falsi approaches its root θ_Q = (3 − √6)/2 from the
    right (the upper end moves); the first trial is there."""
    q = lambda t: 3 * t - t * t  # noqa: E731
    theta_q = _root(q)
    with working_precision(DPS):
        tab = tableau(3)
        st = _Stepper(tab, {0: ValueError("far off")})
        Z = arb_mat([[q(ck), ck] for ck in tab.c])
        ev_h = (arb(2) - _fr(C)) / _fr(C)
        y1, hs, Zs = _locate(st, [arb(0), arb(0)], arb(1), Z, "SCALE", _fr(C), None, ev_h)
        assert _close(st.calls[0][1], theta_q) and _close(hs, theta_q) and _close(y1[0], C)


@pytest.mark.parametrize("k, calls", [(5, 1), ("9.5", 1), ("10.5", 2), (20, 2)])
def test_the_event_tolerance_is_ten_ulps_of_the_working_precision(k, calls):
    """A first trial whose event value is k·10^−dps (x = (3/4)(1 + k·10^−dps)): within 10·10^−dps it is the answer
    (one trial); beyond it the secant takes another (planned exactly on the event)."""
    with working_precision(DPS):
        x1 = _fr(C) * (1 + arb(k) * arb(10) ** -DPS)
        st, y0, Z, y1, hs, Zs = _run({0: x1, 1: _fr(C)})
        assert len(st.calls) == calls
        assert abs(y1[0] - (x1 if calls == 1 else _fr(C))) <= arb(10) ** -(DPS + 5)


def test_opposite_event_values_are_not_flat():
    """Trial 1 (θ = 1/2) gives +1/3 (x = 1), the secant with (1, 5/3) goes to θ = 3/8, trial 2 gives −1/3 (x = 1/2):
    the two values differ (by 2/3), so the secant goes on — to θ = 3/8 + (1/24)/(2/3) = 7/16 — where trial 3 meets
    the event."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({0: arb(1), 1: arb("0.5"), 2: _fr(C)})
        assert len(st.calls) == 3
        assert _close(st.calls[1][1], Fraction(3, 8)) and _close(st.calls[2][1], Fraction(7, 16))
        assert _close(hs, Fraction(7, 16)) and _close(y1[0], C)


def test_a_secant_step_just_beyond_twice_the_step_stops():
    """f1 = 20/9 = (4/3)·ev_h (x = 29/12): the next θ = 1/2 + (f1/2)/(f1 − ev_h) = 1/2 + (10/9)/(5/9) = 5/2 ∈ (2, 3]:
    outside (0, 2], one trial."""
    with working_precision(DPS):
        st, y0, Z, y1, hs, Zs = _run({0: arb(29) / 12, 1: _fr(C)})
        assert len(st.calls) == 1 and _close(hs, Fraction(1, 2))


class _SysLogT(_Sys):
    @staticmethod
    def log_t(u):  # ln t with t = u: −∞ at the start of the flow (u = 0)
        return u.log()


def test_a_log_t_event_from_the_start_of_the_flow_bisects_first():
    """The ln t event with ln t = −∞ at the step's start (t = 0): the regula falsi cannot use the start's value, so it
    bisects — θ = 1/2 first. With u(θ) = θ (exact in the dense output and the full step) and the target ln t = ln ½,
    the event is at θ = 1/2 exactly: met at the first bisection point and by the first full step."""
    with working_precision(DPS):
        st, y0, Z, ev_h = _setup()
        st.sysm = _SysLogT()
        target_l = (arb(1) / 2).log()
        ev_h = (arb(0) - target_l) / 1  # ln 1 − ln ½ at θ = 1 (max(1, |ln ½|) = 1)
        y1, hs, Zs = _locate(st, y0, arb(1), Z, "SCALE", None, target_l, ev_h)
        assert len(st.calls) == 1 and _close(st.calls[0][1], Fraction(1, 2))
        assert _close(hs, Fraction(1, 2)) and _close(y1[1], Fraction(1, 2))
