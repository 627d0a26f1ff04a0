"""Reference SVM directions for the trajectories, from ``verify.svm``.

When a selection is infeasible the reference is ``None`` and the trajectory leaves the 1 − corr
column empty (imported lazily: cvxpy costs ~1.5 s to import, and ``--no-svm`` runs skip it). The diagonal W
trained directly (``beta``) converges to the ℓ2 SVM on the rows z_i ⊙ (x_iα − x_it), which is the
``p`` kind on the dataset whose keys are z_i ⊙ x_it.
"""
from __future__ import annotations

from fractions import Fraction

from flint import arb

from verify.data.dataset import Dataset
from verify.numbers.precision import to_arb

_CACHE: dict = {}


def _flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for y in x:
            out.extend(_flatten(y))
        return out
    return [x]


def _to_arb(x) -> arb:
    if isinstance(x, arb):
        return arb(x.mid())
    if isinstance(x, (int, Fraction)):
        return to_arb(x)
    if hasattr(x, "p") and hasattr(x, "q"):  # fmpq
        return to_arb(Fraction(int(x.p), int(x.q)))
    return arb(str(x))  # decimal string, mpf


def beta_dataset(data: Dataset) -> Dataset:
    """The diagonal W = Diag(β) trained directly as the prompt model: keys z_i ⊙ x_il (logits βᵀ(z_i ⊙ x_il)), the
    scores unchanged (values X, head v) — so its gradient flow is β̇ = −∇_βℒ and its "p" SVM the diagonal ℓ2-SVM."""
    Z = data.queries()
    K = [[[a * b for a, b in zip(x, z)] for x in seq] for seq, z in zip(data.X, Z)]
    return Dataset(data.X, data.Y, data.v, tuple(tuple(tuple(r) for r in seq) for seq in K), data.z, data.u, data.name)


def svm_direction(data: Dataset, kind: str, select="opt", dps: int = 60):
    """The SVM solution (flattened row-major, arb) for ``kind`` and token selection, or None when
    the problem is infeasible or cannot be solved (the reason is kept, see ``last_note``)."""
    from verify.errors import VerifyError
    from verify.svm import solve_svm

    key = (id(data), data.name, kind, tuple(select) if not isinstance(select, str) else select, dps)
    if key in _CACHE:
        return _CACHE[key][0]
    ds, k = (beta_dataset(data), "p") if kind == "beta" else (data, kind)
    sel = select if isinstance(select, str) else tuple(select)
    try:  # uniqueness is not needed for a reference direction
        res = solve_svm(ds, k, select=sel, dps=max(15, min(dps, 10000)), check_unique=False)
    except (VerifyError, ArithmeticError) as exc:  # a failed reference must not stop a trajectory
        return _store(key, None, f"svm {kind} {select}: {type(exc).__name__}: {exc}")
    if res.status != "optimal" or res.solution is None:
        return _store(key, None, f"svm {kind} {select}: {res.status}")
    return _store(key, [_to_arb(x) for x in _flatten(res.solution)], None)


def satt_direction(data: Dataset, causal: bool, alpha=None, norm: str = "fro", dps: int = 60):
    """SAtt-SVM's solution (flat, arb; ``verify.svm.seq2seq.satt_svm``) for the n×T selection ``alpha`` (None:
    the per-query optimal tokens), or None when infeasible / unsolved (reason in ``last_note``)."""
    from verify.errors import VerifyError
    from verify.svm.seq2seq import satt_svm

    sel = None if alpha is None else tuple(tuple(r) for r in alpha)
    key = (id(data), data.name, "satt-" + norm + ("-causal" if causal else ""), sel, dps)
    if key in _CACHE:
        return _CACHE[key][0]
    try:
        res = satt_svm(data, sel, causal, dps=max(15, min(dps, 10000)), norm=norm, check_unique=False)
    except (VerifyError, ArithmeticError) as exc:
        return _store(key, None, f"SAtt-SVM {norm} {sel}: {type(exc).__name__}: {exc}")
    if res.status != "optimal" or res.solution is None:
        return _store(key, None, f"SAtt-SVM {norm} {sel}: {res.status}")
    return _store(key, [_to_arb(x) for x in _flatten(res.solution)], None)


def _store(key, value, note):
    _CACHE[key] = (value, note)
    return value


def last_note(data: Dataset, kind: str, select="opt", dps: int = 60):
    key = (id(data), data.name, kind, tuple(select) if not isinstance(select, str) else select, dps)
    return _CACHE.get(key, (None, None))[1]
