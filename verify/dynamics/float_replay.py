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
