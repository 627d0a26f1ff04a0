"""The papers' experiments as data: dataset, algorithm and hyperparameters exactly as the authors' code ran them.

Sources (read in github:ucr-optml/max_margin_attention, MaxMarginTokenSelection/): ``single_input_converge.ipynb``
(Fig. 1(a)/(b): ``g_converge`` True/False, six starts p(0) = (0, y, 0), normalised GD with lr 0.1 and
``grad /= (grad.norm() + 0.000000001)``, 1000 iterations, the first 200 plotted), ``multi_input_converge.ipynb``
(Fig. 1(c) and Fig. 4: n = 3, T = 7, six starts p(0) = (x, 0, 0), normalised GD lr 0.1 with ε = 1e-12, and plain GD
lr 1 from p(0) = 0), ``joint_training.ipynb`` (Fig. 3: v and p trained together from v(0) = (−1, 0), p(0) = (0, −1),
each gradient normalised separately with ε_v = 1e-9 and ε_p = 1e-19, one SGD step lr 0.1 on both, keys = tokens
(W = I)), ``diff_loss_function.ipynb`` (Fig. 5: C ∈ {1, …, 10, 100}, losses −x and logistic, p(0) = 0,
normalised GD lr 0.1, ε = 1e-9). Key and query weights diag(1, 1, 0), so the features are the keys (x₁, x₂, 0) and
only p₁, p₂ move (the datasets carry the keys K). The Fig. 8 substitute (spec §5.6; the paper's data are not in the
repository) runs normalised GD as the authors' other notebooks do.

tfsvm (TFasSVM/visualization.ipynb; model and SVMs in TFasSVM/base.py): n = 2, T = 3, d = 2, cross-attention with
unit queries z_i, drawn by torch Generator seed 1 (``verify.data.tfsvm.tfsvm_visualization``); the W run from
W(0) = 0 and the (K, Q) run from K(0) = 0.1·randn, Q(0) = 0, both normalised GD with lr 0.1 and
ε = torch.finfo(double).eps = 2⁻⁵² added to the gradient norm (per factor for K and Q), the (K, Q) loss with
ε(‖K‖² + ‖Q‖²) added, 2000 iterations in float64, measured against the Frobenius SVM (W run) and the nuclear-norm
SVM (K, Q run) by the correlation coefficient ⟨W₁, W₂⟩/(‖W₁‖‖W₂‖) as the notebook plots. Two experiments (one per
parameterisation) rather than one with two curves: their trained parameters, table columns and SVM references differ.
local_converge.ipynb (n = 6, T = 8, d = 10, seeds 0–99, starts the models' own initialisation, measured against the
SVMs of the tokens selected at the end, the mean largest softmax probability plotted): three seeds (0, 1, 2) are
encoded, not all 100 — each run is a curve; the notebook's mean ± std over 100 runs is not recomputed.
The ridge term is in the certified (K, Q) run too: it is not negligible — after ~200 iterations ‖∇L‖ has fallen to
the ridge's 2ε‖K‖ ≈ 10⁻¹⁴ and the two balance (‖W‖ stays ≈ 300; the table's ``ridge/grad`` column shows the ratio).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from verify.data import mmts as M
from verify.data import tfsvm as TF
from verify.errors import UsageError


@dataclass(frozen=True)
class Run:
    """One curve of a figure: a dataset, a start and a loss."""

    label: str
    dataset: object   # () -> Dataset
    init: tuple       # exact start θ(0)
    loss: str = "logistic"


@dataclass(frozen=True)
class Experiment:
    id: str
    paper: str
    figure: str
    title: str
    method: str       # "ngd" (ψ ← ψ − η∇L/(‖∇L‖ + ε)) or "gd" (ψ ← ψ − η∇L)
    param: str        # the trained parameters: "p" (the prompt/query vector), "vp" (head v and p jointly), "W" or
                      # "KQ" (tfsvm: the attention matrix W, or its factors K, Q with W = KQᵀ)
    eta: str          # exact
    eps: str          # exact; "0" for gd
    steps: int        # the authors' iteration count
    plotted: int      # the iterations their figure shows
    runs: object      # () -> tuple[Run, ...]
    source: str       # where the authors' code is
    shows: str        # what the paper's figure shows
    eps_p: str | None = None  # joint (v, p) runs: p's ε (``eps`` is then v's)
    ridge: str | None = None  # tfsvm (K, Q): the loss adds ridge·(‖K‖²_F + ‖Q‖²_F) (exact)
    svm_select: str = "opt"   # tfsvm: the SVMs measured against are of the optimal tokens ("opt") or of the tokens
                              # the certified end point selects ("final")

    def run_list(self) -> tuple:
        return self.runs()


def _starts(points):
    return tuple(tuple(Fraction(x) for x in p) for p in points)


#: p(0) of Fig. 1(a)/(b) and of Fig. 1(c), as in the notebooks
STARTS_1AB = _starts([(0, 1, 0), (0, "0.5", 0), (0, 0, 0), (0, "-0.5", 0), (0, -1, 0), (0, "-1.5", 0)])
STARTS_1C = _starts([(1, 0, 0), ("0.5", 0, 0), (0, 0, 0), ("-0.5", 0, 0), (-1, 0, 0), ("-1.5", 0, 0)])
FIG5_C = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100)
ZERO3 = (Fraction(0),) * 3
_FIG3_START = (Fraction(-1), Fraction(0), Fraction(0), Fraction(-1))   # (v(0), p(0)) stacked


def _label(p) -> str:
    return "p(0) = (" + ", ".join(str(float(x)).rstrip("0").rstrip(".") if x else "0" for x in p) + ")"


def _runs_for(dataset, starts):
    return lambda: tuple(Run(_label(p), dataset, p) for p in starts)


def _fig5_runs():
    out = []
    for loss, name in (("correlation", "ℓ(u) = −u"), ("logistic", "logistic")):
        for C in FIG5_C:
            out.append(Run(f"{name}, C = {C}", (lambda C=C: M.mmts_fig5(C)), ZERO3, loss))
    return tuple(out)


def _local_runs(param):
    return tuple(Run(f"seed {s}", (lambda s=s: TF.tfsvm_local_converge(s)), TF.tfsvm_local_converge_start(s, param))
                 for s in TF.LOCAL_CONVERGE_SEEDS)


NOTEBOOK = "github:ucr-optml/max_margin_attention, MaxMarginTokenSelection/"
TF_NOTEBOOK = "github:ucr-optml/max_margin_attention, TFasSVM/"
#: torch.finfo(torch.double).eps, the ε of TFasSVM/visualization.ipynb (added to the gradient norms and the ridge)
DOUBLE_EPS = "1/4503599627370496"
EXPERIMENTS = {e.id: e for e in (
    Experiment("mmts.fig1a", "mmts", "Fig. 1(a)", "single input, Assumption B holds: every start → the GMM",
               "ngd", "p", "1/10", "1e-9", 1000, 200, _runs_for(M.mmts_fig1a, STARTS_1AB),
               NOTEBOOK + "single_input_converge.ipynb (g_converge = True)",
               "all six normalised-GD paths turn toward p^mm = (−0.1, 1)/1.01 (Theorem 2)"),
    Experiment("mmts.fig1b", "mmts", "Fig. 1(b)", "single input, token (0,0) scored 0: GMM or LMM by the start",
               "ngd", "p", "1/10", "1e-9", 1000, 200, _runs_for(M.mmts_fig1b, STARTS_1AB),
               NOTEBOOK + "single_input_converge.ipynb (g_converge = False)",
               "the first four starts → the GMM, p(0) = (0, −1, 0) and (0, −1.5, 0) → the LMM p^mm((1,0)) = (1, 0) "
               "(Theorem 3)"),
    Experiment("mmts.fig1c", "mmts", "Fig. 1(c)", "n = 3, T = 7 (torch seed 0): every start → the GMM",
               "ngd", "p", "1/10", "1e-12", 1000, 200, _runs_for(M.mmts_fig1c, STARTS_1C),
               NOTEBOOK + "multi_input_converge.ipynb (normalized GD)",
               "six normalised-GD paths approach p^mm (Theorem 2 under Assumption B)"),
    Experiment("mmts.fig3a", "mmts", "Fig. 3(a)", "joint (v, p): every selected token a support vector of v^mm",
               "ngd", "vp", "1/10", "1e-9", 1000, 200, lambda: (Run("v(0) = (−1, 0), p(0) = (0, −1)",
                                                                    lambda: M.mmts_fig3("a"), _FIG3_START),),
               NOTEBOOK + "joint_training.ipynb (tight_converge = True)",
               "p → p^mm = (4/3, 1/3), v → v^mm ∝ (0, 1) (Theorem 5)", eps_p="1e-19"),
    Experiment("mmts.fig3b", "mmts", "Fig. 3(b)", "joint (v, p): input 3 off the label margin",
               "ngd", "vp", "1/10", "1e-9", 1000, 200, lambda: (Run("v(0) = (−1, 0), p(0) = (0, −1)",
                                                                    lambda: M.mmts_fig3("b"), _FIG3_START),),
               NOTEBOOK + "joint_training.ipynb (tight_converge = False)",
               "p → p^relax = (1, 0) of the relaxed SVM (10), not p^mm(α) = (5/4, 1/4) (Theorem 6)", eps_p="1e-19"),
    Experiment("mmts.fig4", "mmts", "Fig. 4 (blue)", "n = 3, T = 7: plain GD with lr 1 from p(0) = 0",
               "gd", "p", "1", "0", 1000, 1000, lambda: (Run("p(0) = 0", M.mmts_fig1c, ZERO3),),
               NOTEBOOK + "multi_input_converge.ipynb (GD, lr = 1)",
               "‖p‖ grows slowly and the mean softmax on the optimal token tends to 1 (lr 1 exceeds 1/L_p ≈ 1/61.8)"),
    Experiment("mmts.fig5", "mmts", "Fig. 5", "loss-dependent transients: C ∈ {1, …, 10, 100}, losses −u and logistic",
               "ngd", "p", "1/10", "1e-9", 1000, 200, _fig5_runs,
               NOTEBOOK + "diff_loss_function.ipynb",
               "with ℓ(u) = −u a larger C pulls the path toward input 1's token; with the logistic loss the smaller "
               "score pulls harder; every path ends along p^mm"),
    Experiment("mmts.fig8-substitute", "mmts", "Fig. 8 (subst.)", "n = 2 breaks Theorem 2: from "
               "(2, 0, 0) the path goes to the LMM", "ngd", "p", "1/10", "1e-9", 2000, 2000,
               _runs_for(M.mmts_fig8_substitute, _starts([(0, 0, 0), (1, -3, 0), (0, -2, 0), (2, 0, 0)])),
               "own construction (the paper's Figure 8 data are not in the repository)",
               "from 0, (1,−3,0), (0,−2,0) → the GMM p^mm = (1, −3); from (2, 0, 0) → the LMM (1, 0)"),
    Experiment("tfsvm.fig-visualization-W", "tfsvm", "visualization (W)", "n = 2, T = 3, d = 2 (torch seed 1): "
               "W-parametrisation from W(0) = 0 → the Frobenius SVM W^mm", "ngd", "W", "1/10", DOUBLE_EPS, 2000, 2000,
               lambda: (Run("W(0) = 0", TF.tfsvm_visualization, (Fraction(0),) * 4),),
               TF_NOTEBOOK + "visualization.ipynb (univariate = True; float64)",
               "W(k)z_i (solid) turns toward W^mm z_i (Frobenius SVM, Theorem 3); the (K, Q) run's dashed paths toward "
               "the nuclear-norm SVM"),
    Experiment("tfsvm.fig-visualization-KQ", "tfsvm", "visualization (K,Q)", "n = 2, T = 3, d = 2 (torch seed 1): "
               "(K, Q)-parametrisation, K(0) = 0.1·randn (seeded), Q(0) = 0 → the nuclear-norm SVM", "ngd", "KQ",
               "1/10", DOUBLE_EPS, 2000, 2000,
               lambda: (Run("K(0) = 0.1·randn (global torch seed 0), Q(0) = 0", TF.tfsvm_visualization,
                            TF.tfsvm_visualization_kq_start()),),
               TF_NOTEBOOK + "visualization.ipynb (univariate = False; float64; K and Q normalised separately; the "
               "loss adds ε(‖K‖² + ‖Q‖²)); K(0) is not the authors' (their global generator is unseeded): "
               "torch.manual_seed(0) then the notebook's sequence",
               "W(k) = K(k)Q(k)ᵀ; W(k)z_i (dashed) turns toward W^mm_* z_i (nuclear-norm SVM, Theorem 5 / Lemma 2)",
               ridge=DOUBLE_EPS),
    Experiment("tfsvm.fig-local-converge-W", "tfsvm", "local_converge (W)", "n = 6, T = 8, d = 10, seeds 0–2 of the "
               "notebook's 100: W from its nn.Linear start → the Frobenius SVM of the tokens it selects", "ngd", "W",
               "1/10", DOUBLE_EPS, 2000, 1000, lambda: _local_runs("W"),
               TF_NOTEBOOK + "local_converge.ipynb (univariate = True; float64; 3 of its 100 seeded runs; the start is "
               "the model's own init, drawn after torch.manual_seed(0) — the authors' global generator is unseeded)",
               "the mean largest softmax probability → 1 and corr(W(k), W^mm_F(α)) → 1, α the final selection (the "
               "notebook averages 100 runs; locally-optimal directions, Theorem 4)", svm_select="final"),
    Experiment("tfsvm.fig-local-converge-KQ", "tfsvm", "local_converge (K,Q)", "n = 6, T = 8, d = 10, seeds 0–2: "
               "(K, Q) from their nn.Linear start → the nuclear-norm SVM of the tokens selected", "ngd", "KQ",
               "1/10", DOUBLE_EPS, 2000, 1000, lambda: _local_runs("KQ"),
               TF_NOTEBOOK + "local_converge.ipynb (univariate = False; float64; K and Q normalised separately; the "
               "loss adds ε(‖K‖² + ‖Q‖²); 3 of its 100 seeded runs; starts drawn after torch.manual_seed(0))",
               "the mean largest softmax probability → 1 and corr(K(k)Q(k)ᵀ, W^mm_*(α)) → 1 (Theorem 5)",
               ridge=DOUBLE_EPS, svm_select="final"),
)}


def get_experiment(name: str) -> Experiment:
    if name in EXPERIMENTS:
        return EXPERIMENTS[name]
    raise UsageError(f"unknown experiment {name!r}; `python -m verify experiment list` shows the "
                     f"{len(EXPERIMENTS)} encoded ({', '.join(EXPERIMENTS)})")
