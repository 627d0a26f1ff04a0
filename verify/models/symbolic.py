"""An independent, symbolic derivation of the attention losses: the oracle the closed forms are tested against.

``verify.models.attention.LinearLogitModel`` computes the loss, gradient and Hessian of

    L(θ) = (1/n) Σ_i ℓ(φ_i),   φ_i = Σ_t softmax(F_i θ)_t γ_it

from hand-derived, cancellation-free closed forms (log-domain softmax, c_t = s_t(γ_t − φ), …).
Hand derivations are exactly where sign slips and transposes hide, so this module derives the same
quantities a second, unrelated way: it writes the per-sample loss literally as a sympy expression in
symbols for the features F (T×D), the scores γ (T) and the parameters, lets ``sympy.diff`` produce
the gradient (and the Hessian), and ``sympy.lambdify(..., modules="mpmath")`` turns the result into
an mpmath function. No formula of ``attention.py`` is reused: only the definition of the model.

Parameterisations (``param``):

* ``"linear"`` (also ``"p"``, ``"W"``, ``"diag"``): logits a_t = F_t·θ; θ ∈ ℝ^D. Which of p / W /
  diag it is only changes the features (``verify.models.attention.features``), so one derivation serves all.
* ``"KQ"``: W = K Qᵀ with K, Q ∈ ℝ^{d×m}; the features are those of ``W`` (D = d², row-major
  vec(x zᵀ)) and the parameter vector is (vec K, vec Q), both row-major, length 2dm. The logits
  a_t = Σ_{a,b} F_t[a·d+b] Σ_c K_ac Q_bc are formed symbolically, so the derivative goes through the
  product (no chain rule written by hand; the closed-form check is ∇_K = G Q, ∇_Q = Gᵀ K).
* ``"diag_kq"``: β = k ⊙ q with k, q ∈ ℝ^d; features those of ``diag`` (D = d); parameters (k, q).

Losses (``verify.models.losses``): logistic ℓ(u) = log(1 + e^{−u}), exponential e^{−u}, correlation −u.

Numerics. The lambdified functions evaluate the *naive* expressions: softmax as e^{a_t}/Σ_u e^{a_u}
and its derivatives as sympy writes them. mpmath's exponent range is unbounded, so nothing
overflows, but when the softmax saturates (gaps a_r − a_t ≫ 1) the gradient is a difference of O(1)
terms that agree to about (gap / ln 10) digits, and L − L⋆ likewise. The caller must therefore raise
mpmath's precision by that many digits (see ``reference_dps``) for the reference to be accurate —
that cost is accepted here, since this module is an oracle for tests, not a production path.

Compiled functions are cached (``functools.lru_cache``) per (T, D, loss, what, param, m): deriving a
T = 4, D = 4 Hessian takes about a second, evaluating it a millisecond.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy
from mpmath.libmp import from_rational, round_nearest

from verify.errors import UsageError

LINEAR_PARAMS = ("linear", "p", "W", "diag")
PARAMS = LINEAR_PARAMS + ("KQ", "diag_kq")
LOSS_NAMES = ("logistic", "exponential", "correlation")
WHATS = ("loss", "grad", "hessian")


# ----- exact conversion into mpmath ---------------------------------------------------------------
def to_mpf(x) -> mpmath.mpf:
    """x as an mpmath number at the current mpmath precision, never through float64.

    Fractions/ints/rational strings are rounded once (correctly) to mp.prec; an arb ball contributes
    its midpoint, converted exactly from (mantissa, exponent) — rounded only if mp.prec is lower than
    the ball's own precision. Floats are refused, as in ``precision.to_arb``.
    """
    if isinstance(x, mpmath.mpf):
        return +x  # round to the current precision
    if isinstance(x, bool):
        raise TypeError("refusing to convert a bool to mpf")
    if isinstance(x, int):
        return mpmath.mpf(x)
    if isinstance(x, str):
        x = Fraction(x)
    if isinstance(x, Fraction):
        return mpmath.mpf(from_rational(x.numerator, x.denominator, mpmath.mp.prec, round_nearest))
    try:
        from flint import arb, fmpq, fmpz
    except ImportError:  # pragma: no cover
        arb = fmpq = fmpz = ()
    if isinstance(x, fmpz):
        return mpmath.mpf(int(x))
    if isinstance(x, fmpq):
        return to_mpf(Fraction(int(x.p), int(x.q)))
    if isinstance(x, arb):
        if not x.is_finite():
            raise ValueError(f"cannot convert a non-finite arb {x} to mpf")
        man, exp = x.mid().man_exp()
        return mpmath.mpf((int(man), int(exp)))
    raise TypeError(f"refusing inexact conversion of {type(x).__name__} to mpf")


def reference_dps(target_dps: int, logit_spread=0, score_bound=0, extra: int = 20) -> int:
    """mpmath digits for the naive symbolic expressions to be good to ``target_dps`` digits.

    * ``logit_spread`` bounds max_t a_t − min_t a_t over the sequences: a saturated softmax makes the
      derivatives (and L − L⋆) differences of O(1) terms that cancel down to ~e^{−gap}, losing
      gap/ln 10 digits;
    * ``score_bound`` bounds |γ|: the logistic loss written as log(1 + e^{−u}) loses u/ln 10 digits
      when u ≫ 0 (1 + e^{−u} rounds);
    * ``extra`` covers the O(1) factors (scores, features, T, n).
    """
    lost = sum(float(abs(Fraction(x))) / math.log(10) for x in (logit_spread, score_bound))
    return int(target_dps + math.ceil(lost) + extra)


# ----- the derivation -----------------------------------------------------------------------------
def _loss_expr(name: str, u):
    if name == "logistic":
        return sympy.log(1 + sympy.exp(-u))
    if name == "exponential":
        return sympy.exp(-u)
    if name == "correlation":
        return -u
    raise UsageError(f"unknown loss {name!r}; choose one of {', '.join(LOSS_NAMES)}")


def _canonical_param(param: str) -> str:
    if param in LINEAR_PARAMS:
        return "linear"
    if param in ("KQ", "diag_kq"):
        return param
    raise UsageError(f"unknown parameterisation {param!r}; choose one of {', '.join(PARAMS)}")


def derive(T: int, D: int, loss: str = "logistic", param: str = "linear", m: int | None = None):
    """The symbolic per-sample loss: (F symbols T×D, γ symbols T, parameter symbols, L expression).

    For ``"KQ"`` D must be a square d² and ``m`` the inner dimension; for ``"diag_kq"`` D = d.
    """
    param = _canonical_param(param)
    F = [[sympy.Symbol(f"F_{t}_{j}", real=True) for j in range(D)] for t in range(T)]
    g = [sympy.Symbol(f"g_{t}", real=True) for t in range(T)]
    if param == "linear":
        params = [sympy.Symbol(f"th_{j}", real=True) for j in range(D)]
        beta = params
    elif param == "KQ":
        d = math.isqrt(D)
        if d * d != D or not m:
            raise UsageError(f"KQ needs D = d² features and m ≥ 1, got D = {D}, m = {m}")
        K = [[sympy.Symbol(f"K_{a}_{c}", real=True) for c in range(m)] for a in range(d)]
        Q = [[sympy.Symbol(f"Q_{b}_{c}", real=True) for c in range(m)] for b in range(d)]
        params = [x for row in K for x in row] + [x for row in Q for x in row]
        beta = [sum((K[a][c] * Q[b][c] for c in range(m)), sympy.Integer(0)) for a in range(d) for b in range(d)]
    else:  # diag_kq
        k = [sympy.Symbol(f"k_{j}", real=True) for j in range(D)]
        q = [sympy.Symbol(f"q_{j}", real=True) for j in range(D)]
        params = k + q
        beta = [kj * qj for kj, qj in zip(k, q)]
    logits = [sum((F[t][j] * beta[j] for j in range(D)), sympy.Integer(0)) for t in range(T)]
    e = [sympy.exp(a) for a in logits]
    Z = sum(e, sympy.Integer(0))
    phi = sum((e[t] * g[t] for t in range(T)), sympy.Integer(0)) / Z  # Σ_t softmax_t γ_t, as written
    return F, g, params, _loss_expr(loss, phi)


@lru_cache(maxsize=None)
def compiled(T: int, D: int, loss: str = "logistic", what: str = "grad", param: str = "linear", m: int | None = None):
    """f(F, γ, θ) → value | (value, grad) | (value, grad, hessian), lambdified to mpmath and cached."""
    if what not in WHATS:
        raise UsageError(f"what must be one of {', '.join(WHATS)}, got {what!r}")
    F, g, params, L = derive(T, D, loss, param, m)
    P = len(params)
    flat = [L]
    if what != "loss":
        grad = [sympy.diff(L, x) for x in params]
        flat += grad
        if what == "hessian":  # upper triangle only: ∂²L/∂x_a∂x_b is symmetric
            flat += [sympy.diff(grad[a], params[b]) for a in range(P) for b in range(a, P)]
    # one flat output list: lambdify's common-subexpression elimination (cse=True) then shares the
    # exp(logit) terms across all entries; nested output lists defeat it (and printing the un-shared
    # expressions is 10× slower than deriving them)
    fn = sympy.lambdify([F, g, params], flat, modules="mpmath", cse=True)
    if what == "loss":
        return lambda Fv, gv, thv: fn(Fv, gv, thv)[0]

    def evaluate(Fv, gv, thv):
        out = fn(Fv, gv, thv)
        grad = list(out[1:1 + P])
        if what == "grad":
            return out[0], grad
        H = [[None] * P for _ in range(P)]
        k = 1 + P
        for a in range(P):
            for b in range(a, P):
                H[a][b] = H[b][a] = out[k]
                k += 1
        return out[0], grad, H

    evaluate.source = fn  # the lambdified function (inspect.getsource shows the generated code)
    return evaluate


@lru_cache(maxsize=None)
def loss_function(loss: str = "logistic"):
    """ℓ itself, lambdified to mpmath (for L⋆ = (1/n) Σ_i ℓ(γ_i,opt))."""
    u = sympy.Symbol("u", real=True)
    return sympy.lambdify([u], _loss_expr(loss, u), modules="mpmath")


def _shape(feats_i, theta, param, shape):
    T, D = len(feats_i), len(feats_i[0])
    param = _canonical_param(param)
    m = None
    if param == "KQ":
        d = math.isqrt(D)
        if d * d != D:
            raise UsageError(f"KQ needs d² features per token, got {D}")
        m = len(theta) // (2 * d)
        if 2 * d * m != len(theta) or m == 0:
            raise UsageError(f"KQ needs θ = (vec K, vec Q) of length 2·d·m with d = {d}, got {len(theta)}")
    elif len(theta) != (2 * D if param == "diag_kq" else D):
        raise UsageError(f"θ has length {len(theta)}, expected {2 * D if param == 'diag_kq' else D}")
    if shape is not None:
        want = (T, math.isqrt(D), m) if param == "KQ" else (T, D)
        if tuple(shape) != want:
            raise UsageError(f"shape {tuple(shape)} does not match the inputs {want}")
    return T, D, param, m


def symbolic_loss_grad(feats_i, gamma_i, theta, loss: str = "logistic", param: str = "linear",
                       shape=None, hessian: bool = False):
    """ℓ(φ) and its gradient (and Hessian) for one sequence, from the sympy derivation, in mpmath.

    ``feats_i``: T×D feature rows (Fractions, ints, rational strings, arb or mpf); ``gamma_i``: T
    scores; ``theta``: the parameter vector of ``param`` (θ; (vec K, vec Q); (k, q)). ``shape`` is
    optional, (T, D) or (T, d, m) for KQ, and only checked. Evaluated at the current mpmath precision.
    Returns (value, grad) or (value, grad, hessian) as mpf / lists of mpf / lists of lists.
    """
    T, D, param, m = _shape(feats_i, theta, param, shape)
    f = compiled(T, D, loss, "hessian" if hessian else "grad", param, m)
    F = [[to_mpf(x) for x in row] for row in feats_i]
    g = [to_mpf(x) for x in gamma_i]
    th = [to_mpf(x) for x in theta]
    out = f(F, g, th)
    return tuple(out)


def symbolic_loss(feats_i, gamma_i, theta, loss: str = "logistic", param: str = "linear", shape=None):
    """ℓ(φ) alone for one sequence (cheaper to compile than the gradient)."""
    T, D, param, m = _shape(feats_i, theta, param, shape)
    f = compiled(T, D, loss, "loss", param, m)
    return f([[to_mpf(x) for x in row] for row in feats_i], [to_mpf(x) for x in gamma_i], [to_mpf(x) for x in theta])


def _features(dataset, param: str):
    from verify.models.attention import features

    base = {"KQ": "W", "diag_kq": "diag", "linear": "p"}.get(param, param)
    return features(dataset, base)


def full_loss(dataset, param: str, theta, loss: str = "logistic"):
    """L(θ) = (1/n) Σ_i ℓ(φ_i) over a ``Dataset`` at the current mpmath precision."""
    feats = _features(dataset, param)
    total = mpmath.mpf(0)
    for Fi, gi in zip(feats, dataset.scores):
        total += symbolic_loss(Fi, gi, theta, loss, param)
    return total / dataset.n


def full_loss_grad(dataset, param: str, theta, loss: str = "logistic", hessian: bool = False):
    """(L, ∇L[, ∇²L]) averaged over the sequences of a ``Dataset``, from the symbolic derivation.

    ``param`` is one of p, W, diag (θ of the linear-logit model), KQ ((vec K, vec Q), row-major) or
    diag_kq ((k, q)). Features come from ``verify.models.attention.features`` (the exact data, for W/KQ
    vec(x zᵀ) row-major). Evaluated at the current mpmath precision; see ``reference_dps``.
    """
    feats = _features(dataset, param)
    value, grad, hess = mpmath.mpf(0), None, None
    for Fi, gi in zip(feats, dataset.scores):
        out = symbolic_loss_grad(Fi, gi, theta, loss, param, hessian=hessian)
        value += out[0]
        grad = list(out[1]) if grad is None else [a + b for a, b in zip(grad, out[1])]
        if hessian:
            hess = [list(r) for r in out[2]] if hess is None else [[a + b for a, b in zip(r, s)] for r, s in zip(hess, out[2])]
    n = dataset.n
    value, grad = value / n, [x / n for x in grad]
    if hessian:
        return value, grad, [[x / n for x in r] for r in hess]
    return value, grad


def loss_star(dataset, loss: str = "logistic"):
    """L⋆ = (1/n) Σ_i ℓ(max_t γ_it), the infimum of the loss (ℓ decreasing), in mpmath."""
    ell = loss_function(loss)
    return sum((ell(to_mpf(max(g))) for g in dataset.scores), mpmath.mpf(0)) / dataset.n
