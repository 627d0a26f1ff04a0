"""verify.kit.joint (mutation tests): the joint problem's SVMs and support set, Assumption C's two derived
certificates (refuting ray: strictness, scope, which non-support input; sufficient condition: zero tokens, the
Carathéodory sizes, the weights and ν), the exact affine solve, the quadrant margins, and the routing of the joint
path (candidates, requirements, direction evidence, Theorem 6's outcome) with recording stand-ins. Expected numbers
are derived by hand in each docstring (exact Fractions)."""
from fractions import Fraction as F
from types import SimpleNamespace as NS

from flint import arb

from verify.claims import Outcome, rules
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.kit import joint as J
from verify.numbers.precision import to_arb, working_precision


def _opt(sol):
    return NS(status="optimal", solution=list(sol))


def _js(support, v=(0, 1), pmm=None, prelax=None, alpha=(1, 1, 1), label_status="optimal"):
    """A JointSVMs stand-in with chosen v^mm, S, p^mm(α), p^relax."""
    att = _opt(pmm) if pmm is not None else NS(status="infeasible", solution=None)
    relaxed = _opt(prelax) if prelax is not None else None
    label = NS(status=label_status, solution=list(v))
    return J.JointSVMs(tuple(alpha), label, tuple(support), att, relaxed, [])


def _two_token(xs, Y=None, v=(0, 1)):
    """n inputs, T = 2, token 0 the origin, token 1 = xs[i] (so k_iα − k_i0 = x_i with α = 1)."""
    X = [[(0,) * len(xs[0]), tuple(x)] for x in xs]
    return Dataset.make(X=X, Y=Y or [1] * len(xs), v=list(v), name="t")


FIG3B = [(1, 1), (1, -1), (F(1, 2), F(3, 2))]


def _fig3():
    """Both Fig. 3 variants' SVMs (solved inside each test: mutmut maps a mutant to the tests whose call runs it)."""
    with working_precision(30):
        a = J.joint_svms(D.mmts_fig3("a"), "opt", 30, need=("label", "att", "relaxed"))
        b = J.joint_svms(D.mmts_fig3("b"), "opt", 30, need=("label", "att", "relaxed"))
    return a, b


# ----- joint_svms ---------------------------------------------------------------------------------------------------
def test_fig3_joint_svms_support_and_relaxed():
    """Fig. 3: v^mm = (0, 1) (label rows (1,1), (−1,1), (½,1) resp. (½,3/2)); S = all in (a), {1, 2} in (b) (row 3 has
    margin 3/2 ≠ 1); p^mm = (4/3, 1/3) resp. (5/4, 1/4); p^relax = p^mm in (a) and (1, 0) in (b) (rhs 1, 1, 0)."""
    a, b = _fig3()
    assert a.alpha == (1, 1, 1) and a.v_mm == [0, 1] and a.support == (0, 1, 2)
    assert a.p_mm == [F(4, 3), F(1, 3)] and a.p_relax == [F(4, 3), F(1, 3)]
    assert b.support == (0, 1) and b.p_mm == [F(5, 4), F(1, 4)] and b.p_relax == [1, 0]
    names = [h.name for h in b.hypotheses]
    assert len(names) == 4 and names[0] == J.LOGISTIC and all(h.met is True for h in b.hypotheses)
    assert "α = [1, 1, 1]" in names[1] and "(SVM)" in names[1]
    assert "(ATT-SVM)(α)" in names[2] and "S = [1, 2]" in names[3]


def test_need_selects_the_feasibility_hypotheses():
    """need = default ("label", "att"): 3 hypotheses; ("label", "relaxed"): logistic, label, relaxed; (): logistic only."""
    d = D.mmts_fig3("b")
    with working_precision(30):
        h0 = J.joint_svms(d, "opt", 30).hypotheses
        h1 = J.joint_svms(d, "opt", 30, need=("label", "relaxed")).hypotheses
        h2 = J.joint_svms(d, "opt", 30, need=()).hypotheses
    assert [h.name.split(" ")[0] for h in h0] == ["logistic", "(SVM)", "(ATT-SVM)(α)"]
    assert [h.name.split(" ")[0] for h in h1] == ["logistic", "(SVM)", "relaxed"]
    assert [h.name for h in h2] == [J.LOGISTIC] and h2[0].met is True and "1/4-Lipschitz" in h2[0].detail


def test_an_infeasible_label_svm_has_no_support_and_no_relaxed():
    """Inputs 1, 2 both select (1, 0) (v = (1, 0), ties broken by the label's sign? no: Y = 1 for both) with opposite
    labels → (SVM) infeasible: S = (), relaxed None, and a requested relaxed hypothesis is undecided."""
    X = [[(0, 0), (1, 0)], [(0, 0), (1, 0)]]
    data = Dataset.make(X=X, Y=[1, -1], v=[1, 0], name="inf")
    with working_precision(30):
        js = J.joint_svms(data, "opt", 30, need=("label", "relaxed"))
        js2 = J.joint_svms(data, "opt", 30, need=("label",))
    assert js.label.status != "optimal" and js.support == () and js.relaxed is None and js.p_relax is None
    assert js.hypotheses[1].met is False
    last = js.hypotheses[-1]
    assert last.name == "relaxed SVM (10) feasible" and last.met is None and "no support set" in last.detail
    assert len(js2.hypotheses) == 2
    h = J.assumption_c(data, js)
    assert h.met is None and "Γ is not defined" in h.detail and h.name == J.C_NAME


def test_properties_none_when_not_optimal():
    js = _js((0,), pmm=None, prelax=None)
    assert js.p_mm is None and js.p_relax is None
    js = J.JointSVMs((1,), _opt([1]), (0,), _opt([2]), NS(status="infeasible", solution=[3]), [])
    assert js.p_mm == [2] and js.p_relax is None and js.v_mm == [1]


# ----- selection margins, Assumption C: the refuting ray ---------------------------------------------------------
def test_selection_margins_exact():
    """Fig. 3(b), α = 1, token 0 the origin: Δ_i(q) = x_iᵀq; q = (1, 0) → 1, 1, ½; q = (5/4, 1/4) → 3/2, 1, 1.
    T = 3 (tokens (0,0), (1,0), (0,2), α = 0): Δ = min(−q₁, −2q₂) = min(−1, −4) = −4 at q = (1, 2)."""
    d = D.mmts_fig3("b")
    assert J.selection_margins(d, (1, 1, 1), [1, 0]) == [1, 1, F(1, 2)]
    assert J.selection_margins(d, (1, 1, 1), [F(5, 4), F(1, 4)]) == [F(3, 2), 1, 1]
    d3 = Dataset.make(X=[[(0, 0), (1, 0), (0, 2)]], Y=[1], v=[1, 0], name="t3")
    assert J.selection_margins(d3, (0,), [1, 2]) == [-4]
    assert J.selection_margins(d3, (1,), [1, 2]) == [-3]     # min((1,0)−(0,0), (1,0)−(0,2)) ·q = min(1, −3)


def test_fig3b_is_refuted_along_p_relax():
    """Fig. 3(b): along p^relax = (1, 0), Δ = (1, 1, ½) > 0, min over S = 1 > Δ_3 = ½ → refuted (certified False)."""
    _, b = _fig3()
    h = J.assumption_c(D.mmts_fig3("b"), b)
    assert h.met is False and h.name == J.C_NAME
    assert "p = R·p^relax" in h.detail and "min over S = 1 > Δ of the non-support input 3 = 1/2" in h.detail
    assert "e^(−R·1/2)" in h.detail


def test_the_second_ray_is_tried_when_the_first_does_not_refute():
    """p^relax = (0, 1): Δ = (1, −1, 3/2) not all > 0 → skipped; p^mm = (1, 0): Δ = (1, 1, ½) refutes."""
    h = J.assumption_c(_two_token(FIG3B), _js((0, 1), pmm=(1, 0), prelax=(0, 1)))
    assert h.met is False and "p^mm(α)" in h.detail


def test_equal_margins_do_not_refute_and_a_zero_margin_does_not_count():
    """q = (5, 1): Δ = (6, 4, 4): min over S = 4 = Δ_3 — not > → undecided (input 3 off S). q = (6, 1): Δ = (7, 5, 9/2)
    → refuted with gap 1/2. q = (3, −1): Δ = (2, 4, 0): Δ_3 = 0 is not > 0 → no ray → undecided."""
    d = _two_token(FIG3B)
    h = J.assumption_c(d, _js((0, 1), prelax=(5, 1)))
    assert h.met is None and "inputs [3] are not support vectors" in h.detail
    h = J.assumption_c(d, _js((0, 1), prelax=(6, 1)))
    assert h.met is False and "min over S = 5 > Δ of the non-support input 3 = 9/2" in h.detail
    assert "e^(−R·1/2)" in h.detail
    h = J.assumption_c(d, _js((0, 1), prelax=(3, -1)))
    assert h.met is None


def test_the_scope_restricts_the_refutation():
    """Tokens (1,0), (0,1), (1,1), S = {1, 2}, q = (2, −1): Δ = (2, −1, 1). Over all inputs Δ_2 < 0 → no ray
    (undecided); over scope {1, 3}: Δ = (2, 1) > 0, min over S∩scope = 2 > Δ_3 = 1 → refuted."""
    d = _two_token([(1, 0), (0, 1), (1, 1)])
    js = _js((0, 1), prelax=(2, -1))
    assert J.assumption_c(d, js).met is None
    h = J.assumption_c(d, js, scope=(0, 2), name="C over S")
    assert h.met is False and h.name == "C over S" and "min over S = 2 > Δ of the non-support input 3 = 1" in h.detail


def test_the_refutation_names_the_smallest_non_support_margin():
    """Tokens (2,0), (1,0), (½,0), S = {1}, q = (1, 0): Δ = (2, 1, ½); the off inputs 2, 3: j = 3 (Δ = ½)."""
    d = _two_token([(2, 0), (1, 0), (F(1, 2), 0)])
    h = J.assumption_c(d, _js((0,), prelax=(1, 0)))
    assert h.met is False and "non-support input 3 = 1/2" in h.detail and "e^(−R·3/2)" in h.detail


def test_no_ray_and_no_support_set_is_undecided():
    """S = {1, 2}, neither p^relax nor p^mm exists: input 3 off S → undecided, naming it (1-based)."""
    h = J.assumption_c(_two_token(FIG3B), _js((0, 1)))
    assert h.name == J.C_NAME and h.met is None and "inputs [3] are not support vectors" in h.detail and "p^relax, p^mm(α)" in h.detail


# ----- Assumption C: the sufficient condition -------------------------------------------------------------------
def test_fig3a_is_certified_with_the_derived_weights():
    """Fig. 3(a): w = (1,1), (−1,1), (½,1), target (0, 1). Subsets: {1,2} → (½, ½); {2,3} → (⅓, ⅔); {1,3} → (−1, 2)
    (negative: skipped); {1,2,3} collinear. Best λ_j = ½, ½, ⅔ → ν = (Γ/2)·½ = ¼ (Γ = 1)."""
    a, _ = _fig3()
    h = J.assumption_c(D.mmts_fig3("a"), a)
    assert h.name == J.C_NAME and h.met is True and "1: 1/2, 2: 1/2, 3: 2/3" in h.detail and "= 0.25" in h.detail


def test_nu_scales_with_gamma():
    """Fig. 3(a) halved: w = (½,½), (−½,½), (¼,½), v^mm = (0, 2), Γ = ½, target v/‖v‖² = (0, ½); same λ → ν = ⅛."""
    d = _two_token([(F(1, 2), F(1, 2)), (F(1, 2), F(-1, 2)), (F(1, 4), F(1, 2))], Y=[1, -1, 1])
    h = J.assumption_c(d, _js((0, 1, 2), v=(0, 2)))
    assert h.met is True and "1: 1/2, 2: 1/2, 3: 2/3" in h.detail and "= 0.125" in h.detail


def test_a_triangle_needs_the_full_caratheodory_size():
    """d = 3: w = (1,0,1), (−1,1,1), (−1,−1,1), v^mm = (0,0,1): no pair passes through (0,0,1); the triangle gives
    λ = (½, ¼, ¼) (λ₂ = λ₃, λ₁ = 2λ₂) → ν = ⅛."""
    X = [[(0, 0, 0), w] for w in [(1, 0, 1), (-1, 1, 1), (-1, -1, 1)]]
    d = Dataset.make(X=X, Y=[1, 1, 1], v=[0, 0, 1], name="tri")
    h = J.assumption_c(d, _js((0, 1, 2), v=(0, 0, 1)))
    assert h.met is True and "1: 1/2, 2: 1/4, 3: 1/4" in h.detail and "= 0.125" in h.detail


def test_an_input_with_zero_weight_in_every_combination_is_missing():
    """w = (1,0,1), (−1,0,1), (0,1,1), target (0,0,1) = midpoint of w₁, w₂; every combination gives λ₃ = 0 → input 3
    missing: undecided."""
    X = [[(0, 0, 0), w] for w in [(1, 0, 1), (-1, 0, 1), (0, 1, 1)]]
    d = Dataset.make(X=X, Y=[1, 1, 1], v=[0, 0, 1], name="mid")
    h = J.assumption_c(d, _js((0, 1, 2), v=(0, 0, 1)))
    assert h.name == J.C_NAME and h.met is None and "through inputs [3]" in h.detail


def test_nonzero_unselected_tokens_block_the_sufficient_condition():
    """T = 3, α = 1: input 1 has token 2 = (0, ½) (one nonzero coordinate), input 2 token 0 = (1, 0) and token 2 =
    (0, 1): inputs [1, 2] named once each; input 3 all zeros. With scope {3} (the others out of scope) it proceeds."""
    X = [[(0, 0), (1, 1), (0, F(1, 2))], [(1, 0), (-1, 1), (0, 1)], [(0, 0), (0, 1), (0, 0)]]
    d = Dataset.make(X=X, Y=[1, 1, 1], v=[0, 1], name="nz")
    js = _js((0, 1, 2))
    h = J.assumption_c(d, js)
    assert h.name == J.C_NAME and h.met is None and "inputs [1, 2] have a non-selected token ≠ 0" in h.detail
    h = J.assumption_c(d, js, scope=(2,), name="C3")
    assert h.name == "C3" and h.met is True and "3: 1" in h.detail and "= 0.5" in h.detail     # w₃ = (0, 1) = target: λ = 1, ν = ½


def test_the_subset_enumeration_limit():
    """13 inputs in scope exceed MAX_SUBSET_INPUTS = 12 → undecided naming both numbers; 12 are enumerated
    (tokens (±1, 1) alternating and (0, 1): ν = ½·½ from the pairs (1, −1) → λ = ½, the (0,1)'s have λ = 1)."""
    assert J.MAX_SUBSET_INPUTS == 12
    xs = [(1, 1), (-1, 1), (0, 1)] * 5
    d = _two_token(xs[:13])
    h = J.assumption_c(d, _js(tuple(range(13)), alpha=(1,) * 13))
    assert h.name == J.C_NAME and h.met is None and "13 inputs exceed the subset enumeration limit 12" in h.detail
    h = J.assumption_c(d, _js(tuple(range(12)), alpha=(1,) * 13), scope=range(12))
    assert h.met is True and "= 0.25" in h.detail


def test_affine_weights_exact():
    """Σλ = 1 and Σλ_k p_k = target: midpoint → (½, ½); off the affine hull → None; repeated points (rank 1 < 2) →
    None; one point equal to the target → [1], else None."""
    aw = J._affine_weights
    assert aw([[1, 1], [-1, 1]], [F(0), F(1)]) == [F(1, 2), F(1, 2)]
    assert aw([[F(1), F(1)], [F(-1), F(1)]], [F(0), F(2)]) is None
    assert aw([[1, 1], [1, 1]], [F(1), F(1)]) is None
    assert aw([[F(0), F(1)]], [F(0), F(1)]) == [1]
    assert aw([[F(0), F(2)]], [F(0), F(1)]) is None
    assert aw([[1, 0], [0, 1]], [F(3, 4), F(1, 4)]) == [F(3, 4), F(1, 4)]


# ----- the joint path as evidence --------------------------------------------------------------------------------
def test_quadrant_margins_every_unselected_token():
    """T = 3: input 1 tokens (0,0), (1,0), (0,2), α = 1, p = (1, 2): (1,0)−(0,0) → 1, (1,0)−(0,2) → 1 − 4 = −3;
    input 2 tokens (1,1), (0,0), (2,0), α = 0: (1,1)−(0,0) → 3, (1,1)−(2,0) → −1 + 2 = 1."""
    X = [[(0, 0), (1, 0), (0, 2)], [(1, 1), (0, 0), (2, 0)]]
    d = Dataset.make(X=X, Y=[1, 1], v=[1, 0], name="q")
    with working_precision(30):
        got = J.quadrant_margins(d, (1, 0), [to_arb(1), to_arb(2)])
    assert [k for k, _ in got] == [(0, 0), (0, 2), (1, 1), (1, 2)]
    assert [float(v.mid()) for _, v in got] == [1, -3, 3, 1] and all(v.rad() == 0 for _, v in got)


def test_off_masses_are_the_softmax_tails():
    """Fig. 3(b), p = (1, 0): s_i1 = σ(x_i1ᵀp) → 1 − s = 1/(1 + e^{1}), 1/(1 + e^{1}), 1/(1 + e^{½})."""
    with working_precision(30):
        got = J.off_masses(D.mmts_fig3("b"), (1, 1, 1), [1, 0])
        want = [1 / (1 + arb(1).exp()), 1 / (1 + arb(1).exp()), 1 / (1 + arb("0.5").exp())]
        assert all(abs(g - w) < arb("1e-25") for g, w in zip(got, want))


def test_run_joint_path_routes_the_candidates(monkeypatch):
    """Both candidates when both exist, only those that exist; radii, coupling, dps, starts, seed passed on."""
    calls = []
    monkeypatch.setattr(J, "joint_regularization_path", lambda *a, **k: calls.append((a, k)) or "jp")
    prec = NS(dps=33)
    d = D.mmts_fig3("b")
    assert J.run_joint_path(d, _js((0, 1), pmm=(5, 1), prelax=(1, 0)), prec, (1, 2), 3, 4, 5) == "jp"
    a, k = calls[-1]
    assert a == (d, (1, 2)) and k["coupling"] == 3 and k["dps"] == 33 and k["starts"] == 4 and k["seed"] == 5
    assert k["candidates"] == {"(v^mm, p^mm(α))": ([0, 1], [5, 1]), "(v^mm, p^relax)": ([0, 1], [1, 0])}
    J.run_joint_path(d, _js((0, 1), prelax=(1, 0)), prec, (1,), 1, 1, 0)
    assert calls[-1][1]["candidates"] == {"(v^mm, p^relax)": ([0, 1], [1, 0])}
    J.run_joint_path(d, _js((0, 1), pmm=(5, 1)), prec, (1,), 1, 1, 0)
    assert calls[-1][1]["candidates"] == {"(v^mm, p^mm(α))": ([0, 1], [5, 1])}


def _jp(Rs, on_spheres=None, p=None, v=None):
    pts = [NS(R=to_arb(R), on_spheres=True if on_spheres is None else on_spheres[k], p=p[k] if p else [R, 0],
              v=v[k] if v else [1, 0]) for k, R in enumerate(Rs)]
    return NS(points=pts)


def test_require_joint_path_flags_and_precision_floor(monkeypatch):
    """require_path_optimal gets ("vp", prec.tolerance); spheres: all True → met, a False or None → not met (the
    flags listed); the floor 10^−(dps−10) (dps 30: 10^−20): off-masses 10^−19 and 10^−21 at the two radii → not met;
    exactly 10^−20 is not > the floor; max over inputs by midpoint."""
    seen = []
    monkeypatch.setattr(J, "require_path_optimal", lambda out, jp, param, tol: seen.append((param, tol)))
    masses = {1: [to_arb(F(1, 10**19)), to_arb(F(1, 10**25))], 2: [to_arb(F(1, 10**22)), to_arb(F(1, 10**21))]}
    monkeypatch.setattr(J, "off_masses", lambda data, alpha, p: masses[p[0]])
    prec = NS(dps=30, tolerance="tol")
    with working_precision(30):
        out = Outcome()
        J.require_joint_path(out, None, _js((0,)), _jp([1, 2]), prec)
        assert seen == [("vp", "tol")]
        sph, fl = out.requirements
        assert sph.met is True and "R = 1: True, R = 2: True" in sph.detail
        assert fl.met is False and "R = 1: 1.00e-19" in fl.detail and "R = 2: 1.00e-21" in fl.detail
        masses[2] = [to_arb(F(1, 10**20))]
        out = Outcome()
        J.require_joint_path(out, None, _js((0,)), _jp([1, 2], on_spheres=[True, None]), prec)
        assert out.requirements[0].met is False and "R = 2: None" in out.requirements[0].detail
        assert out.requirements[1].met is False
        masses[2] = [to_arb(F(2, 10**20))]
        out = Outcome()
        J.require_joint_path(out, None, _js((0,)), _jp([1, 2], on_spheres=[False, None]), prec)
        assert out.requirements[0].met is False and out.requirements[1].met is True
        assert "R = 1: False" in out.requirements[0].detail


def test_the_precision_floor_never_exceeds_a_tenth(monkeypatch):
    """dps ≤ 11: floor 10^−max(1, dps−10) = 1/10; an off-mass 1/20 fails it, 1/5 passes."""
    monkeypatch.setattr(J, "require_path_optimal", lambda *a: None)
    for m, ok in ((F(1, 20), False), (F(1, 5), True), (F(1, 10), False)):
        monkeypatch.setattr(J, "off_masses", lambda data, alpha, p, m=m: [to_arb(m)])
        out = Outcome()
        with working_precision(30):
            J.require_joint_path(out, None, _js((0,)), _jp([1]), NS(dps=5, tolerance=None))
        assert out.requirements[-1].met is ok


def test_direction_evidence_values_names_and_rule():
    """1 − corr(a, b) = 1 − cos: v̄ = (1, 0), (1, 1) against (1, 1): 1 − 1/√2 then 0 (to every digit: decays holds via
    ``zero``); the block and trend name the item; the value is the last one, not enclosed."""
    prec = NS(tolerance=to_arb(F(1, 10**20)))
    with working_precision(30):
        out = Outcome()
        jp = _jp([1, 2, 3], v=[[1, 0], [1, 1], [2, 2]], p=[[0, 1], [0, 3], [0, 1]])
        vals = J.direction_evidence(out, jp, [1, 1], "v^mm", "v", prec)
        assert abs(vals[0] - (1 - 1 / arb(2).sqrt())) < arb("1e-25") and abs(vals[1]) < arb("1e-25")
        assert len(vals) == 3
        e = out.evidence[-1]
        assert e.quantity.startswith("1 − corr(v̄_r, v^mm) → 0 along") and e.value is vals[-1] and e.enclosed is False
        assert e.rule.holds is True and e.note.startswith("1: 0.293, 2: ")
        vals = J.direction_evidence(out, jp, [F(0), F(1)], "p^x", "p", prec, trend=rules.stays_away)
        e = out.evidence[-1]
        assert e.quantity.startswith("1 − corr(p̄_R, p^x) stays away from 0") and abs(vals[0]) < arb("1e-25")
        assert e.rule.holds is False
    calls = []
    with working_precision(30):
        J.direction_evidence(Outcome(), jp, [1, 0], "w", "v", prec,
                             trend=lambda xs, ys, zero: calls.append((xs, ys, zero)) or rules.decays(xs, ys, zero=zero))
    xs, ys, zero = calls[0]
    assert [float(x.mid()) for x in xs] == [1, 2, 3] and zero is prec.tolerance and len(ys) == 3


def test_joint_parameters_declared():
    ps = J.joint_parameters(" over S")
    assert [p.symbol for p in ps] == ["R", "r", "(v̄_r, p̄_R)", "p (Assumption C over S)"]
    assert [p.coverage for p in ps] == ["range", "range", "range", "hardest"]
    assert ps[1].option == "coupling" and ps[1].low == 0 and ps[1].high == 100
    assert "1, 2, 5, 10, 20, 50, 100" in ps[0].how and J.joint_parameters()[3].symbol == "p (Assumption C)"


# ----- Theorem 6's outcome with stand-ins ------------------------------------------------------------------------
class _Recorder:
    def __init__(self):
        self.calls = []


DATA = object()   # the dataset stand-in: every stub checks it is handed on


def _stub_outcome(monkeypatch, js, masses, hyp_c=True, quadrant_vals=None):
    """relaxed_path_outcome with the SVMs, Assumption C, the path, the requirements and the figures replaced (each
    stand-in checks that it receives the dataset, the SVMs, the path and the outcome it should); the direction
    evidence is real."""
    rec = _Recorder()
    jp = _jp([1, 2, 4, 8], p=[[1, 0]] * 4, v=[[0, 1]] * 4)

    def svms(data, select, dps, need):
        assert data is DATA
        rec.calls.append(("svms", select, dps, need))
        return js

    def assumption(data, js_, scope, name):
        assert data is DATA and js_ is js
        rec.calls.append(("C", scope, name))
        return J.Hypothesis(name, hyp_c, "")

    def run(data, js_, prec, *rest):
        assert data is DATA and js_ is js and prec.dps == 30
        rec.calls.append(("run",) + rest)
        return jp

    def off(data, alpha, p):
        assert data is DATA and alpha == js.alpha and p == [1, 0]
        return masses.pop(0)

    def req(out, data, js_, jp_, prec):
        assert isinstance(out, Outcome) and data is DATA and js_ is js and jp_ is jp and prec.dps == 30
        rec.calls.append(("req",))

    monkeypatch.setattr(J, "joint_svms", svms)
    monkeypatch.setattr(J, "assumption_c", assumption)
    monkeypatch.setattr(J, "run_joint_path", run)
    monkeypatch.setattr(J, "off_masses", off)
    monkeypatch.setattr(J, "require_joint_path", req)
    if quadrant_vals is not None:
        def quad(data, alpha, p):
            assert data is DATA and alpha == js.alpha and p == [1, 0]
            return quadrant_vals.pop(0)
        monkeypatch.setattr(J, "quadrant_margins", quad)
    import verify.kit.joint_figures as JF

    def fig(out, title, jp_, js_, series):
        assert isinstance(out, Outcome) and jp_ is jp and js_ is js
        rec.calls.append(("fig", title, len(series)))
    monkeypatch.setattr(JF, "joint_figures", fig)
    return rec


def _decaying():
    """Off-masses per radius: max over inputs 1/R² (decays: exponent 2), the other input smaller."""
    return [[to_arb(F(1, 2 * R * R)), to_arb(F(1, R * R))] for R in (1, 2, 4, 8)]


def test_relaxed_path_outcome_routes_everything(monkeypatch):
    """The default run: joint_svms with need ("label", "relaxed") at the working dps; Assumption C over S with the
    renamed hypothesis; the selection hypothesis from the max off-mass (1/R²: decays); evidence v̄ → v^mm and
    p̄ → p^relax; notes, range, cover; the figure."""
    js = _js((0, 1), v=(0, 1), pmm=(5, 1), prelax=(1, 0))
    rec = _stub_outcome(monkeypatch, js, _decaying())
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=2, starts=3, seed=7, title="T6")
    assert rec.calls[0] == ("svms", "opt", 30, ("label", "relaxed"))
    assert rec.calls[1][0] == "C" and rec.calls[1][1] == (0, 1) and "over S (Thm 6's restriction" in rec.calls[1][2]
    assert ("run", (1, 2, 4, 8), 2, 3, 7) in rec.calls and ("req",) in rec.calls and ("fig", "T6", 2) in rec.calls
    sel = out.hypotheses[-1]
    assert sel.name == J.SELECTION and sel.met is True and "1: 1.00, 2: 0.250, 4: 0.0625, 8: 0.0156" in sel.detail
    assert len(out.evidence) == 2 and out.evidence[0].quantity.startswith("1 − corr(v̄_r, v^mm) → 0") and "p^relax" in out.evidence[1].quantity
    assert out.evidence[1].quantity.startswith("1 − corr(p̄_R, p^relax) → 0")
    assert out.notes == ["support indices S = [1, 2] (exact); p^relax = ['1', '0']"]
    assert out.range == "R ≤ 8, r = 2·R"
    assert out.covers == ["radii R ∈ {1, 2, 4, 8} with r = 2·R; the minimiser found by the multistart search (3 random "
                          "starts + the SVM candidate pairs + the previous optimum)"]


def test_relaxed_path_outcome_select_and_no_figure(monkeypatch):
    js = _js((0, 1), v=(0, 1), prelax=(1, 0))
    rec = _stub_outcome(monkeypatch, js, _decaying())
    with working_precision(30) as prec:
        J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0, select="max",
                               figure=False)
    assert rec.calls[0][1] == "max" and not any(c[0] == "fig" for c in rec.calls)


def test_relaxed_path_outcome_stops_when_not_applicable(monkeypatch):
    """Assumption C not met → no path; no p^relax → no path; an infeasible label → no C hypothesis."""
    rec = _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), _decaying(), hyp_c=None)
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1,), coupling=1, starts=1, seed=0)
    assert out.evidence == [] and not any(c[0] == "run" for c in rec.calls) and len(out.hypotheses) == 1
    rec = _stub_outcome(monkeypatch, _js((0, 1)), _decaying())
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1,), coupling=1, starts=1, seed=0)
    assert not any(c[0] == "run" for c in rec.calls) and out.evidence == []
    rec = _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0), label_status="infeasible"), _decaying())
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1,), coupling=1, starts=1, seed=0)
    assert not any(c[0] == "C" for c in rec.calls)


def test_relaxed_path_outcome_selection_plateau_fails(monkeypatch):
    """A max off-mass stuck at ½ (the smaller input decays): the selection hypothesis fails (plateau)."""
    masses = [[to_arb(F(1, 2)), to_arb(F(1, 4 * R * R))] for R in (1, 2, 4, 8)]
    _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), masses)
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0)
    assert out.hypotheses[-1].name == J.SELECTION and out.hypotheses[-1].met is False


def test_relaxed_path_outcome_target_pmm(monkeypatch):
    """target "pmm": the p-evidence is against p^mm(α) (named as the false case); without p^mm: a failed requirement."""
    _stub_outcome(monkeypatch, _js((0, 1), pmm=(5, 1), prelax=(1, 0)), _decaying())
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0, target="pmm")
    assert "p^mm(α) (NOT p^relax: the false case)" in out.evidence[1].quantity
    _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), _decaying())
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0, target="pmm")
    r = out.requirements[-1]
    assert r.name == "(ATT-SVM)(α) feasible for the altered target" and r.met is False and r.detail == "infeasible"
    assert len(out.evidence) == 1 and out.notes == []


def test_relaxed_path_outcome_quadrant(monkeypatch):
    """quadrant: every (i, t) margin at every radius counted (4 radii × 2 = 8 points); all ≥ 0 (one exactly 0) → met;
    one negative → not met; none evaluated → not met."""
    def run(vals):
        _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), _decaying(), quadrant_vals=vals)
        with working_precision(30) as prec:
            return J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0,
                                          quadrant=True)
    ok = [[((0, 0), to_arb(1)), ((1, 0), to_arb(0))] for _ in range(4)]
    r = run(ok).requirements[-1]
    assert r.name.startswith("every p̄_R of the unrestricted path lies in P") and r.met is True and "8" in r.detail
    bad = [[((0, 0), to_arb(1)), ((1, 0), to_arb(-1))]] + [[((0, 0), to_arb(1))] for _ in range(3)]
    r = run(bad).requirements[-1]
    assert r.met is False and "R = 1, i = 2, t = 1" in r.detail
    undecided = [[((0, 0), arb(0, 1))]] + [[((0, 0), to_arb(1))] for _ in range(3)]
    assert run(undecided).requirements[-1].met is False
    assert run([[] for _ in range(4)]).requirements[-1].met is False


def test_a_scope_of_non_support_inputs_only_has_no_ray():
    """Scope {3} on Fig. 3(b) with p^relax = (1, 0): no support input in scope (nothing to compare) → no refutation;
    input 3 is off S → undecided."""
    h = J.assumption_c(_two_token(FIG3B), _js((0, 1), prelax=(1, 0)), scope=(2,))
    assert h.met is None and "inputs [3] are not support vectors" in h.detail


def test_relaxed_path_outcome_selection_uses_the_largest_midpoint(monkeypatch):
    """A first input whose off-mass is a wide ball around 0 (mid 10⁻³⁰, radius 10) and a second 1/R²: the largest by
    midpoint is 1/R² (decays: met); the plain max of balls would keep the undecidable wide ball."""
    masses = [[arb("1e-30", 10), to_arb(F(1, R * R))] for R in (1, 2, 4, 8)]
    _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), masses)
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0)
    assert out.hypotheses[-1].met is True


def test_relaxed_path_outcome_quadrant_one_point(monkeypatch):
    """A single evaluated margin (≥ 0) is enough coverage: met."""
    _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), _decaying(),
                  quadrant_vals=[[((0, 0), to_arb(1))], [], [], []])
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0, quadrant=True)
    assert out.requirements[-1].met is True


def test_require_joint_path_details(monkeypatch):
    """Spheres False at one radius and True at the other → not met; the outcome handed to require_path_optimal; the
    largest off-mass by midpoint (a wide ball first, mid 10⁻²⁰, radius 10⁻¹⁸, then 5·10⁻¹⁹ > floor 10⁻²⁰: met); an
    off-mass whose lower end equals the floor's upper end is not > the floor."""
    outs = []
    monkeypatch.setattr(J, "require_path_optimal", lambda out, jp, param, tol: outs.append((out, jp)))
    prec = NS(dps=30, tolerance=None)
    with working_precision(30):
        floor = to_arb(F(1, 10**20))
        js = _js((0,))

        def off(data, alpha, p):
            assert data is DATA and alpha == js.alpha and p in ([1, 0], [2, 0])
            return [arb("1e-20", "1e-18"), to_arb(F(5, 10**19))]
        monkeypatch.setattr(J, "off_masses", off)
        out = Outcome()
        jp = _jp([1, 2], on_spheres=[False, True])
        J.require_joint_path(out, DATA, js, jp, prec)
        assert outs == [(out, jp)] and out.requirements[0].met is False and out.requirements[1].met is True
        assert out.requirements[0].name.startswith("the minimiser lies on both spheres")
        assert out.requirements[1].name.startswith("the working precision resolves")
        monkeypatch.setattr(J, "off_masses", lambda data, alpha, p: [arb(floor.upper())])
        out = Outcome()
        J.require_joint_path(out, None, _js((0,)), _jp([1]), prec)
        assert out.requirements[1].met is False


def test_the_first_missing_ray_does_not_stop_the_search():
    """No p^relax, p^mm = (1, 0) refutes (Δ = 1, 1, ½)."""
    h = J.assumption_c(_two_token(FIG3B), _js((0, 1), pmm=(1, 0)))
    assert h.met is False and "p^mm(α)" in h.detail


def test_support_is_decided_by_the_margin_product():
    """Fig. 3(a) halved: v^mm = (0, 2), Y_i v·x_i = 1 for all three inputs → S = all (a quotient Y/(v·x) or a sum of
    v_k/x_k would differ: 2/(½) = 4)."""
    d = _two_token([(F(1, 2), F(1, 2)), (F(1, 2), F(-1, 2)), (F(1, 4), F(1, 2))], Y=[1, -1, 1])
    with working_precision(30):
        js = J.joint_svms(d, "opt", 30)
    assert js.v_mm == [0, 2] and js.support == (0, 1, 2)


def test_parameter_texts_are_given():
    assert all(isinstance(p.quantifier, str) and isinstance(p.how, str) and p.how for p in J.joint_parameters())


def test_relaxed_path_outcome_selection_zero_to_every_digit(monkeypatch):
    """Max off-mass 10⁻⁵⁰ at every radius (no decrease): 0 to the working precision (≤ prec.tolerance) → decays holds
    through ``zero``; without it a flat tail would be a plateau."""
    masses = [[to_arb(F(1, 10**50))] for _ in range(4)]
    _stub_outcome(monkeypatch, _js((0, 1), prelax=(1, 0)), masses)
    with working_precision(30) as prec:
        out = J.relaxed_path_outcome(DATA, prec, radii=(1, 2, 4, 8), coupling=1, starts=1, seed=0)
    assert out.hypotheses[-1].met is True


def test_joint_svms_selects_the_optimal_tokens_by_default():
    """Default select "opt": Fig. 3(b)'s α = (1, 1, 1) (token 1 scores Y_i vᵀx = 1, 1, 3/2 > 0 = token 0's)."""
    with working_precision(30):
        assert J.joint_svms(D.mmts_fig3("b")).alpha == (1, 1, 1)
