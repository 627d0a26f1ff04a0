"""``SVMResult``: what ``solve_svm`` returns, and its JSON form (docs/contract.md, "SVM JSON")."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from verify.svm.numeric import fmt
from verify.svm.problems import NORMS


@dataclass
class SVMResult:
    kind: str
    status: str                    # "optimal" | "infeasible" | "unknown" (no certified answer)
    select: tuple                  # α, 0-based
    solution: list | None          # flat, Fractions (exact) or arb balls (nuclear)
    objective: object              # the optimal norm: Fraction when rational, else arb
    support: list                  # [(i, t)] rows active at the solution (SVM-neighbours)
    certificate: object            # Certificate or None
    stable_digits: int
    exact: bool
    unique: bool | None
    duals: list | None             # one multiplier per row
    problem: object = None
    dps: int = 60
    farkas: object = None          # FarkasCertificate when infeasible
    rank_m: dict | None = None     # KQ with a rank bound: heuristic report
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def norm(self) -> str:
        return NORMS.get(self.kind, self.problem.norm if self.problem else "")

    def matrix(self):
        """The solution shaped as p/w (list) or W (list of rows)."""
        return None if self.solution is None else self.problem.reshape(self.solution)

    def support_tokens(self) -> dict:
        """{i: sorted t} of the support rows (for kinds whose rows are tokens)."""
        out: dict = {}
        for i, t in self.support:
            out.setdefault(i, []).append(t)
        return {i: sorted(v) for i, v in out.items()}

    def to_dict(self, digits: int | None = None) -> dict:
        digits = digits or self.dps
        out = {"kind": self.kind, "status": self.status, "select": [int(a) for a in self.select]}
        if self.status == "infeasible":
            out["solution"] = None
            out["objective"] = None
            out["support"] = []
            out["certificate"] = self.farkas.to_json(digits) if self.farkas else None
            if self.farkas:
                out["certificate"]["type"] = "farkas"
        else:
            sol = None
            if self.solution is not None:
                sol = self.problem.reshape([fmt(v, digits) for v in self.solution])
            out["solution"] = sol
            out["objective"] = fmt(self.objective, digits) if self.objective is not None else None
            out["support"] = [[int(i), int(t)] for i, t in self.support]
            out["certificate"] = self.certificate.to_json(digits) if self.certificate else None
        out["stable_digits"] = int(self.stable_digits)
        out["exact"] = bool(self.exact)
        out["unique"] = self.unique
        out["precision"] = int(self.dps)
        if self.rank_m is not None:
            rm = dict(self.rank_m)
            if rm.get("W") is not None:
                rm["W"] = self.problem.reshape([fmt(v, digits) for v in rm["W"]])
            for k in ("lower_bound", "upper_bound"):
                if rm.get(k) is not None:
                    rm[k] = fmt(rm[k], min(digits, 30))
            out["rank_m"] = rm
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def to_json(self, digits: int | None = None) -> str:
        return json.dumps(self.to_dict(digits))

    def summary(self) -> str:
        from verify.svm.problems import OBJECTIVE_NAMES
        lines = [f"SVM kind {self.kind} ({OBJECTIVE_NAMES.get(self.norm, self.norm)}), "
                 f"selection α = {list(self.select)}: {self.status.upper()}"]
        if self.status == "infeasible" and self.farkas:
            f = self.farkas
            lines.append(f"  Farkas certificate on rows {[list(r) for r in f.rows]}: "
                         f"Σλ_j a_j = 0 (residual {fmt(f.residual, 6)}), Σλ_j b_j = {fmt(f.rhs, 12)} > 0"
                         f" — {'verified exactly' if f.passed else 'NOT verified'}")
            return "\n".join(lines)
        if self.objective is not None:
            lines.append(f"  objective {fmt(self.objective, min(self.dps, 30))}"
                         f"   ({'exact rational solve' if self.exact else f'{self.stable_digits} certified digits'})")
        if self.solution is not None:
            sol = self.problem.reshape([fmt(v, min(self.dps, 16)) for v in self.solution])
            lines.append(f"  solution {sol}")
        lines.append(f"  support (i, t): {[list(s) for s in self.support]}")
        if self.unique is not None:
            lines.append(f"  unique solution: {'yes' if self.unique else 'no (optimal face)'}")
        if self.certificate:
            c = self.certificate.to_json(6)
            lines.append("  certificate: " + ", ".join(f"{k} {v}" for k, v in c.items())
                         + ("  PASSED" if self.certificate.passed else "  NOT PASSED"))
        if self.rank_m:
            lines.append(f"  rank ≤ {self.rank_m['m']}: {self.rank_m['method']}")
        for n in self.notes:
            lines.append(f"  note: {n}")
        return "\n".join(lines)
