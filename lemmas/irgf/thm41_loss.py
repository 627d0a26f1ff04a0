"""irgf Theorem 4.1, loss part ("key message 1"; proof (C2), (32)–(34)) — global convergence of the
loss and selection of the optimal tokens (arXiv 2403.08699 v1).

Setting as in Theorem 4.1 (diagonal K, Q; exponential loss; gradient flow (2) from init (5)).
L* := (1/n) Σ_i exp(−γ_{i,opt(i)}) is the infimum of ℒ, never attained.

Statement (asymptotic; the existence of the direction limit is *not* used):

    σ(g_i(t))_{opt(i)} → 1 for every i,   B_ilᵀβ(t) → ∞ for all (i, l),   µ(t) → ∞,
    ℒ(θ(t)) → L*,   and β̂(t) = β(t)/µ(t) is (ℓ1-SVM)-feasible for all large t.

Hypotheses (→ NOT_APPLICABLE naming the failed one; ``verify.kit.irgf``): Assumptions 1, 2, 3,
init (5) and ``irgf.hyp.diagsep`` (the proof of Lemma 4.2, on which (C2) rests, uses an ℓ1-feasible
point; D-DIAGINF meets Assumptions 1–3 but the flow never moves).

How it is checked (asymptotic: evidence over ln(‖β‖₁/p*) ≤ 10; the dual-coordinate flow of
Theorem 4.1, no rigorous error bound, so its figures are ``enclosed=False``):
* max_i (1 − σ_opt(i)) at the last record, computed as Σ_{l≠opt} σ_il (never 1 − σ): → 0 by
  ``rules.vanishes`` (reference 1, its largest value); stuck (fails) when it kept ≥ STUCK_FRACTION
  with µ < 0 (attention locked on a non-optimal token — the trap). σ_il → 0 for every l ≠ opt forces
  every B_ilᵀβ → ∞, so this item also carries B_ilᵀβ → ∞ and µ → ∞;
* ℒ − L* (cancellation-free) strictly decreasing at every record (a Tally of consecutive ratios < 1),
  and → 0 by ``rules.vanishes`` against its value at the start of the asymptotic window (stuck when
  it kept ≥ STUCK_FRACTION there: a plateau above L*);
* µ(t) > 0 at the last record (β̂ feasible, every B_ilᵀβ ≥ µ);
* shown: ln(ℒ − L*)/µ (DERIVED → −1: ℒ − L* ≈ C e^{−µ}) and µ/ln t (→ 1).
Ours (D-SEED0): µ > 0 from s = 1/2 on; ln(ℒ − L*)/µ = −1.00013, µ/ln t = 1.0003 at µ = 23 930.

False cases (tests): D-TRAP with ω₀ = 0.1·𝟙 and the Assumption 3 check bypassed: ℒ → (e^{−1.4} + 1)/2
= 0.623298 > L* = 0.532664, 1 − σ_opt(2) → 1: VIOLATED (NOT_APPLICABLE with the check);
D-DIAGINF bypassed: ∇_βℒ(0) = 0 exactly, the flow never moves: VIOLATED.
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, Tally, register, rules
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision

NEEDS = (irgf.A1, irgf.A2, irgf.A3, irgf.INIT5, irgf.DIAGSEP)


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True) -> Outcome:
    out = Outcome()
    irgf.hypotheses(out, data, NEEDS, "irgf.thm41.loss", omega0, check_hypotheses)
    if not out.applicable():
        return out
    _, recs, reached = irgf.follow(out, data, omega0, target)
    if not reached:
        return out
    last, win = recs[-1][1], irgf.window(recs)
    off = max(last.off_opt, key=lambda z: z.mid())
    out.add(irgf.ruled("max_i (1 − σ_opt(i)) → 0 (value: at the last record)", off,
                       rules.vanishes(off, 1, stuck_confirmed=bool(last.mu < 0)),
                       note="reference 1; stuck only with µ < 0 (attention locked on a non-optimal token)"))
    ratios = Tally("ratio (ℒ − L*)(next) / (ℒ − L*) at consecutive records", "<", 1)
    for (_, a), (r, b) in zip(recs, recs[1:]):
        ratios.add(b.excess / a.excess, f"s = {r.s}")
    out.add(ratios.evidence("gradient flow decreases ℒ strictly", enclosed=False))
    ref_rec, ref = (win or recs[-4:])[0]
    out.add(irgf.ruled("ℒ − L* → 0 (value: at the last record)", last.excess,
                       rules.vanishes(last.excess, ref.excess, stuck_confirmed=bool(win) or bool(last.mu < 0)),
                       note=f"reference: ℒ − L* = {ref.excess.str(6, radius=False)} at s = {ref_rec.s} "
                            f"({'the asymptotic window' if win else 'the last records'})"))
    out.add(Evidence("µ(t) at the last record", last.mu, ">", 0, enclosed=False,
                     note="µ > 0: β̂ is ℓ1-SVM-feasible and every B_ilᵀβ ≥ µ"))
    pos_from = None
    for r, p in recs:
        pos_from = (pos_from or (r, p)) if p.mu > 0 else None
    if pos_from is not None:
        r, p = pos_from
        out.notes.append(f"µ(t) > 0 at every record from s = {r.s} on (ln µ = {p.mu.log().str(4, radius=False)}, "
                         f"ln t = {p.log_t.str(5, radius=False)})")
    if last.mu > 1 and last.excess > 0:
        out.add(Evidence("ln(ℒ − L*)/µ at the last record", last.excess.log() / last.mu,
                         note="DERIVED: → −1 (ℒ − L* ≈ C e^{−µ})"),
                Evidence("µ / ln t at the last record", last.mu / last.log_t, note="DERIVED: → 1"))
    xs = [irgf.fl(p.mu) if p.mu > 0 else None for _, p in recs]
    fig = irgf.figure(
        "loss", "Theorem 4.1 (loss): ℒ − L* and 1 − σ_opt along the flow", "µ(t)", "value (log10)",
        [Series("log10(ℒ − L*)", xs, [irgf.log10f(p.excess) for _, p in recs], "-o"),
         Series("log10 max_i(1 − σ_opt)", xs, [irgf.log10f(max(p.off_opt, key=lambda z: z.mid())) for _, p in recs], "-s"),
         Series("log10 e^(−µ)", xs, [irgf.fl(-p.mu / arb(10).log()) for _, p in recs], "--")],
        logx=True, caption=f"{data.name}: the excess loss decays like e^(−µ); log10 computed at the working precision.")
    out.show(fig)
    return out


STATEMENT = """\
Under the hypotheses of Theorem 4.1 (Assumptions 1–3, init (5), diagonal separability), along gradient flow:
σ(g_i(t))_opt(i) → 1 for all i, B_ilᵀβ(t) → ∞, µ(t) → ∞, ℒ(θ(t)) → L* = (1/n)Σ_i e^{−γ_i,opt}, and β̂(t) is
(ℓ1-SVM)-feasible for all large t. The existence of the direction limit is not used.

Checked over the range reached (ln(‖β‖₁/p*) ≤ 10).
"""

CLAIM = register(Claim(id="irgf.thm41.loss", paper="irgf", number="Theorem 4.1 (loss)", kind="asymptotic",
                       title="Diagonal (K, Q): the loss tends to L* and attention selects the optimal tokens",
                       statement=STATEMENT, check=evaluate, default_datasets=(d_seed0, d_face),
                       aliases=("loss-to-Lstar", "global-convergence-of-loss", "attention-selects-opt"),
                       default_precision=30,
                       parameters=(
                           irgf.OMEGA0_PARAMETER,)))
