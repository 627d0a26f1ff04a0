"""Constraint rows of the SVM family, built exactly (Fractions) from a dataset and a selection α.

Every problem has the form  min ‖x‖  s.t.  a_jᵀx ≥ b_j  (j = 0..m-1)  with rows ``a_j`` and
right-hand sides ``b_j`` exact rationals:

* ``p``      rows ``k_{iα_i} − k_it`` (keys, ``Dataset.keys()``), ‖·‖₂               (ATT-SVM)
* ``W``      rows ``vec((x_{iα_i} − x_it) z_iᵀ)`` (row-major, d² entries), ‖W‖_F     (Att-SVM)
* ``KQ``     the same rows, nuclear norm ‖W‖_*; optional rank ≤ m                      (Att-SVM⋆)
* ``diag``   rows ``z_i ⊙ (x_{iα_i} − x_it)``, ‖w‖₁                                    (ℓ1-SVM)
* ``v``      label SVM rows ``Y_i x_{iα_i}``, ‖·‖₂                                     (SVM)
* ``relaxed`` the ``p`` rows, right-hand side 1 on a support set S of inputs, 0 elsewhere (mmts (10))

Indices are 0-based. ``index[j] = (i, t)`` names the token of row j (for ``v``: ``(i, α_i)``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verify.errors import DataError, UsageError

KINDS = ("p", "W", "KQ", "diag", "v", "relaxed")
NORMS = {"p": "l2", "W": "fro", "KQ": "nuc", "diag": "l1", "v": "l2", "relaxed": "l2"}
OBJECTIVE_NAMES = {"l2": "‖p‖₂", "fro": "‖W‖_F", "nuc": "‖W‖_*", "l1": "‖w‖₁"}

_ZERO = Fraction(0)
_ONE = Fraction(1)


@dataclass(frozen=True)
class Problem:
    """min ‖x‖_norm s.t. rows[j]·x ≥ rhs[j]; exact data. ``shape`` is (d,) or (d, d)."""

    kind: str
    norm: str
    rows: tuple
    rhs: tuple
    index: tuple
    select: tuple
    shape: tuple
    rank: int | None = None
    support_set: tuple | None = None

    @property
    def m(self) -> int:
        return len(self.rows)

    @property
    def dim(self) -> int:
        out = 1
        for s in self.shape:
            out *= s
        return out

    def matrix(self, j: int):
        """Row j as a d×d matrix (W-shaped kinds only)."""
        d = self.shape[0]
        r = self.rows[j]
        return [list(r[a * d:(a + 1) * d]) for a in range(d)]

    def reshape(self, x):
        """A flat solution as p/w (list) or W (list of rows)."""
        x = list(x)
        if len(self.shape) == 1:
            return x
        d = self.shape[0]
        return [x[a * d:(a + 1) * d] for a in range(d)]


def _scores(dataset):
    s = dataset.scores
    return s() if callable(s) else s


def select_tokens(dataset, select="opt") -> tuple[int, ...]:
    """α as a tuple of 0-based token indices: ``"opt"`` (argmax of scores; a tie is a DataError),
    a tuple/list of ints, or a string ``"0,2,1"``. Out-of-range or wrong length → UsageError."""
    n, T = dataset.n, dataset.T
    if isinstance(select, str) and select.strip().lower() == "opt":
        alpha = []
        for i, g in enumerate(_scores(dataset)):
            top = max(g)
            arg = [t for t, x in enumerate(g) if x == top]
            if len(arg) > 1:
                raise DataError(
                    f"optimal token of sequence {i} is tied between tokens {arg} (scores equal); "
                    "pass an explicit selection with --select")
            alpha.append(arg[0])
        return tuple(alpha)
    if isinstance(select, str):
        try:
            select = [int(s) for s in select.split(",")]
        except ValueError:
            raise UsageError(f"--select must be 'opt' or comma-separated token indices, got {select!r}")
    try:
        alpha = tuple(int(a) for a in select)
    except (TypeError, ValueError):
        raise UsageError(f"selection must be 'opt' or a list of token indices, got {select!r}")
    if len(alpha) != n:
        raise UsageError(f"selection has {len(alpha)} indices, the dataset has n = {n} sequences")
    for i, a in enumerate(alpha):
        if not 0 <= a < T:
            raise UsageError(f"selection index {a} of sequence {i} is outside 0..{T - 1}")
    return alpha


def _sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def build_problem(dataset, kind: str, select="opt", *, rank: int | None = None,
                  support_set=None) -> Problem:
    """The exact constraint rows of ``kind`` for ``dataset`` and selection ``select``.

    ``rank`` (KQ only) is the m of the rank ≤ m variant. ``support_set`` (relaxed only) is the
    set S of inputs with right-hand side 1 (others get 0); it must be given for ``relaxed``.
    """
    if kind not in KINDS:
        raise UsageError(f"unknown SVM kind {kind!r}; choose one of {', '.join(KINDS)}")
    alpha = select_tokens(dataset, select)
    X, n, T, d = dataset.X, dataset.n, dataset.T, dataset.d
    rows, rhs, index = [], [], []
    if kind == "v":
        for i in range(n):
            y = Fraction(dataset.Y[i])
            rows.append(tuple(y * x for x in X[i][alpha[i]]))
            rhs.append(_ONE)
            index.append((i, alpha[i]))
        return Problem(kind, "l2", tuple(rows), tuple(rhs), tuple(index), alpha, (d,))
    if kind in ("p", "relaxed"):
        keys = dataset.keys()
        dk = len(keys[0][0])
        S = None
        if kind == "relaxed":
            if support_set is None:
                raise UsageError("the relaxed SVM needs a support set S of inputs")
            S = tuple(sorted(set(int(i) for i in support_set)))
            if any(not 0 <= i < n for i in S):
                raise UsageError(f"support set {S} has an index outside 0..{n - 1}")
        for i in range(n):
            ka = keys[i][alpha[i]]
            b = _ONE if (S is None or i in S) else _ZERO
            for t in range(T):
                if t != alpha[i]:
                    rows.append(_sub(ka, keys[i][t]))
                    rhs.append(b)
                    index.append((i, t))
        return Problem(kind, "l2", tuple(rows), tuple(rhs), tuple(index), alpha, (dk,),
                       support_set=S)
    Z = dataset.queries()
    for i in range(n):
        xa = X[i][alpha[i]]
        z = Z[i]
        for t in range(T):
            if t == alpha[i]:
                continue
            diff = _sub(xa, X[i][t])
            if kind == "diag":
                rows.append(tuple(zz * dd for zz, dd in zip(z, diff)))
            else:
                rows.append(tuple(dd * zz for dd in diff for zz in z))
            rhs.append(_ONE)
            index.append((i, t))
    if kind == "diag":
        return Problem(kind, "l1", tuple(rows), tuple(rhs), tuple(index), alpha, (d,))
    if kind == "W":
        return Problem(kind, "fro", tuple(rows), tuple(rhs), tuple(index), alpha, (d, d))
    if rank is not None and (int(rank) < 1):
        raise UsageError(f"rank bound m must be a positive integer, got {rank!r}")
    return Problem(kind, "nuc", tuple(rows), tuple(rhs), tuple(index), alpha, (d, d),
                   rank=None if rank is None else int(rank))


def problem_from_rows(rows, rhs, norm: str = "l2", shape=None, kind: str | None = None) -> Problem:
    """A problem straight from exact rows (for tests and for callers with their own constraints)."""
    rows = tuple(tuple(Fraction(x) for x in r) for r in rows)
    rhs = tuple(Fraction(b) for b in rhs)
    if not rows:
        raise DataError("an SVM needs at least one constraint row")
    dim = len(rows[0])
    if any(len(r) != dim for r in rows) or len(rhs) != len(rows):
        raise DataError("constraint rows must all have the same length and one right-hand side each")
    if shape is None:
        shape = (dim,)
    kind = kind or {"l2": "p", "fro": "W", "nuc": "KQ", "l1": "diag"}[norm]
    return Problem(kind, norm, rows, rhs, tuple((j, 0) for j in range(len(rows))), (), tuple(shape))
