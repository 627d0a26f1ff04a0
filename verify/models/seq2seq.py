"""Sequence-to-sequence (self-)attention as a linear-logit model: every token is a query (tfsvm App D, Def 4).

The model of v1 App D (spec §2, Def 4) with self-attention queries z_ik = x_ik (K = T queries per sequence), a
linear head h(r) = vᵀr and per-query labels Y_ik (the dataset's ``Yq``, else Y_i for every query):

    L_seq(W) = (1/n) Σ_i Σ_k ℓ(Y_ik vᵀ X_iᵀ S(X_i W x_ik))            (sum over k, no 1/K: v1 App D)

Causal attention (v1 §7, ``L_csl``): query k attends to the tokens t ≤ k only — the softmax runs over the first
k + 1 entries. Query k of sequence i is one *row* of the engine's ``LinearLogitModel``: its features are
F_(ik),t = vec(x_it x_ikᵀ) (row-major, so a_(ik),t = x_itᵀ W x_ik), its scores γ_ikt = Y_ik vᵀ x_it, and under
causal masking the tokens t > k get the logit −∞ (weight exactly 0: ``LinearLogitModel(mask=...)``). The model's
loss is the mean over its nT rows, (1/(nT)) Σ_ik ℓ, so L_seq = T·(model loss) and ∇L_seq = T·(model gradient):
``Seq2SeqModel.loss_seq`` / ``grad_seq``. The stable softmax states, the cancellation-free excess L − L⋆ and the
Hessian are the engine's (L⋆ = (1/n) Σ_ik ℓ(max over the query's window of γ_ikt), times 1/T in the model).

Causal query k = 0 sees one token: softmax = 1, φ = γ_i00 for every W — a constant term, no gradient, and no
SAtt-SVM constraint (``verify.svm.seq2seq``).
"""
from __future__ import annotations

from verify.data.dataset import Dataset
from verify.models.attention import LinearLogitModel
from verify.models.losses import Loss

ATTENTIONS = ("single", "seq2seq", "causal")


def attention_of(data: Dataset, attention: str | None = None) -> str:
    """The attention type to use on ``data``: ``attention`` if given (a causal dataset is causal only), else
    ``causal`` for a dataset flagged causal, ``seq2seq`` for one with per-query labels, else ``single``."""
    from verify.errors import UsageError

    default = "causal" if data.causal else "seq2seq" if data.Yq is not None else "single"
    if attention is None:
        return default
    if attention not in ATTENTIONS:
        raise UsageError(f"unknown attention {attention!r}; choose one of {', '.join(ATTENTIONS)}")
    if data.causal and attention != "causal":
        raise UsageError(f"the dataset is flagged causal: attention {attention!r} does not apply (use causal)")
    if data.Yq is not None and attention == "single":
        raise UsageError("the dataset has per-query labels Yq: use attention seq2seq or causal")
    return attention


def windows(data: Dataset, causal: bool) -> tuple:
    """Per row (i, k): the tokens query k attends to (all T, or t ≤ k when causal)."""
    T = data.T
    return tuple(tuple(range(k + 1 if causal else T)) for _ in range(data.n) for k in range(T))


def row_scores(data: Dataset) -> tuple:
    """γ_(ik),t for the nT rows (row i·T + k), exactly."""
    return tuple(g for gi in data.query_scores for g in gi)


def row_optimal(data: Dataset, causal: bool) -> tuple:
    """Per row the maximisers of γ_ikt over the query's window (a tuple; several when tied)."""
    out = []
    for g, win in zip(row_scores(data), windows(data, causal)):
        top = max(g[t] for t in win)
        out.append(tuple(t for t in win if g[t] == top))
    return tuple(out)


def row_features(data: Dataset):
    """F_(ik),t = vec(x_it x_ikᵀ) (row-major, d² entries), exactly."""
    return tuple(tuple(tuple(a * b for a in x for b in q) for x in seq) for seq in data.X for q in seq)


class Seq2SeqModel(LinearLogitModel):
    """The nT-row linear-logit model of L_seq (module docstring); ``rows[j] = (i, k)`` for row j = i·T + k."""

    def __init__(self, data: Dataset, causal: bool = False, loss: Loss | str = "logistic"):
        T = data.T
        self.data, self.causal, self.queries_per_sequence = data, causal, T
        self.rows = tuple((i, k) for i in range(data.n) for k in range(T))
        mask = [[t <= k or not causal for t in range(T)] for _ in range(data.n) for k in range(T)]
        opt = tuple(o[0] for o in row_optimal(data, causal))
        X = tuple(seq for seq in data.X for _ in range(T))   # the tokens of row (i, k): X_i
        Z = tuple(q for seq in data.X for q in seq)          # its query: x_ik
        super().__init__(row_features(data), row_scores(data), loss, opt=opt, kron=(X, Z), mask=mask)

    def loss_seq(self, theta):
        """L_seq(W) (sum over the queries, mean over the sequences)."""
        return self.loss_value(theta) * self.queries_per_sequence

    def grad_seq(self, theta):
        """∇L_seq(W) (row-major d² entries)."""
        return [g * self.queries_per_sequence for g in self.grad(theta)]

    def excess_seq(self, theta):
        """L_seq(W) − L⋆_seq, cancellation-free."""
        return self.excess(theta) * self.queries_per_sequence

    def alpha(self, selected) -> tuple:
        """A per-row selection (length nT) as the n×T array α_ik."""
        T = self.queries_per_sequence
        sel = tuple(selected)
        return tuple(sel[i * T:(i + 1) * T] for i in range(self.data.n))


def seq2seq_model(data: Dataset, causal: bool | None = None, loss: Loss | str = "logistic") -> Seq2SeqModel:
    """The sequence-to-sequence model of ``data`` (causal masking per ``causal``, default the dataset's flag)."""
    return Seq2SeqModel(data, data.causal if causal is None else bool(causal), loss)
