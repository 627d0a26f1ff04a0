"""Claim-kit piece: a regularisation path as a claim's evidence — the sphere search's optimisation check.

A path point W̄(R) is the best of a multistart search on the sphere ‖·‖ = R, not a certified minimiser. What a
check can require of it: at every radius the point found is no worse than the candidate (R times the SVM
direction) — certainly ≤ in arb, or equal to it to the working precision (the optimum is the candidate itself,
e.g. D-NUC); certainly worse beyond that is an optimisation failure (the requirement fails: INCONCLUSIVE).
"""
from __future__ import annotations


def no_worse_than_candidate(point, tolerance):
    """True / False / None (undecided) for one path point against its candidate (see the module docstring)."""
    if point.certified_le_candidate is not None or point.candidate_excess is None:
        return point.certified_le_candidate
    gap = point.excess - point.candidate_excess
    return True if gap <= tolerance * point.candidate_excess else False if gap > 0 else None


def require_path_optimal(out, rp, param: str, tolerance, loss: str = "L") -> None:
    """``out.require`` that the sphere search found ``loss`` ≤ its value at the candidate at every radius of ``rp``."""
    worse = [p for p in rp.points if no_worse_than_candidate(p, tolerance) is False]
    unsure = [p for p in rp.points if no_worse_than_candidate(p, tolerance) is None]
    what = {"W": "‖W‖_F = R", "p": "‖p‖ = R", "vp": "‖v‖ = r, ‖p‖ = R"}.get(param, "‖K‖² + ‖Q‖² = 2R")
    out.require(f"({param}) the sphere search on {what} found {loss} ≤ {loss}(candidate SVM direction) at every R", (
        False if worse else None if unsure else True), (
        f"optimisation failure at R = {', '.join(str(float(p.R.mid())) for p in worse)}" if worse else
        f"undecided at R = {', '.join(str(float(p.R.mid())) for p in unsure)}" if unsure else
        f"at all {len(rp.points)} radii ({rp.points[0].starts} starts each): certainly ≤ in arb, or equal to "
        "10^-dps relative"), invalidates=True)  # not the minimiser: its direction is no evidence either way
