"""Figures of the joint (v, p) claims (mmts Theorems 5, 6, Lemma 13): the path's p and v directions against the SVM
directions, and 1 − corr against R (log10 at the working precision, never clamped)."""
from __future__ import annotations

from verify.kit.path_figures import omc_figure, path_plane_figure, plane_basis


def joint_figures(out, title: str, jp, js, curves) -> None:
    Rs = [p.R for p in jp.points]
    out.figures.append(omc_figure("omc", f"{title}: 1 − corr along the joint regularization path",
                                  [(label, Rs, vals) for label, vals in curves]))
    refs = [(f"p^mm(α = {list(js.alpha)})", js.p_mm)] if js.p_mm is not None else []
    if js.p_relax is not None:
        refs.append(("p^relax (10)", js.p_relax))
    if refs:
        basis = plane_basis(refs[0][1])
        if basis is not None:
            out.figures.append(path_plane_figure(
                "path-p", f"{title}: p̄_R/R against the SVM directions", [("p̄_R/R", [p.p for p in jp.points])], refs,
                basis, caption="Unit directions of the path's p (R increasing along the line) and of p^mm(α), p^relax."))
    basis = plane_basis(js.v_mm)
    if basis is not None:
        out.figures.append(path_plane_figure(
            "path-v", f"{title}: v̄_r/r against v^mm", [("v̄_r/r", [p.v for p in jp.points])], [("v^mm", js.v_mm)],
            basis, caption="Unit directions of the path's v and of the label SVM's v^mm."))
