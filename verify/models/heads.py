"""A nonlinear prediction head on top of the attention output (mmts Lemma 1: h differentiable).

L(θ) = (1/n) Σ_i ℓ(Y_i h(φ_i)), φ_i = vᵀX_iᵀS(F_i θ), h = tanh. The engine's stable softmax states
are reused with the *unsigned* scores vᵀx_it (``LinearLogitModel`` with the correlation loss), so
φ_i = vᵀX_iᵀs_i, c_t = s_t(vᵀx_t − φ_i) and ∂φ_i/∂θ = F_iᵀc_i:

    ∇L(θ) = (1/n) Σ_i ℓ'(Y_i h(φ_i)) Y_i h'(φ_i) F_iᵀ c_i,     h' = sech² (no 1 − tanh² cancellation).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb, arb_mat

from verify.errors import UsageError
from verify.models.attention import LinearLogitModel, Sweep
from verify.models.losses import get_loss
from verify.numbers.precision import to_arb

HEADS = ("linear", "tanh")


class TanhHeadModel:
    """∇θ of (1/n) Σ_i ℓ(Y_i tanh(vᵀ X_iᵀ S(F_i θ))) at the working precision (``grad`` only)."""

    def __init__(self, feats, data, loss):
        raw = tuple(tuple(sum((a * b for a, b in zip(x, data.v)), Fraction(0)) for x in seq) for seq in data.X)
        self.model = LinearLogitModel(feats, raw, "correlation")
        self.loss = get_loss(loss)
        self.Y = data.Y

    def grad(self, theta):
        m = self.model
        acc = [arb(0)] * m.D
        for Fi, st, y in zip(m.F, m.states(theta), self.Y):
            w = self.loss.d1(y * st.phi.tanh()) * y / st.phi.cosh() ** 2
            for row, ct in zip(Fi, st.c):
                wc = w * ct
                acc = [a + wc * f for a, f in zip(acc, row)]
        return [a / m.n for a in acc]


def head_model(feats, data, loss, head: str):
    """The model with the head ``head`` ("linear": h(r) = vᵀr, the paper's; "tanh": h(r) = tanh(vᵀr))."""
    if head == "linear":
        return LinearLogitModel(feats, data.scores, loss)
    if head == "tanh":
        return TanhHeadModel(feats, data, loss)
    raise ValueError(f"unknown head {head!r}; choose one of {', '.join(HEADS)}")


# ------------------------------------------------------------------------------------------------
# General heads h: ℝ^d → ℝ on the attention output r_i = X_iᵀ s_i (tfsvm §6, Lemma 6, Conjecture 1;
# mmts Theorem 8, Lemma 14: f_θ(X) = h(Xᵀ S(Fθ)))
# ------------------------------------------------------------------------------------------------
HEAD_KINDS = ("linear", "concave", "mlp", "tanh")


class Head:
    """A prediction head h on the attention output r ∈ ℝ^d, with ∇h (or the subgradient of the stated
    convention); ``v`` is the head's output vector (the dataset's v)."""

    kind = "head"

    def value_grad(self, r: list) -> tuple[arb, list]:
        raise NotImplementedError

    def value(self, r: list) -> arb:
        return self.value_grad(r)[0]

    def describe(self) -> str:
        raise NotImplementedError


def _dot(a, b) -> arb:
    return sum((x * y for x, y in zip(a, b)), arb(0))


def _arbs(xs) -> list:
    return [to_arb(Fraction(x)) if not isinstance(x, arb) else x for x in xs]


class LinearHead(Head):
    """h(r) = vᵀr (the papers' theory)."""

    kind = "linear"

    def __init__(self, v):
        self.v = tuple(Fraction(x) for x in v)

    def value_grad(self, r):
        v = _arbs(self.v)
        return _dot(v, r), v

    def describe(self):
        return "h(x) = vᵀx"


class ConcaveHead(Head):
    """h(r) = vᵀr − λ‖r‖² (tfsvm Lemma 6), ∇h = v − 2λr."""

    kind = "concave"

    def __init__(self, v, lam):
        self.v = tuple(Fraction(x) for x in v)
        self.lam = Fraction(lam)

    def value_grad(self, r):
        v, lam = _arbs(self.v), to_arb(self.lam)
        return _dot(v, r) - lam * _dot(r, r), [a - 2 * lam * b for a, b in zip(v, r)]

    def describe(self):
        return f"h(x) = vᵀx − λ‖x‖², λ = {self.lam}"


def relu_slope(u: arb) -> arb:
    """The ReLU subgradient convention: 1 where u is certainly > 0; 0 where u is certainly < 0 or exactly 0
    (PyTorch's convention ReLU'(0) = 0); the ball [0, 1] — the whole Clarke subdifferential — where the sign of u
    is not decided at the working precision, so that every figure built on it is an enclosure."""
    if u > 0:
        return arb(1)
    if u < 0 or (u.is_exact() and u == 0):
        return arb(0)
    return arb("0.5", "0.5")


def relu(u: arb) -> arb:
    """max(u, 0) as an enclosure (u itself, 0, or the hull [0, max(u, 0)] when the sign is undecided)."""
    if u > 0:
        return u
    if u < 0 or (u.is_exact() and u == 0):
        return arb(0)
    hi = arb(u.upper())
    return arb(hi / 2, hi / 2)


class MLPHead(Head):
    """h(r) = vᵀReLU(Vr) (tfsvm §6, Fig. 8/11: the authors' code uses v = 𝟙 and a random V with ‖V‖_F = 1),
    ∇h = Vᵀ(v ⊙ ReLU'(Vr)) with the subgradient convention of ``relu_slope``."""

    kind = "mlp"

    def __init__(self, v, V):
        self.v = tuple(Fraction(x) for x in v)
        self.V = tuple(tuple(Fraction(x) for x in row) for row in V)

    def value_grad(self, r):
        v = _arbs(self.v)
        V = [_arbs(row) for row in self.V]
        u = [_dot(row, r) for row in V]
        val = sum((vj * relu(uj) for vj, uj in zip(v, u)), arb(0))
        w = [vj * relu_slope(uj) for vj, uj in zip(v, u)]
        d = len(r)
        return val, [sum((w[j] * V[j][a] for j in range(len(V))), arb(0)) for a in range(d)]

    def describe(self):
        return f"h(x) = vᵀReLU(Vx), V {len(self.V)}×{len(self.V[0])}"


class TanhScalarHead(Head):
    """h(r) = tanh(vᵀr) (mmts Lemma 1's nonlinear example), h' = sech²."""

    kind = "tanh"

    def __init__(self, v):
        self.v = tuple(Fraction(x) for x in v)

    def value_grad(self, r):
        v = _arbs(self.v)
        u = _dot(v, r)
        c = 1 / u.cosh() ** 2
        return u.tanh(), [c * x for x in v]

    def describe(self):
        return "h(x) = tanh(vᵀx)"


def make_head(spec, v) -> Head:
    """The head of a dataset's ``head`` spec ((kind, parameter) as stored by ``Dataset``: ("concave", λ),
    ("mlp", V), ("linear", None), ("tanh", None)); None → the linear head vᵀx."""
    if spec is None:
        return LinearHead(v)
    kind, par = spec
    if kind == "linear":
        return LinearHead(v)
    if kind == "concave":
        return ConcaveHead(v, par)
    if kind == "mlp":
        return MLPHead(v, par)
    if kind == "tanh":
        return TanhScalarHead(v)
    raise ValueError(f"unknown head {kind!r}; choose one of {', '.join(HEAD_KINDS)}")


@dataclass
class HeadState:
    """The softmax state of one sequence under a head: ``r`` the logits' argmax (the engine's pivot), ``s`` the
    softmax, ``out`` = X_iᵀs (formed as x_r + Σ_t s_t(x_t − x_r): exact differences, no 1 − s_r), ``h`` = h(out),
    ``phi`` = Y_i h, ``c`` the head-linearised weights c_t = s_t(g_t − Σ_u s_u g_u), g_t = ∇h(out)ᵀx_t."""

    r: int
    s: list
    out: list
    h: arb
    phi: arb
    c: list


class HeadModel:
    """L(θ) = (1/n) Σ_i ℓ(Y_i h(X_iᵀ S(F_i θ))) and ∇_θL at the working precision, for any ``Head``.

    With g = ∇h(r_i) (r_i = X_iᵀs_i) the chain rule through the softmax gives ∂h/∂θ = Σ_t s_t(gᵀx_t − gᵀr_i) F_it,
    i.e. the linear model's c_t = s_t(γ_t − φ) with the *local* scores γ_t = gᵀx_t. It is evaluated as in
    ``LinearLogitModel``: dev_t = gᵀ(x_t − x_r) from the exact token differences (0 exactly at the pivot r),
    md = Σ_t s_t dev_t, c_t = s_t(dev_t − md) — never 1 − s for s ≈ 1. Then

        ∇L(θ) = (1/n) Σ_i ℓ'(Y_i h_i) Y_i Σ_t c_it F_it.

    ``feats``: the feature rows F_it (``verify.models.attention.features``: ``p``, ``W``, ``diag``). ReLU heads use
    the subgradient convention of ``relu_slope``. ``sweep`` gives midpoint gradients (the GD driver's mode)."""

    def __init__(self, feats, data, head: Head, loss="correlation"):
        self.head = head
        self.loss = get_loss(loss)
        self.n, self.T, self.D = len(feats), len(feats[0]), len(feats[0][0])
        self.Y = tuple(data.Y)
        self.X = data.X
        self._Fall = arb_mat([[to_arb(x) for x in row] for seq in feats for row in seq])  # (nT) × D
        self._tok = [[_arbs(x) for x in seq] for seq in data.X]
        # exact differences x_t − x_r for every pivot r
        self._diff = [[[_arbs(tuple(a - b for a, b in zip(seq[t], seq[r]))) for t in range(self.T)]
                       for r in range(self.T)] for seq in data.X]

    def states(self, theta) -> list[HeadState]:
        th = theta if isinstance(theta, arb_mat) else arb_mat(self.D, 1, [to_arb(x) if not isinstance(x, arb) else x
                                                                        for x in theta])
        a = self._Fall * th
        T, out = self.T, []
        for i in range(self.n):
            logits = [a[i * T + t, 0] for t in range(T)]
            r = 0
            for t in range(1, T):  # the first maximum; a later logit wins only if certainly larger
                if logits[t] > logits[r]:
                    r = t
            e = [arb(1) if t == r else (logits[t] - logits[r]).exp() for t in range(T)]
            Z = sum(e, arb(0))
            s = [x / Z for x in e]
            diff = self._diff[i][r]
            o = [xr + sum((s[t] * diff[t][j] for t in range(T) if t != r), arb(0))
                 for j, xr in enumerate(self._tok[i][r])]
            h, g = self.head.value_grad(o)
            dev = [arb(0) if t == r else _dot(g, diff[t]) for t in range(T)]
            md = sum((s[t] * dev[t] for t in range(T) if t != r), arb(0))
            c = [s[t] * (dev[t] - md) for t in range(T)]
            out.append(HeadState(r, s, o, h, self.Y[i] * h, c))
        return out

    def loss_value(self, theta, states=None) -> arb:
        states = states or self.states(theta)
        return sum((self.loss.value(st.phi) for st in states), arb(0)) / self.n

    def grad(self, theta, states=None) -> list:
        states = states or self.states(theta)
        w = [self.loss.d1(st.phi) * y * ct for st, y in zip(states, self.Y) for ct in st.c]
        G = arb_mat(1, self.n * self.T, w) * self._Fall
        return [x / self.n for x in G.entries()]

    def loss_grad(self, theta):
        st = self.states(theta)
        return self.loss_value(theta, st), self.grad(theta, st)

    def sweep(self, thetas, jacobians: bool = False):
        """∇L at each point as midpoints (``LinearLogitModel.sweep``'s contract; no Hessians for heads)."""
        if jacobians:
            raise UsageError("a nonlinear head has no Hessian in the engine (arc-length flow unavailable)")
        return Sweep([[arb(x.mid()) for x in self.grad(th)] for th in thetas])

    def selected(self, theta) -> tuple[int, ...]:
        return tuple(st.r for st in self.states(theta))

    def token_loss(self) -> arb:
        """L_tok = (1/n) Σ_i min_t ℓ(Y_i h(x_it)): the loss of the best one-token selection per sequence."""
        vals = []
        for i in range(self.n):
            vals.append(min((self.loss.value(self.Y[i] * self.head.value(x)) for x in self._tok[i]),
                            key=lambda z: z.mid()))
        return sum(vals, arb(0)) / self.n

    def excess(self, theta, states=None) -> arb:
        """L(θ) − L_tok (recorded by the GD driver as ``loss_gap``; for a linear head L_tok = L⋆, so it is
        L − L⋆; for a head that rewards mixing it can be negative)."""
        return self.loss_value(theta, states) - self.token_loss()


def simplex_projection(y) -> list[Fraction]:
    """Proj_Δ(y) = argmin_{s∈Δ} ‖s − y‖², exactly in rationals: s_t = max(y_t − θ, 0) with
    θ = (Σ_{j≤k} y_(j) − 1)/k over the k largest entries, k = max{k : y_(k) > θ_k} (sort-based algorithm)."""
    y = [Fraction(x) for x in y]
    u = sorted(y, reverse=True)
    acc, theta = Fraction(0), None
    for k, x in enumerate(u, start=1):
        acc += x
        th = (acc - 1) / k
        if x > th:
            theta = th
    return [max(x - theta, Fraction(0)) for x in y]


def token_head_order_values(data, head: Head) -> tuple:
    """Per input, exact rationals whose order is the order of Y_i h(x_it) over the tokens t (the best single-token
    selections): Y_i h(x_it) itself for the linear, concave and MLP heads (rational on rational data), and Y_i vᵀx_it
    for the tanh head (Y tanh(u) = tanh(Yu), tanh increasing)."""
    out = []
    for seq, y in zip(data.X, data.Y):
        vals = []
        for x in seq:
            x = tuple(Fraction(a) for a in x)
            if isinstance(head, (LinearHead, TanhScalarHead)):
                h = sum((a * b for a, b in zip(head.v, x)), Fraction(0))
            elif isinstance(head, ConcaveHead):
                h = sum((a * b for a, b in zip(head.v, x)), Fraction(0)) - head.lam * sum((a * a for a in x), Fraction(0))
            elif isinstance(head, MLPHead):
                u = [sum((a * b for a, b in zip(row, x)), Fraction(0)) for row in head.V]
                h = sum((vj * max(uj, Fraction(0)) for vj, uj in zip(head.v, u)), Fraction(0))
            else:
                raise ValueError(f"no exact token values for the head {head.describe()}")
            vals.append(y * h)
        out.append(tuple(vals))
    return tuple(out)


def optimal_sets(data, head: Head) -> tuple:
    """O_i = argmax_t Y_i h(x_it) (mmts App. D: the tokens whose selection alone gives the best loss), exactly."""
    return tuple(tuple(t for t, g in enumerate(vals) if g == max(vals)) for vals in token_head_order_values(data, head))
