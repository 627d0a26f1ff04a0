"""mmts Theorem 2 (i)–(ii) — no finite stationary point, and GD diverges in norm (Sec. 2.1, App. B.3).

Statement (parts (i) and (ii) of Theorem 2; the directional part (iii) is `mmts.thm2`). Under
Assumption A, Assumption B (γ_it = γ_iτ < γ_{i,opt} for t, τ ≠ opt_i) and ATT-SVM(opt) feasible
(p^mm exists — used through Lemma 4):

  (i)  no p ∈ ℝ^d has ∇L(p) = 0   (Lemma 4: ⟨∇L(p), p^mm⟩ < 0 for all p);
  (ii) GD p(t+1) = p(t) − η∇L(p(t)) with η ≤ 1/L_p (L_p of (6)), any p(0), has ‖p(t)‖ → ∞.

Paper numbers: Fig. 1(a), p(0) = 0, η = 1/L_p (L_p = 20.75): ‖p(t)‖ = 0.37, 2.59, 5.16, 7.43 at
t = 10³, 10⁴, 10⁵, 10⁶ (≈ +2.3 per decade, i.e. ‖p‖ ≈ a + b ln t).

Hypotheses (``verify.kit.global_descent``): Assumption A for the loss used, Assumption B exact,
ATT-SVM(opt) feasible from its verified certificate, and η = 1/L_p rounded down with η ≤ 1/L_p
decided against the certified ball L_p.

How it is checked (``verify.kit.global_descent.stationary_evidence``):
  (i)  certified: ⟨∇L(p), p^mm⟩ < 0 at every adversarial probe point (a Tally over aligned,
       anti-aligned, non-optimal selections, keys, random; ‖p‖∞ from 0 to 1000), and for R = 1, 10,
       100, 1000 a certified c(R) > 0 with ‖∇L(p)‖ ≥ c(R) on the whole ball ‖p‖ ≤ R (from the derived
       bound of Lemma 4 with s_opt, 1 − s_opt and |ℓ'| bounded over the ball);
  (ii) evidence over t ≤ 10⁴ GD steps (4·10³ for n > 1): from p(0) = 0 and an anti-aligned start,
       ⟨p(t+1) − p(t), p^mm⟩ > 0 at every step (a certified Tally: the projection increases), and
       from p(0) = 0, ‖p(t)‖ → ∞ by ``rules.diverges`` against ln t. Reported: the descent-lemma count
       of steps GD can spend in ‖p‖ ≤ R, ‖∇L(p(t))‖, the fit a + b ln t.

False cases (tests): `mmts_infeasible_B` — keys (0,0) score 1, (±1,0) score 0, n = 1: B holds but
ATT-SVM(opt) is infeasible and ∇L(0) = 0 exactly → NOT_APPLICABLE naming "ATT-SVM(opt) feasible";
with ``require_feasible=False`` the exact zero gradient at 0 → VIOLATED (certified).
"""
from __future__ import annotations

from verify.claims import Claim, Outcome, register
from verify.claims.registry import Parameter
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.geometry.stationarity import assumption_b, exact_gradient_at_zero, feasible_assumption_b_dataset, gmm
from verify.kit.assumptions import assumption_a
from verify.kit.global_descent import descent_hypotheses, stationary_evidence, step_size_p
from verify.numbers.precision import Precision


def evaluate(data: Dataset, prec: Precision, require_feasible: bool = True, steps: int | None = None,
             loss: str = "logistic", figure: bool = True) -> Outcome:
    """``require_feasible=False`` drops "ATT-SVM(opt) feasible" and Assumption B (a test mode: the
    evidence then runs without p^mm when it does not exist)."""
    out = Outcome()
    eta, step = step_size_p(data, loss)
    if require_feasible:
        hyps, B, res = descent_hypotheses(data, "p", loss, prec.dps)
        out.hypotheses = hyps + [step]
        if res is None:
            if all(h.met for h in hyps[:2]) and exact_gradient_at_zero(data, "p")[0]:
                out.notes.append("without a feasible ATT-SVM the conclusion fails here: ∇L(0) = 0 exactly "
                                 "(uniform attention) — a finite stationary point")
            return out
        q, gaps = list(res.solution), B.gaps
    else:
        out.hypotheses = [assumption_a(loss, data), step]
        out.notes.append("hypotheses 'ATT-SVM(opt) feasible' and 'Assumption B' NOT enforced (test mode)")
        res = gmm(data, "p", prec.dps) if all(len(o) == 1 for o in data.optimal_tokens()) else None
        B = assumption_b(data)
        q = list(res.solution) if res is not None and res.status == "optimal" else None
        gaps = B.gaps if q is not None and B.met else None
    if not out.applicable():
        return out
    if steps is None:  # the budget: ~0.7 s per 10⁴ steps and sequence, run at two precisions
        steps = 10000 if data.n == 1 else 4000
    stationary_evidence(out, data, prec, "p", q, gaps, eta, steps=steps, loss=loss, symbol="p",
                        eta_note=step.detail, figure=figure)
    return out


def default_datasets(seed: int = 0):
    return [D.mmts_fig1a(), D.mmts_fig8_substitute(), feasible_assumption_b_dataset(n=2, T=4, d=4, seed=seed)]


STATEMENT = """\
Under Assumption A, Assumption B and ATT-SVM(opt) feasible: (i) ∇L(p) ≠ 0 for every p ∈ ℝ^d (Lemma 4: ⟨∇L(p),
p^mm⟩ < 0); (ii) GD with η ≤ 1/L_p from any p(0) has ‖p(t)‖ → ∞ (App. B.3).

(i) certified: the sign of ⟨∇L(p), p^mm⟩ at every adversarial probe point, lower bounds of ‖∇L‖ on the balls
‖p‖ ≤ R (R ≤ 1000). (ii) evidence over the GD steps run (η = 1/L_p): the projection on p^mm increases at every
step (certified), ‖p(t)‖ diverges against ln t (declared rule).
"""

CLAIM = register(Claim(id="mmts.thm2.stationary", paper="mmts", number="Theorem 2 (i)–(ii)", kind="asymptotic",
                       title="No finite stationary points; GD diverges in norm (Assumption B)", statement=STATEMENT,
                       check=evaluate, default_datasets=default_datasets, aliases=("no-finite-stationary-points",),
                       parameters=(
                           Parameter("p", "(i) every p ∈ ℝ^d", "range",
                                     "every p with ‖p‖ ≤ 1000 (a certified lower bound c(R) > 0 of ‖∇L‖ on the balls) "
                                     "and adversarial probe points up to ‖p‖∞ = 1000 (named in the verdict)"),
                           Parameter("p(0)", "(ii) from any p(0)", "range",
                                     "p(0) = 0 and −2q/‖q‖∞ (anti-aligned) (named in the verdict)"),
                           Parameter("η", "(ii) every η ≤ 1/L_p", "range",
                                     "η = 1/L_p rounded down (named in the verdict)"))))
