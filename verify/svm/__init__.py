"""The SVM family of attnverify: ATT-SVM (p), Att-SVM (W, Frobenius), Att-SVM⋆ (KQ, nuclear, with
an optional rank bound), ℓ1-SVM (diagonal), the label SVM (v) and the relaxed SVM (10) of mmts.

Pipeline: exact constraint rows (``problems``) → float64 first solution with Clarabel (directly; via cvxpy for
the nuclear norm: ``floatsolve``) → exact rational active-set solve for the QP/LP kinds (``exact``) or a
working-precision Newton polish for the nuclear norm (``nuclear``) → certificate (``certificate``,
``spectral``) or, when infeasible, an exact Farkas certificate (``farkas``). Faces, uniqueness and
set distances for the non-strictly-convex kinds are in ``face``; SVM-neighbours and local optimality
in ``geometry``.
"""
from verify.svm.certificate import Certificate, verify_certificate
from verify.svm.distance import distance_to_solution_set, nearest_in_l1_face
from verify.svm.farkas import FarkasCertificate, find_farkas, verify_farkas
from verify.svm.problems import KINDS, Problem, build_problem, problem_from_rows, select_tokens
from verify.svm.result import SVMResult
from verify.svm.solve import solve_svm

__all__ = [
    "KINDS", "Problem", "build_problem", "problem_from_rows", "select_tokens", "solve_svm",
    "SVMResult", "Certificate", "verify_certificate", "FarkasCertificate", "find_farkas",
    "verify_farkas", "distance_to_solution_set", "nearest_in_l1_face",
]
