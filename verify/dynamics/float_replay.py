"""The papers' GD and normalised GD replayed in float32 / float64 — the arithmetic their experiments ran in.

The authors (github:ucr-optml/max_margin_attention, MaxMarginTokenSelection/*.ipynb) train one attention layer in
PyTorch's float32: logits z_i = F_i θ, s_i = softmax(z_i) (stable: the largest logit subtracted), the output
u_i = Y_i f(X_i) = Σ_t s_it γ_it, the loss written out as ``torch.log(1+torch.exp(-Y*out))`` (logistic),
``-Y*out`` (correlation) or ``torch.exp(-Y*out)`` (exponential), its gradient by autograd, then
ψ ← ψ − η∇L/(‖∇L‖ + ε) (``model.prompt.grad /= (model.prompt.grad.norm()+ε)``, SGD step η) or ψ ← ψ − η∇L.

``replay`` performs the same operations in the chosen dtype: the chain rule of autograd written out
(dℓ/du of the written-out loss — ``−e^{−u}/(1 + e^{−u})`` for the logistic, which is NaN where e^{−u} overflows, as in
torch —, du/dz_t = s_t(γ_t − u), ∇ = Σ_i F_iᵀ(dℓ/du_i · du_i/dz_i)/n), every constant (η, ε, the data) rounded to the
dtype once. It is a baseline to measure, never a result: the certified run is ``verify.dynamics.gd`` at the working
precision, and ``verify.experiments`` compares the two step by step.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from verify.errors import UsageError

DTYPES = {"float32": np.float32, "float64": np.float64}


def _real(x) -> float:
    """An exact number (Fraction, int, "1/10", "1e-9") → the nearest float64 (then the dtype rounds once more)."""
    return float(Fraction(x) if isinstance(x, str) else x)


def _dtype(dtype: str):
    if dtype not in DTYPES:
        raise UsageError(f"unknown baseline {dtype!r}; choose float32 or float64")
    return DTYPES[dtype]


def _array(values, ft) -> np.ndarray:
    """Nested exact numbers → an array of ``ft``, each rounded once (through float64, as the authors' tensors)."""
    def reals(x):
        return [reals(y) for y in x] if isinstance(x, (list, tuple)) else _real(x)

    return np.array(reals(values), dtype=ft)


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax with the largest logit subtracted (torch's stable form), in the array's dtype."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _iterate(psi: np.ndarray, gradient_of, step, steps: int, blocks=(), on_step=None) -> np.ndarray:
    """ψ ← ψ − η·g(ψ) in ψ's dtype, g the gradient with each block (a, b, ε) of ``blocks`` divided by its own norm
    plus ε (``grad /= (grad.norm() + ε)`` per trained tensor; no blocks: plain GD). The iterates, (steps + 1) × dim;
    overflow to inf and 0/0 are what the float run does: they are kept and measured."""
    out = np.empty((steps + 1, psi.size), dtype=psi.dtype)
    out[0] = psi
    with np.errstate(all="ignore"):
        for k in range(1, steps + 1):
            g = gradient_of(psi)
            for a, b, eps in blocks:
                g[a:b] = g[a:b] / (np.sqrt(np.sum(g[a:b] * g[a:b])) + eps)
            psi = psi - step * g
            out[k] = psi
            if on_step is not None:
                on_step(k)
    return out


def _loss_slope(loss: str, u: np.ndarray) -> np.ndarray:
    """dℓ/du of the loss as the authors write it, evaluated as autograd would (in u's dtype)."""
    if loss == "logistic":  # d/du log(1 + exp(−u)) = (1/(1 + e)) · e · (−1), e = exp(−u)
        e = np.exp(-u)
        return -(e / (1 + e))
    if loss == "correlation":  # ℓ(u) = −u
        return -np.ones_like(u)
    if loss == "exponential":  # ℓ(u) = exp(−u)
        return -np.exp(-u)
    raise UsageError(f"unknown loss {loss!r}; choose logistic, exponential or correlation")


def gradient(F: np.ndarray, G: np.ndarray, theta: np.ndarray, loss: str) -> np.ndarray:
    """∇_θ L in the dtype of the arrays: F (n × T × D features), G (n × T scores γ = Y·vᵀx), θ (D)."""
    s = _softmax(np.einsum("ntd,d->nt", F, theta))
    u = (s * G).sum(axis=1)
    w = _loss_slope(loss, u) / F.dtype.type(F.shape[0])
    dz = w[:, None] * (s * (G - u[:, None]))
    return np.einsum("ntd,nt->d", F, dz)


def replay(feats, scores, theta0, *, method: str, eta, eps, steps: int, loss: str, dtype: str,
           on_step=None) -> np.ndarray:
    """The iterates θ(0), …, θ(steps) of ``method`` ("gd" or "ngd") in ``dtype`` ("float32" | "float64"), as an
    array (steps + 1) × D of that dtype. ``feats``/``scores``/``theta0``/``eta``/``eps`` may be exact (Fractions,
    ints, decimal strings): each is rounded to the dtype once, as the authors' tensors were."""
    ft = _dtype(dtype)
    if method not in ("gd", "ngd"):
        raise UsageError(f"unknown method {method!r}; choose gd or ngd")
    F, G, th = _array(feats, ft), _array(scores, ft), _array(theta0, ft)
    guard = ft(_real(eps))
    return _iterate(th, lambda x: gradient(F, G, x, loss), ft(_real(eta)), steps,
                    [(0, th.size, guard)] if method == "ngd" else (), on_step)


def joint_gradient(X: np.ndarray, K: np.ndarray, Y: np.ndarray, v: np.ndarray, p: np.ndarray, loss: str):
    """(∇_v L, ∇_p L) of the joint model f_i = vᵀX_iᵀ softmax(K_i p) (mmts Sec. 3; the authors' ``PromptAttn`` with
    trainable ``w`` = v and ``prompt`` = p) in the arrays' dtype, by the chain rule autograd applies."""
    s = _softmax(np.einsum("ntd,d->nt", K, p))
    r = np.einsum("ntd,nt->nd", X, s)           # X_iᵀ s_i
    f = r @ v
    w = _loss_slope(loss, Y * f) * Y / X.dtype.type(X.shape[0])
    gv = np.einsum("n,nd->d", w, r)
    xv = np.einsum("ntd,d->nt", X, v)
    dz = w[:, None] * (s * (xv - (s * xv).sum(axis=1, keepdims=True)))
    gp = np.einsum("ntd,nt->d", K, dz)
    return gv, gp


def replay_joint(X, K, Y, v0, p0, *, eta, eps_v, eps_p, steps: int, loss: str, dtype: str) -> np.ndarray:
    """The authors' joint (v, p) normalised GD (MaxMarginTokenSelection/joint_training.ipynb: both gradients normalised
    separately, ``grad /= (grad.norm() + ε)`` with ε_v and ε_p, then one SGD step η on both) in ``dtype``: the iterates
    (v, p) stacked, (steps + 1) × (d + d_k)."""
    ft = _dtype(dtype)
    Xa, Ka, Ya = _array(X, ft), _array(K, ft), _array(Y, ft)
    psi = np.concatenate([_array(v0, ft), _array(p0, ft)])
    d = len(v0)
    return _iterate(psi, lambda x: np.concatenate(joint_gradient(Xa, Ka, Ya, x[:d], x[d:], loss)), ft(_real(eta)),
                    steps, [(0, d, ft(_real(eps_v))), (d, psi.size, ft(_real(eps_p)))])


def attention_gradient(X: np.ndarray, Z: np.ndarray, v: np.ndarray, Y: np.ndarray, param: str, psi: np.ndarray,
                       ridge) -> np.ndarray:
    """∇_ψ of the authors' tfsvm loss (TFasSVM/base.py ``SelfAttn`` with cross-attention, the loss of
    TFasSVM/visualization.ipynb) in the arrays' dtype, by the chain rule autograd applies, in their order:

    * ``param`` "W": ψ = vec W (row-major, the paper's W: logit x_tᵀ W z; torch's ``W.weight`` is Wᵀ):
      h_t = x_tᵀW (``self.W(input_seq)``), logit_t = h_t·z;
    * ``param`` "KQ": ψ = (vec K, vec Q) (row-major d × d each; K = ``key.weight``ᵀ, Q = ``query.weight``ᵀ, so
      W = KQᵀ): q = Qᵀz, k_t = Kᵀx_t, logit_t = q·k_t, and the loss adds ``ridge``·(‖K‖² + ‖Q‖²) written as
      ``eps * (key.weight.norm()**2 + query.weight.norm()**2)`` (its gradient K·((2·ridge·‖K‖)/‖K‖), 0 where
      ‖K‖ = 0, as torch's norm backward).

    Then s = softmax(logits) (largest subtracted), out_i = (s_iᵀX_i)·v, loss mean_i log(1 + exp(−Y_i out_i)), whose
    backward is ((1/n)/(1 + e))·e·(−Y_i), e = exp(−Y_i out_i)."""
    ft = X.dtype.type
    n, _, d = X.shape
    if param == "W":
        W = psi.reshape(d, d)
        logits = np.einsum("ntb,nb->nt", X @ W, Z)
    else:
        K, Q = psi[:d * d].reshape(d, d), psi[d * d:].reshape(d, d)
        q, k = Z @ Q, X @ K                     # q_i = Qᵀz_i, k_it = Kᵀx_it
        logits = np.einsum("ntm,nm->nt", k, q)
    s = _softmax(logits)
    out = np.einsum("ntd,nt->nd", X, s) @ v
    ex = np.exp(-Y * out)
    dout = ((ft(1) / ft(n)) / (1 + ex)) * ex * (-Y)           # dL/dout_i
    ds = np.einsum("ntd,nd->nt", X, dout[:, None] * v[None, :])  # dL/ds_it = x_it·(dout_i v)
    dz = s * (ds - (ds * s).sum(axis=1, keepdims=True))         # softmax backward
    if param == "W":
        return np.einsum("nt,nta,nb->ab", dz, X, Z).ravel()
    gq = np.einsum("nt,ntm->nm", dz, k)                           # dL/dq_i
    gk = dz[:, :, None] * q[:, None, :]                           # dL/dk_it
    gK = np.einsum("nta,ntm->am", X, gk)
    gQ = np.einsum("na,nm->am", Z, gq)
    lam = ft(ridge)
    for M, G in ((K, gK), (Q, gQ)):
        nm = np.sqrt(np.sum(M * M))
        if nm > 0:
            G += M * ((lam * (ft(2) * nm)) / nm)
    return np.concatenate([gK.ravel(), gQ.ravel()])


def replay_attention(data, param: str, psi0, *, eta, eps, ridge=0, steps: int, dtype: str) -> np.ndarray:
    """The authors' tfsvm normalised GD (TFasSVM/visualization.ipynb, local_converge.ipynb) in ``dtype``: the
    gradient of ``attention_gradient`` (logistic loss), normalised per trained tensor — W alone, or K and Q each
    (``grad /= (grad.norm() + eps)``) — then one SGD step η. ``data``: a Dataset (its X, z, v, Y rounded to the dtype
    once). Returns the iterates ψ(0), …, ψ(steps), (steps + 1) × dim."""
    ft = _dtype(dtype)
    if param not in ("W", "KQ"):
        raise UsageError(f"unknown parameterisation {param!r} for the tfsvm replay; choose W or KQ")
    X, Z, v, Y = _array(data.X, ft), _array(data.queries(), ft), _array(data.v, ft), _array(data.Y, ft)
    psi, guard, lam = _array(psi0, ft), ft(_real(eps)), _real(ridge)
    half = psi.size // 2
    blocks = [(0, psi.size, guard)] if param == "W" else [(0, half, guard), (half, psi.size, guard)]
    return _iterate(psi, lambda x: attention_gradient(X, Z, v, Y, param, x, lam), ft(_real(eta)), steps, blocks)
