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
    z = np.einsum("ntd,d->nt", F, theta)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    s = e / e.sum(axis=1, keepdims=True)
    u = (s * G).sum(axis=1)
    w = _loss_slope(loss, u) / F.dtype.type(F.shape[0])
    dz = w[:, None] * (s * (G - u[:, None]))
    return np.einsum("ntd,nt->d", F, dz)


def replay(feats, scores, theta0, *, method: str, eta, eps, steps: int, loss: str, dtype: str,
           on_step=None) -> np.ndarray:
    """The iterates θ(0), …, θ(steps) of ``method`` ("gd" or "ngd") in ``dtype`` ("float32" | "float64"), as an
    array (steps + 1) × D of that dtype. ``feats``/``scores``/``theta0``/``eta``/``eps`` may be exact (Fractions,
    ints, decimal strings): each is rounded to the dtype once, as the authors' tensors were."""
    if dtype not in DTYPES:
        raise UsageError(f"unknown baseline {dtype!r}; choose float32 or float64")
    if method not in ("gd", "ngd"):
        raise UsageError(f"unknown method {method!r}; choose gd or ngd")
    ft = DTYPES[dtype]
    F = np.array([[[_real(x) for x in row] for row in seq] for seq in feats], dtype=ft)
    G = np.array([[_real(x) for x in row] for row in scores], dtype=ft)
    th = np.array([_real(x) for x in theta0], dtype=ft)
    step, guard = ft(_real(eta)), ft(_real(eps))
    out = np.empty((steps + 1, th.size), dtype=ft)
    out[0] = th
    with np.errstate(all="ignore"):  # overflow to inf and 0/0 are what the float run does; they are measured
        for k in range(1, steps + 1):
            g = gradient(F, G, th, loss)
            if method == "ngd":
                th = th - step * (g / (np.sqrt(np.sum(g * g)) + guard))
            else:
                th = th - step * g
            out[k] = th
            if on_step is not None:
                on_step(k)
    return out


def joint_gradient(X: np.ndarray, K: np.ndarray, Y: np.ndarray, v: np.ndarray, p: np.ndarray, loss: str):
    """(∇_v L, ∇_p L) of the joint model f_i = vᵀX_iᵀ softmax(K_i p) (mmts Sec. 3; the authors' ``PromptAttn`` with
    trainable ``w`` = v and ``prompt`` = p) in the arrays' dtype, by the chain rule autograd applies."""
    z = np.einsum("ntd,d->nt", K, p)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    s = e / e.sum(axis=1, keepdims=True)
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
    if dtype not in DTYPES:
        raise UsageError(f"unknown baseline {dtype!r}; choose float32 or float64")
    ft = DTYPES[dtype]
    Xa = np.array([[[_real(x) for x in row] for row in seq] for seq in X], dtype=ft)
    Ka = np.array([[[_real(x) for x in row] for row in seq] for seq in K], dtype=ft)
    Ya = np.array([_real(y) for y in Y], dtype=ft)
    v = np.array([_real(x) for x in v0], dtype=ft)
    p = np.array([_real(x) for x in p0], dtype=ft)
    step, gv_eps, gp_eps = ft(_real(eta)), ft(_real(eps_v)), ft(_real(eps_p))
    out = np.empty((steps + 1, v.size + p.size), dtype=ft)
    out[0] = np.concatenate([v, p])
    with np.errstate(all="ignore"):
        for k in range(1, steps + 1):
            gv, gp = joint_gradient(Xa, Ka, Ya, v, p, loss)
            p = p - step * (gp / (np.sqrt(np.sum(gp * gp)) + gp_eps))
            v = v - step * (gv / (np.sqrt(np.sum(gv * gv)) + gv_eps))
            out[k] = np.concatenate([v, p])
    return out


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
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    s = e / e.sum(axis=1, keepdims=True)
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
    if dtype not in DTYPES:
        raise UsageError(f"unknown baseline {dtype!r}; choose float32 or float64")
    if param not in ("W", "KQ"):
        raise UsageError(f"unknown parameterisation {param!r} for the tfsvm replay; choose W or KQ")
    ft = DTYPES[dtype]
    X = np.array([[[_real(x) for x in row] for row in seq] for seq in data.X], dtype=ft)
    Z = np.array([[_real(x) for x in q] for q in data.queries()], dtype=ft)
    v = np.array([_real(x) for x in data.v], dtype=ft)
    Y = np.array([_real(y) for y in data.Y], dtype=ft)
    psi = np.array([_real(x) for x in psi0], dtype=ft)
    step, guard, lam = ft(_real(eta)), ft(_real(eps)), _real(ridge)
    blocks = [(0, psi.size)] if param == "W" else [(0, psi.size // 2), (psi.size // 2, psi.size)]
    out = np.empty((steps + 1, psi.size), dtype=ft)
    out[0] = psi
    with np.errstate(all="ignore"):
        for k in range(1, steps + 1):
            g = attention_gradient(X, Z, v, Y, param, psi, lam)
            for a, b in blocks:
                g[a:b] = g[a:b] / (np.sqrt(np.sum(g[a:b] * g[a:b])) + guard)
            psi = psi - step * g
            out[k] = psi
    return out
