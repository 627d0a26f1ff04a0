"""irgf Assumption 4 — data geometry for general (K, Q) (§5; arXiv 2403.08699 v1).

Statement. (i) x_{i,opt}ᵀ x_{j,opt} = 0 and z_iᵀ z_j = 0 for i ≠ j; (ii) |x_{i,opt}ᵀ z_i| = ‖x_{i,opt}‖ ‖z_i‖ (the
query is parallel to the optimal token); (iii) the non-optimal indices of each sequence split into pairs
(l_{2k−1}, l_{2k}), k = 1..(L−1)/2, each with a constant c ∈ [−1, 1) such that x_{i,opt}ᵀ(x_{i,l_{2k−1}} − x_{i,l_{2k}})
= 0 and x_{i,l_{2k−1}} + x_{i,l_{2k}} = 2c x_{i,opt}. (Unique optimal tokens are presupposed: x_{i,opt} is named.)
Consequences (spec, DERIVED): L odd; n ≤ d; each pair is c x_opt ± r with r ⊥ x_opt. A statement about the data
alone: parameters = ().
How it is checked (exact rational arithmetic: certified either way), by the predicate every irgf claim of §5 uses for
this hypothesis (``verify.kit.irgf.assumption4``: (ii) as ⟨x_opt, z⟩² = ‖x_opt‖²‖z‖² ≠ 0, (iii) by the forced
partner 2c·x_opt − x_a with c = x_optᵀx_a/‖x_opt‖²). One exact item per part, its note naming the failing
sequence / tokens (1-indexed); a tied optimal token fails the first item.
Defaults: D-A4 (c = 1/6), two seeded datasets of ``random_a4_dataset`` (L = 5: two pairs). False cases (tests):
D-A4-SHIFT (one non-optimal token shifted by 0.5·e₃) → VIOLATED naming (iii); D-SEED0 → VIOLATED naming (i) and (ii);
L even → (iii).
"""
from __future__ import annotations

from verify.claims import Claim, Evidence, Outcome, register
from verify.data.irgf import d_a4, random_a4_dataset
from verify.kit import irgf
from verify.numbers.precision import Precision

PARTS = (("i", "ok_i", "(i) x_i,optᵀx_j,opt = 0 and z_iᵀz_j = 0 for every i ≠ j"),
         ("ii", "ok_ii", "(ii) |x_i,optᵀz_i| = ‖x_i,opt‖‖z_i‖ ≠ 0 for every i (query ∥ optimal token)"),
         ("iii", "pairs", "(iii) non-optimal tokens in pairs c·x_opt ± r, r ⊥ x_opt, c ∈ [−1, 1)"))


def evaluate(data, prec: Precision) -> Outcome:
    out = Outcome()
    met, detail, info = irgf.assumption4(data)
    ties = [i + 1 for i, o in enumerate(data.optimal_tokens()) if len(o) > 1]
    out.add(Evidence("sequences whose optimal token is tied (x_i,opt must be named)", len(ties), "==", 0,
                     note=f"tied in sequence(s) {ties} (1-indexed)" if ties else "opt(i) unique in every sequence"))
    if info is None:
        return out
    for key, field, name in PARTS:
        ok = info[field] is not None if field == "pairs" else info[field]
        out.add(Evidence(name, ok, "==", True, note=info["why"][key] or ("exact; " + detail if key == "iii" else "exact")))
    return out


def default_datasets(seed: int = 0):
    return [d_a4(), random_a4_dataset(n=3, L=5, d=4, seed=1), random_a4_dataset(n=2, L=5, d=4, seed=3)]


STATEMENT = """\
(i) x_i,optᵀx_j,opt = 0 and z_iᵀz_j = 0 (i ≠ j); (ii) |x_i,optᵀz_i| = ‖x_i,opt‖‖z_i‖; (iii) the non-optimal tokens
of each sequence pair up with x_a + x_b = 2c·x_opt, x_optᵀ(x_a − x_b) = 0, c ∈ [−1, 1). Decided exactly.
"""

CLAIM = register(Claim(id="irgf.asm4", paper="irgf", number="Assumption 4", kind="identity",
                       title="Orthogonal optimal tokens and queries, query ∥ optimal token, paired non-optimal tokens",
                       statement=STATEMENT, check=evaluate, default_datasets=default_datasets,
                       aliases=("orthogonal-paired-data",), default_precision=30,
                       parameters=()))  # a statement about the data alone
