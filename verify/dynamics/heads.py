"""Normalised GD with a nonlinear prediction head (tfsvm §6 / Conjecture 1; mmts Theorem 8 later).

``HeadParameterization`` puts ``verify.models.heads.HeadModel`` (L(θ) = (1/n)Σ ℓ(Y_i h(X_iᵀS(F_iθ))), θ = p, vec W
or β) behind the ``Parameterization`` interface, so the one GD driver of ``verify.dynamics.gd`` (its steps, stop
rule ``until_norm``, sparse 1-2-5 recording, status) runs it unchanged: ``head_normalized_gd``. The recorded
``loss_gap`` is L − L_tok (``HeadModel.excess``); no SVM references are looked up (a nonlinear head's selected
sets are read off the final softmax by the caller). The arc-length flow needs Hessians, which the head model
does not provide.
"""
from __future__ import annotations

from verify.data.dataset import Dataset
from verify.dynamics.gd import normalized_gd
from verify.dynamics.parameterization import Parameterization
from verify.dynamics.trajectory import Trajectory
from verify.errors import UsageError
from verify.models.attention import features
from verify.models.heads import Head, HeadModel, make_head
from verify.numbers.precision import working_precision


class HeadParameterization(Parameterization):
    """ψ = θ (``p``, ``W`` or ``diag``) under a head; ``head`` None → the dataset's head (linear by default)."""

    def __init__(self, data: Dataset, param: str = "W", head: Head | None = None, loss="logistic"):
        if param not in ("p", "W", "diag"):
            raise UsageError(f"a head runs on the linear-logit parameterisations p, W, diag, not {param!r}")
        self.name = self.base = self.svm_kind = param
        head = head if head is not None else make_head(getattr(data, "head", None), data.v)
        super().__init__(data, loss, HeadModel(features(data, param), data, head, loss))

    def grad(self, psi):
        return self.model.sweep([list(psi)]).grads[0]


def head_normalized_gd(data: Dataset, head: Head | None = None, *, param: str = "W", steps: int = 2000, eta="0.1",
                       eps=0, dps: int = 50, loss="logistic", init=None, until_norm=None, progress=None,
                       seed: int = 0) -> Trajectory:
    """Normalised GD ψ ← ψ − η∇L/(‖∇L‖ + ε) with the head (the papers' experiments: η = 0.1, ε = 0), records at
    k = 0, 1, 2, 5, 10, 20, 50, 100, … and the last step (``verify.dynamics.gd``)."""
    with working_precision(dps):
        par = HeadParameterization(data, param, head, loss)
        return normalized_gd(par, param, steps=steps, eta=eta, eps=eps, dps=dps, loss=loss, init=init, svm=False,
                             progress=progress, until_norm=until_norm, seed=seed)
