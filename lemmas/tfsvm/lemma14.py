"""tfsvm Lemma 14 — inside the local cone the gradient correlates more with W^mm_α than with W (v1 App. C).

Statement (v1). Assumption A; α locally optimal (Def. 2), μ = μ(α) of Lemma 13 / Theorem 7. For every π > 0 there
is R_π such that for every W ∈ C_{μ,R_π}(W^mm_α) = {corr(W, W^mm_α) ≥ 1 − μ, ‖W‖_F ≥ R_π}:

    ⟨∇L(W), W/‖W‖_F⟩ ≥ (1 + π)⟨∇L(W), W^mm_α/‖W^mm_α‖_F⟩.

v1 gives R_π = max(2, 1/δ)/Θ·log(C·TΓA/(πγ^gap_min)) with the constant C unspecified: R_π is existential here.

Reading. With N = ⟨−∇L(W), Ŵ⟩ and D = ⟨−∇L(W), Ŵ^mm_α⟩ the inequality is (1 + π)D − N ≥ 0. Where D > 0 (Lemma 13
(L1) inside the cone) it is ρ(W) = N/D ≤ 1 + π. It is decided in this difference form, so a negative D (outside the
lemma's hypotheses, e.g. α not locally optimal) is not hidden by a ratio: on the ray of W^mm_α, N = D exactly and the
inequality is πD ≥ 0, false for every π > 0 when D < 0.

How it is checked. Every locally-optimal α (enumerated; the GMM included) or the given ``alphas``. Points: W^mm_α and
cone-boundary points of cone_μ(α)(W^mm_α) (certified inside exactly, within 10⁻⁹ of the boundary; toward the other
locally-optimal directions, toward/away from every non-selected token, seeded random directions — the
``verify.geometry.local_cone`` directions) at ‖W‖_F ≥ r for r on the ladder R·``LADDER`` (R of eq. (74), the
theorem's own radius, then outward to 100R). At each point N, D by pairwise covariances with exact products (arb);
on the W^mm_α ray ρ = 1 exactly (W = c·W^mm_α, c rational).
"For every π > 0" (coverage "hardest", docs/parameters.md): the hardest case derived from the data is π → 0⁺. If at
every sampled point of a ladder radius r, D > 0 and ρ ≤ 1 (both certain), then every π > 0 holds there; the witness
R₀ (``rules.witness``: the smallest ladder radius from which this holds at every deeper one) settles all π at once.
Where some ρ exceeds 1, π_h = (max ρ − 1)/2 (3 significant digits, below) is the hardest π the samples challenge; it
and the named ``pis`` get their own witness R_π on the ladder. A Tally certifies the inequality at every sampled
point from the witness radius on. Existential in R_π: HOLDS is evidence over the ladder (``out.range``).

False cases (tests): W outside the cone — D-T2 with α = opt and W on the LMM ray (corr 1/√10 with W^mm): not in
cone_μ → NOT_APPLICABLE naming the cone; with the cone requirement dropped (``require_cone=False``) ρ → √10 and
π = ½ fails → VIOLATED, certified. α not locally optimal (D-LMM, α = C: the higher-scored A and B are support indices
of W^mm_C) → NOT_APPLICABLE naming local optimality — the statement's hypothesis; with it dropped
(``require_lmm=False``) points on the W^mm_C ray give D < 0 and the inequality fails for every π (VIOLATED,
certified), which is why the hypothesis is needed.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.claims import Claim, Evidence, Hypothesis, Outcome, register, rules
from verify.claims.registry import Parameter
from verify.data import tfsvm as D
from verify.data.dataset import Dataset
from verify.geometry.local_cone import cone_directions, cone_slack, lmm_selections, other_directions, same_ray
from verify.geometry.tfsvm_cones import CorrelationTables, at_norm, correlations, sqrt_ball
from verify.kit.assumptions import assumption_a
from verify.kit.probe_inequality import ProbeInequality
from verify.models.attention import LinearLogitModel
from verify.numbers.exact import rational_below
from verify.numbers.precision import Precision, to_arb, to_decimal_string

LADDER = (Fraction(1), Fraction(2), Fraction(5), Fraction(10), Fraction(100))  # multiples of R (eq. (74))
PIS = ()  # named π checked beside the derived hardest one (only when some ρ exceeds 1)
LMM = "α locally optimal (Def. 2) with Att-SVM(α) feasible (W^mm_α exists)"


class Point:
    """N = ⟨−∇L(W), Ŵ⟩, D = ⟨−∇L(W), Ŵ^mm_α⟩ at one exact W (``parallel``: W on the W^mm_α ray, N = D exactly)."""

    def __init__(self, model, cone, W, label):
        self.label, self.W = label, W
        self.parallel = same_ray(W, cone.w)
        cr = correlations(CorrelationTables(model, [W, cone.w]), W)
        self.N = cr.values[0] / sqrt_ball(sum((Fraction(x) ** 2 for x in W), Fraction(0)))
        self.D = cr.values[1] / cone.norm

    def rho(self):
        """ρ = N/D (exactly 1 on the ray); None when D is not certainly > 0."""
        if not self.D > 0:
            return None
        return Fraction(1) if self.parallel else self.N / self.D

    def margin(self, pi) -> object:
        """((1 + π)D − N)/|D| (exactly π·sign D on the ray); nan when the sign of D is undecided."""
        pi = Fraction(pi)
        if self.parallel:
            return pi if self.D > 0 else -pi if self.D < 0 else arb("nan")
        if self.D > 0 or self.D < 0:
            return ((1 + to_arb(pi)) * self.D - self.N) / abs(self.D)
        return arb("nan")

    def every_pi(self) -> bool | None:
        """D > 0 and ρ ≤ 1 (then (1 + π)D − N ≥ πD > 0 for every π > 0): True, False when certainly not, else None."""
        if self.D < 0:
            return False
        r = self.rho()
        if r is None:
            return None
        return True if r <= 1 else False if r > 1 else None


def evaluate(data: Dataset, prec: Precision, alphas=None, pis=PIS, ladder=LADDER, loss: str = "logistic",
             random_dirs: int = 2, points=None, require_cone: bool = True, require_lmm: bool = True) -> Outcome:
    """``alphas``: selections (0-indexed) instead of every locally-optimal one; ``points``: [(label, exact W)] replace
    the samples (the π's are then ``pis`` or ½), each required in cone_μ(α)(W^mm_α) unless ``require_cone=False``;
    ``require_lmm=False`` drops local optimality (false cases only)."""
    out = Outcome(hypotheses=[assumption_a(loss, data)])
    if not out.applicable():
        return out
    met, detail, cones = lmm_selections(data, alphas, prec.dps, require_lmm)
    if require_lmm:
        out.hypotheses.append(Hypothesis(LMM, met, detail))
    else:
        out.notes.append("α locally optimal NOT required (false case)")
    if not out.applicable():
        return out
    model = LinearLogitModel.from_dataset(data, "W", loss)
    covered = []
    for cone in cones:
        mu, R = cone.mu, cone.radius()
        out.add(Evidence(f"{cone.name}: μ(α) (exact)", mu),
                Evidence(f"{cone.name}: R of (74) (the ladder's unit; v1's R_π has an unspecified constant)", R,
                         note="" if R is not None else "undefined: γ^gap_min ≤ 0 (α not locally optimal)"))
        if points is not None:
            given(out, model, cone, points, pis or ("1/2",), require_cone)
            covered.append(cone.name)
            continue
        if R is None:
            out.require(f"{cone.name}: R of (74) defined", False, "γ^gap_min ≤ 0")
            continue
        dirs = cone_directions(data, cone, mu, other_directions(cones, cone), random_dirs)
        rungs = {f: [Point(model, cone, at_norm(d, R * to_arb(f)), f"{lb}, ‖W‖_F ≥ {f}·R") for lb, d in dirs]
                 for f in ladder}
        every = {f: all(p.every_pi() is True for p in pts) for f, pts in rungs.items()}
        R0, dec = rules.witness(list(ladder), lambda f: every[f])
        rhos = [p.rho() for pts in rungs.values() for p in pts if p.rho() is not None]
        rho_max = max(rhos, key=lambda r: to_arb(r).mid(), default=None)
        off = [p.rho() for pts in rungs.values() for p in pts if not p.parallel and p.rho() is not None]
        out.add(Evidence(f"{cone.name}: max ρ(W) = ⟨−∇L, Ŵ⟩/⟨−∇L, Ŵ^mm_α⟩ over the sampled W off the W^mm_α ray "
                         "(all rungs; on the ray ρ = 1 exactly)", max(off, key=lambda r: r.mid(), default=None)))
        if R0 is not None:  # the hardest π → 0⁺: settled for every π > 0 at once
            out.add(Evidence(f"{cone.name}: every π > 0 — ∃R_π: D > 0 and ρ ≤ 1 at every sampled W ∈ C_(μ,r), r ≥ "
                             f"R_π on the ladder R·{{{', '.join(map(str, ladder))}}}", to_arb(R0) * R, rule=dec,
                             note=dec.detail + " (multiples of R)"))
            tally = ProbeInequality(f"{cone.name}: every π > 0 — max ρ(W) at the sampled W with ‖W‖_F ≥ R_π", "<=",
                                    1)
            for f in ladder:
                if f >= R0:
                    for p in rungs[f]:
                        tally.add(p.rho() if p.rho() is not None else arb("nan"), p.label)
            out.add(tally.evidence(f"R_π = {R0}·R = {to_decimal_string(to_arb(R0) * R, 6)}"))
            covered.append(f"{cone.name}: every π > 0 (max ρ ≤ 1 from {R0}·R)")
            continue
        runs = [Fraction(p) for p in pis]
        if rho_max is not None and rho_max > 1:
            runs.append(rational_below((to_arb(rho_max) - 1) / 2))
        for pi in runs:
            Rp, dp = rules.witness(list(ladder), lambda f: all((p.margin(pi) >= 0) is True for p in rungs[f]))
            out.add(Evidence(f"{cone.name}, π = {pi}: ∃R_π on the ladder R·{{{', '.join(map(str, ladder))}}}",
                             to_arb(Rp) * R if Rp is not None else None, rule=dp, note=dp.detail))
            if Rp is not None:
                tally = ProbeInequality(f"{cone.name}, π = {pi}: min over sampled W, ‖W‖_F ≥ R_π, of ((1+π)D − N)/|D|",
                                        ">=", 0)
                for f in ladder:
                    if f >= Rp:
                        for p in rungs[f]:
                            tally.add(p.margin(pi), p.label)
                out.add(tally.evidence())
        covered.append(f"{cone.name}: π ∈ {{{', '.join(map(str, runs))}}}")
    out.cover("; ".join(covered))
    if points is None:
        out.range = (f"‖W‖_F ≤ {LADDER[-1] if ladder == LADDER else max(ladder)}·R (radius ladder R·"
                     f"{{{', '.join(map(str, ladder))}}}, R of (74)); W at W^mm_α and cone-boundary points "
                     f"({random_dirs} random)")
    return out


def given(out, model, cone, points, pis, require_cone):
    """The inequality at the given points (scope tests): each must be in cone_μ(W^mm_α) unless ``require_cone=False``."""
    pts = [(lb, tuple(Fraction(x) for x in W)) for lb, W in points]
    if require_cone:
        bad = [lb for lb, W in pts if not cone_slack(W, cone.w, cone.mu) >= 0]
        out.hypotheses.append(Hypothesis(f"{cone.name}: every given W ∈ cone_μ(α)(W^mm_α) (exact)", not bad,
                                         f"outside: {bad[:3]}" if bad else "all inside"))
        if bad:
            return
    else:
        out.notes.append("W ∈ C_(μ,R_π)(W^mm_α) NOT required (false case)")
    for pi in pis:
        tally = ProbeInequality(f"{cone.name}, π = {pi}: min over the given W of ((1+π)D − N)/|D|, "
                                "N = ⟨−∇L, Ŵ⟩, D = ⟨−∇L, Ŵ^mm_α⟩", ">=", 0)
        for lb, W in pts:
            tally.add(Point(model, cone, W, lb).margin(pi), lb)
        out.add(tally.evidence())


def default_datasets(seed: int = 0):
    return [D.d_lmm(), D.d_t2(), D.lemma4_cross(), D.thm4_trap()]


STATEMENT = """\
Assumption A; α locally optimal; μ = μ(α): for every π > 0 there is R_π such that for every W ∈ C_{μ,R_π}(W^mm_α),
⟨∇L(W), Ŵ⟩ ≥ (1+π)⟨∇L(W), Ŵ^mm_α⟩ (v1 App. C; R_π = max(2, 1/δ)/Θ·log(C·TΓA/(πγ^gap_min)), C unspecified).

Decided in the difference form (1+π)⟨−∇L, Ŵ^mm_α⟩ − ⟨−∇L, Ŵ⟩ ≥ 0 at sampled W of the cone on the radius ladder
R·{1, 2, 5, 10, 100} (R of (74)); every π > 0 at once where ρ ≤ 1 (the hardest case π → 0⁺). Evidence over the ladder.
"""

CLAIM = register(Claim(id="tfsvm.lemma14", paper="tfsvm", number="Lemma 14", kind="existential",
                       title="Local cone: the gradient correlates more with W^mm_α than with W",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("local-correlation",),
                       parameters=(
                           Parameter("α", "every locally-optimal α", "hardest",
                                     "every locally-optimal α of [T]^n, enumerated (α = opt alone beyond the "
                                     "enumeration limit)"),
                           Parameter("π", "for every π > 0 (∃R_π)", "hardest",
                                     "π → 0⁺ (ρ ≤ 1 at every sample from a witness radius: every π at once); "
                                     "else π_h = (max ρ − 1)/2 and the named `pis`, each with a witness R_π on the "
                                     "radius ladder", option="pis", kind="rationals", low=0, high=2),
                           Parameter("W", "every W ∈ C_(μ,R_π)(W^mm_α)", "search",
                                     "W^mm_α and cone-boundary points (other LMM/GMM directions, ±token directions, "
                                     "random) on the radius ladder R·{1, 2, 5, 10, 100} until the witness settles"))))
