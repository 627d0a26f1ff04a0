"""irgf Theorem 4.1, loss part ("key message 1"; proof (C2), (32)–(34)) — global convergence of the
loss and selection of the optimal tokens (arXiv 2403.08699 v1; spec `irgf.thm41.loss`).

Setting as in Theorem 4.1 (diagonal K, Q; exponential loss; gradient flow (2) from init (5)).
L* := (1/n) Σ_i exp(−γ_{i,opt(i)}) is the infimum of ℒ, never attained (irgf.prop.inf-loss).

Statement (asymptotic; the existence of the direction limit is *not* used):

    σ(g_i(t))_{opt(i)} → 1 for every i,   B_ilᵀβ(t) → ∞ for all (i, l),   µ(t) → ∞,
    ℒ(θ(t)) → L*,   and β̂(t) = β(t)/µ(t) is (ℓ1-SVM)-feasible for all large t.

Hypotheses checked on the data (→ NOT_APPLICABLE naming the failed one): Assumptions 1, 2, 3,
init (5) (ω₀ = 𝟙) and ``irgf.hyp.diagsep`` (the proof of Lemma 4.2, on which (C2) rests, uses an
ℓ1-feasible point; D-DIAGINF meets Assumptions 1–3 but the flow never moves).

How it is checked (evidence over the range reached; the flow of ``irgf.thm41`` — dual coordinates,
Radau IIA, cached — followed to ln(‖β‖₁/p*) = 10, i.e. ln µ = 10.08, ln t = 23 922 on D-SEED0):
* max_i (1 − σ_opt(i)) at the last record, computed as Σ_{l≠opt} σ_il (never as 1 − σ): HOLDS-evidence
  when ≤ 10^{−10}; VIOLATED when ≥ 1/2 (some sequence attends to a non-optimal token — the trap);
  INCONCLUSIVE in between (range too short);
* ℒ − L* (cancellation-free: (1/n)Σ e^{−γ_opt} expm1(Σ_{l≠opt} σ_l(γ_opt − γ_l))) strictly decreasing
  at every record, and at the end ≤ 10^{−10} × its value at s = 1/2 (VIOLATED when it stays above half
  its value at the window start: a plateau above L*);
* µ(t) > 0 at the end (β̂ feasible, all B_ilᵀβ ≥ µ → ∞), and the first record from which µ > 0;
* reported: ln(ℒ − L*)/µ at the end (→ −1: ℒ − L* ≈ C e^{−µ}, spec: ln of the excess −22 321 at
  µ = 22 318) and µ/ln t (→ 1).
Figure: ℒ − L*, max_i(1 − σ_opt) and e^{−µ} against µ (log scales).

Paper's numbers (spec, D-SEED0): µ > 0 already at the first record (ln µ = 0.52 there);
ℒ − L* ≈ C e^{−µ}. Ours: µ > 0 at every record from s = 1/2 (µ = 0.30, ln t = 0.48) on;
ln(ℒ − L*)/µ = −1.00013 and µ/ln t = 1.0003 at µ = 23 930 (ln t = 23 922).

False cases (tests): D-TRAP with ω₀ = 0.1·𝟙 and the Assumption 3 check bypassed: ℒ → (e^{−1.4} + 1)/2
= 0.623298 > L* = 0.532664, 1 − σ_opt(2) → 1: VIOLATED; D-DIAGINF bypassed: µ ≡ 0, ℒ ≡ ℒ(0): VIOLATED.
Default precision 30 digits (recomputed at 50).
"""
from __future__ import annotations

from flint import arb

from verify.claims import Claim, Evidence, Outcome, Series, register
from verify.data.irgf import d_face, d_seed0
from verify.kit import irgf
from verify.numbers.precision import Precision

from .thm41 import _hypotheses

SMALL = arb("1e-10")


def evaluate(data, prec: Precision, omega0=None, target=irgf.DEFAULT_TARGET, check_hypotheses=True) -> Outcome:
    out = Outcome()
    hyps, ctx = _hypotheses(out, data, omega0, check_hypotheses)
    if check_hypotheses and not all(h.met for h in hyps):
        return out
    traj, recs = irgf.flow(data, omega0, target)
    if irgf.unreached(out, traj, recs, data):
        return out
    out.notes.append(irgf.range_note(traj, recs))
    first, last = recs[0][1], recs[-1][1]
    off = max(last.off_opt, key=lambda z: z.mid())
    e_off = Evidence("max_i (1 − σ_opt(i)) at the last record", off, "<=", SMALL,
                     note="VIOLATED if ≥ 1/2 with µ < 0 (attention locked on a non-optimal token); "
                          "INCONCLUSIVE in between")
    short = []
    if off >= arb("0.5") and last.mu < 0:
        e_off.holds = False
    elif not off <= SMALL:
        e_off.relation = "~"
        short.append("1 − σ_opt")
    out.evidence.append(e_off)
    exc = [p.excess for _, p in recs]
    ratios = [b / a for a, b in zip(exc, exc[1:])]
    out.evidence.append(Evidence("max ratio (ℒ − L*)(next) / (ℒ − L*) over all records", max(ratios, key=lambda z: z.mid()),
                                 "<", 1, note="gradient flow decreases ℒ strictly"))
    win = irgf.window(recs) or recs[-4:]
    e_exc = Evidence("(ℒ − L*) at the last record / (ℒ − L*) at s = 1/2", last.excess / first.excess, "<=", SMALL,
                     note=f"ℒ − L* = {last.excess.str(6, radius=False)} at the end")
    plateau = last.excess / win[0][1].excess
    if plateau >= arb("0.5") and (irgf.window(recs) or last.mu < 0):
        e_exc.holds = False
        e_exc.note += f"; plateau: it kept {plateau.str(4, radius=False)} of its window-start value (ℒ does not reach L*)"
    elif not e_exc.decide():
        e_exc.relation = "~"
        short.append("ℒ − L*")
    out.evidence.append(e_exc)
    out.evidence.append(Evidence("µ(t) at the last record", last.mu, ">", 0,
                                 note="µ > 0: β̂ is ℓ1-SVM-feasible and every B_ilᵀβ ≥ µ"))
    pos_from = None
    for r, p in recs:
        if p.mu > 0:
            pos_from = pos_from or (r, p)
        else:
            pos_from = None
    if pos_from is not None:
        r, p = pos_from
        out.notes.append(f"µ(t) > 0 at every record from s = {r.s} on (ln µ = {p.mu.log().str(4, radius=False)}, "
                         f"ln t = {p.log_t.str(5, radius=False)})")
    if last.mu > 1 and last.excess > 0:
        out.evidence.append(Evidence("ln(ℒ − L*)/µ at the last record", last.excess.log() / last.mu,
                                     note="DERIVED: → −1 (ℒ − L* ≈ C e^{−µ})"))
        out.evidence.append(Evidence("µ / ln t at the last record", last.mu / last.log_t, note="spec: → 1"))
    if short and not any(e.decide() is False for e in out.evidence):
        out.verdict = "INCONCLUSIVE"
        out.notes.append("range too short to decide: " + ", ".join(short) + " neither small nor stalled")
    xs = [irgf.fl(p.mu) if p.mu > 0 else None for _, p in recs]
    fig = irgf.figure(
        "loss", "Theorem 4.1 (loss): ℒ − L* and 1 − σ_opt along the flow", "µ(t)", "value (log10)",
        [Series("log10(ℒ − L*)", xs, [irgf.log10f(p.excess) for _, p in recs], "-o"),
         Series("log10 max_i(1 − σ_opt)", xs, [irgf.log10f(max(p.off_opt, key=lambda z: z.mid())) for _, p in recs], "-s"),
         Series("log10 e^(−µ)", xs, [-irgf.fl(p.mu) / 2.302585092994046 if p.mu > 0 else None for _, p in recs], "--")],
        logx=True, caption=f"{data.name}: the excess loss decays like e^(−µ); values far below float64's range "
                           "are plotted as log10.")
    if fig:
        out.figures.append(fig)
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec)


def default_datasets(seed: int = 0):
    return [d_seed0(), d_face()]


CLAIM = register(Claim(
    id="irgf.thm41.loss",
    paper="irgf",
    number="Theorem 4.1 (loss)",
    title="Diagonal (K, Q): the loss tends to L* and attention selects the optimal tokens",
    kind="asymptotic",
    statement=(
        "Under the hypotheses of Theorem 4.1 (Assumptions 1–3, init (5), diagonal separability), along "
        "gradient flow: σ(g_i(t))_opt(i) → 1 for all i, B_ilᵀβ(t) → ∞, µ(t) → ∞, ℒ(θ(t)) → L* = "
        "(1/n)Σ_i e^{−γ_i,opt}, and β̂(t) is (ℓ1-SVM)-feasible for all large t. The existence of the "
        "direction limit is not used.\n\nChecked over the range reached (ln(‖β‖₁/p*) ≤ 10)."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("loss-to-Lstar", "global-convergence-of-loss", "attention-selects-opt"),
    default_precision=30,
    module=__name__,
))
