"""Entries near the ends of the contract's range (issue 22): no float64 conversion on an exact or ball
path, no 4300-digit str↔int limit, no adaptive search without a bound. Entries from 1e-10000 to below
1e10000 are accepted (docs/contract.md), so every verb must answer on them — a certified value, or
INCONCLUSIVE/NOT APPLICABLE with its reason — never "internal error" and never a run without end.

The SVM case used throughout is solved by hand: one sequence of two tokens x = (a, 0) in d = 1, query
z = 1, v = Y = 1. The scores are (a, 0), the optimal token the larger; every SVM of the family has the
single constraint |a|·w ≥ 1, so its solution is w = 1/|a| (p, W, diagonal and nuclear alike).
"""
import json
import subprocess
import sys
import time
from fractions import Fraction

import pytest
from cli_helpers import run
from flint import arb

from verify.numbers.precision import (
    agreement_digits,
    certified_digits,
    decimal_exponent,
    int_text,
    to_decimal_string,
    working_precision,
)
from verify.svm.numeric import fraction_to_decimal


def one_token_pair(tmp_path, a: str) -> str:
    path = tmp_path / "pair.json"
    path.write_text(json.dumps({"X": [[[a], [0]]], "Y": [1], "v": [1], "z": [[1]]}))
    return str(path)


# ----- class: float64 on exact / ball paths ---------------------------------------------------------
@pytest.mark.parametrize("a,w", [("1e300", "1e-300"), ("-1e300", "1e-300"), ("1e-300", "1e300"),
                                 ("3e307", "3.333333333333333333333333333333e-308"), ("1e-5000", "1e5000"),
                                 ("-2e5000", "5e-5001")])
@pytest.mark.parametrize("kind", ["p", "W", "diag"])
def test_svm_at_the_ends_of_the_range(a, w, kind, tmp_path, capsys):
    """``svm`` on entries near ±1e300 failed with OverflowError (a float64 unscaling of the solver's
    guess), and 1e-5000 with "… 4300 digits …" (printing the exact answer)."""
    code, out, err = run(["svm", "--data", one_token_pair(tmp_path, a), "--kind", kind, "--precision", "30", "--json"],
                         capsys)
    assert code == 0, err
    got = json.loads(out)
    assert got["status"] == "optimal" and got["exact"] is True
    expected = Fraction(w) if not w.startswith("3.3") else 1 / Fraction(a)
    assert Fraction(got["objective"]) == expected or abs(Fraction(got["objective"]) / expected - 1) < Fraction(1, 10**29)
    assert abs(Fraction(json.dumps(got["solution"]).strip('[]"'))) == Fraction(got["objective"])


@pytest.mark.parametrize("a", ["1e300", "1e-300", "1e5000", "1e-5000"])
def test_the_nuclear_svm_answers_or_says_why_not(a, tmp_path, capsys):
    """The nuclear-norm SVM needs a float64 first guess: beyond float64 it is UNKNOWN (exit 3) with a
    reason, never an internal error; where it answers, the answer is 1/|a|."""
    code, out, err = run(["svm", "--data", one_token_pair(tmp_path, a), "--kind", "KQ", "--precision", "30",
                          "--json"], capsys)
    got = json.loads(out)
    assert "internal error" not in err
    if code == 0:
        assert got["status"] == "optimal"
        assert abs(Fraction(got["objective"]) * Fraction(a) - 1) < Fraction(1, 10**20)
    else:
        assert code == 3 and got["status"] == "unknown" and got["notes"]


def test_a_claim_on_entries_near_1e300(tmp_path, capsys):
    """``mmts.lemma3`` on an entry near 1e300: "internal error (cannot convert float NaN …)" while
    counting the digits of a ball that is not a number. The Key Lemma is a theorem, so it is never
    VIOLATED: HOLDS where every point is certified, else INCONCLUSIVE naming the undecided item — and
    a figure that is not a number is null in the JSON, never "nan"."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"X": [[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, "2e299"]], [[1, 1, 0], [0, "-1e300", 1],
                                                                                         [0, 0, "1/2"]]],
                                "Y": [1, -1], "v": [0, 0, 1]}))
    code, out, err = run(["mmts.lemma3", "--data", str(path), "--precision", "20", "--json"], capsys)
    assert "internal error" not in err
    got = json.loads(out)
    assert (code, got["verdict"]) in ((0, "HOLDS"), (3, "INCONCLUSIVE"))
    if code == 3:
        assert got["reasons"] and all(r.startswith("undecided") for r in got["reasons"])
    assert "nan" not in out.lower()
    code, out, err = run(["mmts.lemma3", "--data", str(path), "--precision", "20"], capsys)
    assert "internal error" not in err and out.startswith("mmts.lemma3")


def test_digit_counts_of_balls_that_are_not_numbers():
    with working_precision(30):
        nan = arb("nan")
        wide = arb(0, "inf")
        assert certified_digits(nan) == 0 and certified_digits(wide) == 0
        assert agreement_digits(nan, arb(1), 30) == 0 and agreement_digits(arb(1), wide, 30) == 0
        # finite extremes: 1 ± 2⁻⁸⁴ has ⌊log10 2⁸⁴⌋ = ⌊25.29⌋ = 25 certified digits, scaled by any power of two
        # (exact in arb) far beyond float64
        one = arb(1, arb(2) ** -84)
        assert certified_digits(one) == 25
        assert certified_digits(one * arb(2) ** 20000) == 25 and certified_digits(one * arb(2) ** -20000) == 25
        assert agreement_digits(arb(2) ** 20000, arb(2) ** 20000 * (1 + arb(2) ** -84), 60) == 25


def test_assumption_a_on_a_huge_range_ends():
    """Certifying Assumption A on [−1e300, 1e300] bisected without end (2⁴⁰ balls): a bound on the
    balls makes it undecided at once, with the place named."""
    from verify.models.losses import certify_assumption_a

    t0 = time.monotonic()
    with working_precision(20):
        met, detail, _m0, _m1 = certify_assumption_a("logistic", arb("1e300"))
        assert met is None and "stopped after" in detail
        assert certify_assumption_a("logistic", arb(10))[0] is True  # a small range is still certified
    assert time.monotonic() - t0 < 60


# ----- class: exact decimal text of huge and tiny numbers -----------------------------------------
@pytest.fixture
def default_limit():
    """Python's own 4300-digit limit, as a library user has it: the formatters must not depend on the
    limit ``verify`` lifts when it is imported."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    yield
    sys.set_int_max_str_digits(old)


def test_decimal_exponents_by_hand(default_limit):
    for x, e in [(Fraction(1), 0), (Fraction(9, 10), -1), (Fraction(1, 10), -1), (Fraction(99999, 1000), 1),
                 (Fraction(10**5000), 5000), (Fraction(10**5000 - 1), 4999), (Fraction(1, 10**5001), -5001),
                 (Fraction(2, 10**5001), -5001), (Fraction(-7, 3), 0), (Fraction(2**20000), 6020)]:
        assert decimal_exponent(x) == e, x


def test_exact_formatting_without_the_limit(default_limit):
    assert fraction_to_decimal(Fraction(1, 10**5000), 10) == "1e-5000"
    assert fraction_to_decimal(Fraction(-3, 2 * 10**5000), 10) == "-1.5e-5000"
    assert fraction_to_decimal(Fraction(10**6000 + 10**5990), 12) == "1.0000000001e6000"
    assert fraction_to_decimal(Fraction(2, 3) * 10**5000, 5) == "6.6667e4999"
    assert fraction_to_decimal(Fraction(10**9999 - 1, 10**9999), 3) == "1"  # 0.999… rounds up a digit
    digits = int_text(7 * 10**9000 + 1)
    assert len(digits) == 9001 and digits[0] == "7" and digits[-1] == "1"
    assert to_decimal_string(Fraction(1, 3 * 10**5000), 5) == "3.3333e-5001"
    assert to_decimal_string(-(10**5000), 5).startswith("-1" + "0" * 100)


def test_messages_may_show_exact_values_of_valid_data(tmp_path, capsys):
    """A hypothesis detail printed str(Fraction) of a score built from 1e-5000 (a 5001-digit
    denominator): "internal error (… 4300 digits …)". Valid data is answered."""
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"X": [[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, "1e-5000"]]], "Y": [1],
                                "v": [0, 0, 1]}))
    code, out, err = run(["mmts.lemma4", "--data", str(path), "--precision", "20"], capsys)
    assert code == 4 and "internal error" not in err  # Assumption B fails: the non-optimal scores differ
    assert "Assumption B" in out


# ----- class: an integrator that cannot continue is no answer, not an internal error ----------------
def test_an_explicit_integrator_out_of_steps_is_undecided():
    """irgf Lemma 4.1 on an entry near 1e300: "internal error (IntegrationFailure …)". A stiff field
    y' = −10⁶·y needs some 4·10⁶ of the explicit integrator's limited steps to reach t = 1."""
    from verify.dynamics.dual import IntegrationFailure, gbs_integrate
    from verify.errors import Undecided

    with working_precision(20):
        with pytest.raises(IntegrationFailure) as info:
            gbs_integrate(lambda y: [-(10**6) * y[0]], [arb(1)], [1], arb(10) ** -20, max_steps=50)
    assert isinstance(info.value, Undecided) and info.value.exit_code == 3
    assert "did not reach t = 1" in str(info.value) and "no answer" in str(info.value)


# ----- class: float64 in the heuristics and messages of claims -------------------------------------
def test_roundings_beyond_float64_are_exact():
    """radius_scale (σ ≈ ‖p^mm‖ to two digits) and at_norm used math.sqrt(float(·)) and log10: an
    OverflowError at 1e±5000. The values by hand: √(10¹⁰⁰⁰⁰) = 10⁵⁰⁰⁰ exactly; √2·10⁻⁵⁰⁰⁰ = 1.414…e-5000 → 1.5e-5000."""
    from verify.geometry.cones import _short, radius_scale
    from verify.geometry.tfsvm_cones import at_norm
    from verify.numbers.exact import float_or_none, rational_above

    assert radius_scale(Fraction(10**10000)) == 10**5000
    assert radius_scale(Fraction(2, 10**10000)) == Fraction(15, 10**5001)
    assert radius_scale(Fraction(2)) == Fraction(15, 10)  # within float64: unchanged
    assert rational_above(Fraction(1234, 10**6000), 2) == Fraction(13, 10**5998)  # 1.234e-5997 → 1.3e-5997
    assert rational_above(Fraction(12, 10**6001), 2) == Fraction(12, 10**6001)  # already two digits
    assert float_or_none(Fraction(10**400)) is None and float_or_none(Fraction(1, 10**400)) is None
    assert float_or_none(Fraction(1, 4)) == 0.25 and float_or_none(0) == 0.0
    with working_precision(30):
        (w,) = at_norm((Fraction(1, 10**5000),), arb(1))  # c·10⁻⁵⁰⁰⁰ ≥ 1, c rounded up to 10 digits
        assert 1 <= w < 1 + Fraction(1, 10**8)
    assert _short(Fraction(10**5000 + 1, 3)) == "3.33333e+4999"


def test_a_claim_whose_message_shows_a_spread_of_1e5000(tmp_path, capsys):
    """Assumption B's message printed float(spread): "internal error (OverflowError …)". Scores
    (2e5000, 1e5000, 0): the non-optimal ones differ by 1e5000, so B fails (NOT APPLICABLE)."""
    path = tmp_path / "spread.json"
    path.write_text(json.dumps({"X": [[[0, 0, "2e5000"], [1, 0, "1e5000"], [0, 1, 0]]], "Y": [1], "v": [0, 0, 1]}))
    code, out, err = run(["mmts.lemma4", "--data", str(path), "--precision", "20"], capsys)
    assert code == 4 and "internal error" not in err
    assert "non-optimal scores differ (spread 1e+5000" in out


# ----- class: a claim's own data with its tokens scaled far from 1 -------------------------------------
def _scaled_default(claim_id: str, exponent: int, tmp_path) -> str:
    """The claim's first default dataset with every token entry multiplied by 10^exponent (exactly)."""
    from verify.claims import REGISTRY

    claim, _ = REGISTRY.resolve(claim_id)
    obj = claim.default_datasets()[0].to_dict()
    f = Fraction(10) ** exponent

    def scale(x):
        return [scale(y) for y in x] if isinstance(x, list) else str(Fraction(x) * f)

    obj["X"] = scale(obj["X"])
    path = tmp_path / f"{claim_id}-1e{exponent}.json"
    path.write_text(json.dumps(obj))
    return str(path)


@pytest.mark.parametrize("claim_id,exponent", [("irgf.cmp.frobenius", 100), ("irgf.lemma51", 100),
                                               ("irgf.rem.asm3", -100)])
def test_claims_on_their_data_scaled_by_1e100_answer(claim_id, exponent, tmp_path, capsys):
    """Found by running every claim on its first default dataset scaled by 10^±100: an ln t that was never reached
    (the flows stay at their start: None) printed as a number, a max() over no reached flow, and c* rounded up through
    an integer conversion of a ball (None once the ball is wider than 1/1000) were internal errors. Each now answers
    under the contract: the two flows INCONCLUSIVE naming the flow that did not reach its target; rem.asm3's c̄ is the
    exact upper end of c* rounded up (a theorem's check: HOLDS or INCONCLUSIVE, never VIOLATED)."""
    code, out, err = run([claim_id, "--data", _scaled_default(claim_id, exponent, tmp_path), "--precision", "25"],
                         capsys)
    assert "internal error" not in err and out.startswith(claim_id)
    if claim_id == "irgf.rem.asm3":
        assert code in (0, 3) and "c̄ = c* rounded up to 1/1000" in out
    else:  # the flows' exponential-loss slopes at 10²⁰⁰ logits are [0 ± e^(−10²⁰⁰)]: not a stationary start
        assert code == 3 and "requirement not met: the check ran to its end (the gradient at the initial point is " \
                             "not resolved at 25 digits" in out


def test_interval_ends_beyond_2_to_the_262144_are_rounded_outward_not_expanded():
    """irgf.lemma42 on its data ×10¹⁰⁰ ran for hours: a region search took the exact lower end of a margin
    ~e^(−10¹⁰⁰) as Fraction(2)**(−1.8·10¹⁰⁰). Ends beyond 2^±EXACT_BITS are rounded outward (0, ±2^±EXACT_BITS,
    ±inf): still valid ends, in no time (a subprocess with a deadline: a regression hangs, it does not fail)."""
    from verify.numbers.intervals import ARB, EXACT_BITS

    with working_precision(30):
        assert ARB.lower(arb(3) / 8) == ARB.upper(arb(3) / 8) == Fraction(3, 8)  # exact within range
        one = Fraction(1, 2 ** EXACT_BITS)
        tiny, huge = arb(2) ** -(2 ** 19), arb(2) ** (2 ** 19)  # 2^∓524288, exact balls, beyond the limit
        assert (ARB.lower(tiny), ARB.upper(tiny)) == (0, one) and (ARB.lower(-tiny), ARB.upper(-tiny)) == (-one, 0)
        assert (ARB.lower(huge), ARB.upper(huge)) == (1 / one, float("inf"))
        assert (ARB.lower(-huge), ARB.upper(-huge)) == (float("-inf"), -1 / one)
    code = ("from fractions import Fraction; from flint import arb; "
            "from verify.numbers.intervals import ARB, EXACT_BITS; "
            "x = (-arb('1.3333e100')).exp(); "  # [0 ± e^(−1.33·10¹⁰⁰)]: both ends beyond the limit
            "print(ARB.lower(x) == -Fraction(1, 2 ** EXACT_BITS), ARB.upper(x) == Fraction(1, 2 ** EXACT_BITS)); "
            "y = arb('1e1000000000000'); print(ARB.lower(y) == 2 ** EXACT_BITS, ARB.upper(y))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.split() == ["True", "True", "True", "inf"], proc.stderr


#: beyond float64 (dev/scale_sweep.py --scales -400 400): each was an internal error or a usage error, each site named
BEYOND_FLOAT64 = [("irgf.thm41", -400),           # kit.irgf._short printed float(p*) of a 10⁸⁰⁰ p*
                  ("irgf.thm41", 400),            # kit.irgf.grid_for took log2(float(p*)) of p* ~ 10⁻⁸⁰⁰ (= 0.0)
                  ("irgf.cmp.frobenius", 400),    # its flows' target norm went through float: "0", a usage error
                  ("irgf.prop.diag-l1", -400),    # a note printed float(p*)
                  ("irgf.aux.gradients", 400),    # raised_precision(lost = inf)
                  ("irgf.aux.face", -400),        # the ℓ1 face's float LP: overflow (now: uniqueness undecided)
                  ("mmts.lemma6", -400),          # regions.rational_below took math.log10 of a Fraction ~ 10⁻⁸⁰⁰
                  ("tfsvm.thm4", -400), ("tfsvm.thm3", -400), ("tfsvm.thm7", -400)]  # float64 start ladders


@pytest.mark.parametrize("claim_id,exponent", BEYOND_FLOAT64)
def test_claims_on_their_data_beyond_float64_answer_under_the_contract(claim_id, exponent, tmp_path, capsys):
    """A verdict, never VIOLATED (each of these is a theorem, or — tfsvm.thm4 — VIOLATED only on its own trap data);
    where a step of the check is float64 by design (the tfsvm start ladders), INCONCLUSIVE naming the quantity beyond
    float64's range."""
    code, out, err = run([claim_id, "--data", _scaled_default(claim_id, exponent, tmp_path), "--precision", "25"],
                         capsys)
    assert "internal error" not in err and code in (0, 3, 4) and out.startswith(claim_id), err
    if claim_id.startswith("tfsvm."):
        assert code == 3 and "the check ran to its end" in out and "lies beyond float64's range" in out


def test_a_start_the_precision_cannot_resolve_is_not_called_stationary(tmp_path):
    """irgf.cmp.frobenius's data ×10¹⁰⁰, its diagonal β-flow from β = 0 with the exponential loss: every logit is
    ~1.3·10¹⁰⁰, so ℓ'(φ) = −e^(−φ) is the ball [0 ± e^(−1.3·10¹⁰⁰)] and the gradient's midpoints are 0. The flow said
    "∇L(ψ(0)) = 0: the initial point is stationary" (status stationary, exit 0 from `verify flow`); it is not — the
    gradient is −e^(−1.3·10¹⁰⁰)·(…) ≠ 0 — so it is no answer. A start stationary by cancellation of resolved terms
    (mmts-infeasible-B at p = 0, tests/test_mut_flow_stop.py) still is one."""
    from verify.data.dataset import Dataset
    from verify.dynamics.flow import gradient_flow
    from verify.errors import Undecided

    data = Dataset.from_dict(json.loads(open(_scaled_default("irgf.cmp.frobenius", 100, tmp_path)).read()))
    with pytest.raises(Undecided, match="the gradient at the initial point is not resolved at 25 digits"):
        gradient_flow(data, "beta", until_norm="1e-98", dps=25, loss="exponential", svm=False)


@pytest.mark.parametrize("claim_id", ["irgf.lemma41", "irgf.aux.conservation"])
def test_an_extrapolation_integrator_far_below_its_tolerance_answers(claim_id, tmp_path, capsys):
    """At tokens ×10⁵ (not far from 1 at all) the GBS step's error estimate was ~10⁻⁴⁰⁰ against a tolerance of 10⁻²⁵,
    and the step-size factor 0.9·(tol/err)^(1/(2k−1)) overflowed math.exp before it was clamped to [1/2, 4]: an
    internal error. Each is a theorem / an identity of the flow: HOLDS or INCONCLUSIVE."""
    code, out, err = run([claim_id, "--data", _scaled_default(claim_id, 5, tmp_path), "--precision", "25"], capsys)
    assert "internal error" not in err and code in (0, 3) and out.startswith(claim_id), err
