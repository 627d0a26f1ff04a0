"""Dynamics: gradient flow (arc-length flow, high-order Radau IIA at the working precision), GD and
normalised GD, regularization paths, recorded as resumable trajectories.

Public API::

    gradient_flow(data_or_par, param, until_norm=..., until_logt=..., dps=..., ...) -> Trajectory
    flow_through_norms(data, param, norms, ...)  # yields the trajectory stopped at each norm
    gd(data_or_par, param, steps=..., eta=None (1/L), dps=..., ...)              -> Trajectory
    normalized_gd(data_or_par, param, steps=..., eta="0.1", eps=0, ...)          -> Trajectory
    regularization_path(data_or_par, param, radii, dps=..., ...)                 -> RegPath
    local_regularization_path(data, q, radii, eps=..., R0=..., ...)              -> RegPath
    make_parameterization(data, param, loss)  # p, W, KQ, diag (k,q), beta
    Trajectory.load(path) / traj.save(path) / traj.fit_rate()
"""
from verify.dynamics.flow import CHECK_STEPS, flow_through_norms, gradient_flow
from verify.dynamics.gd import gd, normalized_gd, smoothness_constant
from verify.dynamics.local_regpath import local_regularization_path
from verify.dynamics.parameterization import PARAMETERIZATIONS, make_parameterization
from verify.dynamics.regpath import RegPath, regularization_path
from verify.dynamics.trajectory import Record, Trajectory

__all__ = [
    "gradient_flow", "flow_through_norms", "CHECK_STEPS", "gd", "normalized_gd", "smoothness_constant",
    "regularization_path", "local_regularization_path", "RegPath", "make_parameterization", "PARAMETERIZATIONS",
    "Trajectory", "Record",
]
