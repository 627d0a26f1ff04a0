"""mmts Theorem 3, Step 3 of the proof — cone invariance ("updates remain inside the cone"),
App. B.4, (54a)–(55). Claim id ``mmts.thm3.cone`` (alias ``cone-invariance``).

Setting. α locally optimal (Definition 2), p^mm = p^mm(α), μ = μ(α) of Lemma 7, R large enough, GD
p(t+1) = p(t) − η∇L(p(t)) with η ≤ 1/L_p (Lemma 6, (6)/(24)); C_{μ,R}(p^mm) = {corr(p, p^mm) ≥ 1 − μ, ‖p‖ ≥ R}.

Statement. Once an iterate is in C_{ε,R_ε}(p^mm) it stays there (ε = μ: from t = 0). Induction:
ρ(t) = −η⟨∇L(p(t)), p̄^mm⟩ > 0 (Step 1); ⟨p(t+1), p̄^mm⟩/‖p(t)‖ ≥ 1 − ε + ρ(t)/‖p(t)‖ (54a);
⟨∇L(p(t)), p(t)⟩ < 0 so ‖p(t+1)‖ ≥ ‖p(t)‖ ≥ R; (54b)–(55) give corr(p(t+1), p^mm) ≥ 1 − ε. Whether the
paper starts at level μ or μ/2 is UNCERTAIN: both forms are checked, strong p(0) ∈ C_{μ,R} ⇒ p(t) ∈
C_{μ,R} and weak p(0) ∈ C_{μ/2,R} ⇒ p(t) ∈ C_{μ,R}.

Hypotheses (computed): Assumption A for the loss used; ATT-SVM(α) feasible; α locally optimal;
η ≤ 1/L_p for η = 1/L_p rounded down. DERIVED: μ = μ₀(α)/2 (see ``mmts.lemma7``); R below.

How it is checked (``verify.kit.invariance``; every point decided and counted):
1. First-order invariance finds R: ⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ > 0 on the boundary of C_{μ,r} at every
   ladder r ≥ R (``rules.witness``); with none, the sign as r → ∞ decides (certainly negative:
   VIOLATED). Fig. 1(b): μ = 0.002 from r = 20, 0.004 from 50, 0.0049 from 400, 0.0051 never.
2. GD from every boundary direction at r = R (strong: level μ, weak: μ/2), exact iterates: μ − (1 −
   corr(p(t), p^mm)) ≥ 0 for t ≥ 1, ‖p(t)‖ ≥ R, and the norm increase η(2⟨−∇L, p⟩ + η‖∇L‖²) ≥ 0 of each
   step — certified on the computed iterates. GD barely moves at these norms (∇L ~ e^{−‖p‖Θ}).
3. The deep part along the gradient flow (GD's limit as η → 0; Radau IIA at the working precision,
   no rigorous global error bound: evidence) from the in-plane boundary starts to ‖p‖ = max(10⁴·σ, 10R),
   checked at every step and 3 dense points inside it; the target must be reached within ``max_steps``.
R is existential: a path leaving from the first-order witness makes the next ladder radii be tried;
exits from each of ``rules.REFUTING_RADII`` radii refute it over "R ≤ <largest tried>" (VIOLATED as
evidence, each exit named: start, point, R). With R given, an exit is VIOLATED directly.

False cases (tests): μ = 0.0065 > μ* = 4.963e−3 on Fig. 1(b) (VIOLATED: certified negative sign);
R = 10 below the witness 20 with μ = 0.002 (GD leaves the cone: VIOLATED, the exit named); α not
locally optimal (Fig. 1(b′)) or a loss without Assumption A: NOT_APPLICABLE.
"""
from __future__ import annotations

from verify.claims import Claim, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.geometry.cone_data import benign_random_lmm
from verify.kit.cone_checks import ALPHA_PARAMETER, STEP_PARAMETER, alpha_cover, times_sigma
from verify.kit.invariance import (
    MAX_STEPS,
    Setup,
    boundary_paths,
    cone_figure,
    inward_figure,
    radius_evidence,
    require_target,
    try_radii,
)
from verify.numbers.precision import Precision
from verify.search.strategies_cones import small_integer_datasets


def evaluate(data, prec: Precision, alpha=None, mu=None, R=None, radii=None, gd_steps: int = 400,
             until_norm=None, forms=("strong", "weak"), deep: bool = True, loss="logistic",
             max_steps: int = MAX_STEPS, depth=None) -> Outcome:
    """Cone invariance on ``data``; ``R`` fixes the cone's radius (else the first-order witness and
    the existential retries), ``until_norm`` / ``depth`` the depth of the gradient-flow paths."""
    out = Outcome()
    S = Setup(data, prec, out, alpha, mu, R, radii, loss)
    if not S.ok:
        return out
    out.notes.append(f"{S.g.describe()}; η = 1/L_p rounded down, L_p = {float(S.Lp.mid()):.6g} ({S.lp_describe})")
    if not S.first_order_evidence(out):
        out.figures.append(inward_figure(S))
        return out

    def attempt(Rr):
        target = S.deep_target(Rr, until_norm, depth)
        groups = boundary_paths(S, Rr, forms, gd_steps, deep, target, max_steps)
        return (groups, target), next((r.left_at for _, runs, _, _ in groups for r in runs if r.left_at), None)

    Rr, (groups, target), tried, decision = try_radii(S, attempt, retry=not S.fixed_R)
    deciding = radius_evidence(S, out, tried, decision)
    flows = []
    for label, runs, checks, tgt in groups:
        out.add(*checks.evidence(label, enclosed=tgt is None, deciding=deciding))
        if tgt is not None:
            out.add(require_target(out, runs, tgt, label))
            flows += runs
    depth_txt = f"paths to ‖p‖ ≤ {times_sigma(target, S.sigma)}, " if deep else f"GD paths of {gd_steps} steps, "
    out.range = out.range or depth_txt + f"boundary r ≤ {times_sigma(S.scan[-1]['r'], S.sigma)}"
    out.cover(alpha_cover(S.g, alpha))
    out.cover(f"p(0) on C_(μ,R)'s boundary at r = R ({'; '.join(forms)} form): GD from {len(S.dirs)} boundary "
              f"directions" + (f", the flow from {len(S.in_plane_dirs())} in-plane ones" if deep else ""))
    out.cover("η = 1/L_p rounded down (GD)" + (" and η → 0 (the gradient flow)" if deep else f", t ≤ {gd_steps}"))
    out.notes.append(f"μ = {float(S.mu):.6g}, R = {float(Rr):g}; GD for {gd_steps} steps from {len(S.dirs)} boundary "
                     f"directions, the gradient flow (Radau IIA at {S.dps} digits) to ‖p‖ = {float(target):g}")
    out.figures += [inward_figure(S)] + ([cone_figure(S, flows, "cone", "Cone C_(μ,R) and flow paths", Rr)] if flows else [])
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1b(), benign_random_lmm(seed)]


STATEMENT = """\
α locally optimal, μ = μ(α) (here μ₀/2, derived), η ≤ 1/L_p. There is R such that GD started in
C_{μ,R}(p^mm(α)) stays in C_{μ,R}(p^mm(α)) (strong form) — and started in C_{μ/2,R} stays in C_{μ,R} (weak
form; which one the paper uses is UNCERTAIN): corr(p(t), p^mm) ≥ 1 − μ and ‖p(t)‖ ≥ R for all t ((54a)–(55)).
Checked: first-order invariance ⟨−∇L(p), p̄^mm − (1−μ)p̄⟩ > 0 on the boundary for all r ≥ R (finds R), GD with
η = 1/L_p (rounded down) at moderate norms, and the gradient flow itself (Radau IIA at the working precision,
checked at every step and inside it) to ‖p‖ = 10⁴·‖p^mm‖.
"""

CLAIM = register(Claim(id="mmts.thm3.cone", paper="mmts", number="Theorem 3 (proof, Step 3)", kind="existential",
                       title="Cone invariance: GD started in C_{μ,R}(p^mm) of an LMM stays in the cone",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("cone-invariance",), default_precision=40, strategy=small_integer_datasets,
                       parameters=(
                           ALPHA_PARAMETER,
                           Parameter("R", "R large enough", "search",
                                     "the first-order witness on the ladder, then the next ladder radii while a path "
                                     "leaves, up to rules.REFUTING_RADII (an exit from each refutes it); `R` fixes it",
                                     option="R", low=0),
                           Parameter("p(0)", "every p(0) ∈ C_(μ,R) (strong) or C_(μ/2,R) (weak)", "range",
                                     "boundary points at r = R along every boundary direction (GD) and the in-plane "
                                     "ones (flow), both forms (named in the verdict)"),
                           STEP_PARAMETER,
                           Parameter("t", "for all t", "range",
                                     "GD for `gd_steps` = 400 steps and the flow to ‖p‖ = max(10⁴σ, 10R) (the "
                                     "verdict's range)"))))
