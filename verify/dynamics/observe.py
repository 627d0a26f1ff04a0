"""What a trajectory records at a point ψ: norm, L − L⋆, selected tokens, 1 − corr to the SVMs."""
from __future__ import annotations

from flint import arb

from verify.models.attention import norm2, one_minus_corr


class Observer:
    """Builds ``Record``s for one parameterisation; SVM references are looked up once per selection."""

    def __init__(self, par, dps: int, svm: bool = True, psi0=None):
        self.par, self.dps, self.svm = par, dps, svm
        self.inv0 = par.invariants(psi0) if psi0 is not None else None

    def reference(self, select):
        if not self.svm:
            return None
        return self.par.svm_reference(select, self.dps)

    def record(self, psi, s, log_t, grad_norm=None, norm=None):
        """The record at ψ (``norm``: the SVM-matching norm of ψ when the caller has it)."""
        from verify.dynamics.trajectory import Record

        par = self.par
        th = par.theta(psi)
        st = par.model.states(th)
        sel = tuple(x.r for x in st)
        nt = norm2(th)
        direction = [x / nt for x in th] if nt > 0 else list(th)
        ref = self.reference(sel)
        gmm = self.reference("opt")
        omc = one_minus_corr(th, ref) if ref is not None and nt > 0 else None
        omc_gmm = one_minus_corr(th, gmm) if gmm is not None and nt > 0 else None
        drift = None
        if self.inv0 is not None:
            inv = par.invariants(psi)
            drift = max((abs(a - b) for a, b in zip(inv, self.inv0)), default=arb(0))
        return Record(s=arb(s), norm=par.norm(psi) if norm is None else norm, log_t=log_t, excess=par.model.excess(th, st), selected=sel,
                      one_minus_corr=omc, one_minus_corr_gmm=omc_gmm, direction=direction,
                      grad_norm=grad_norm, invariant_drift=drift)
