"""The claim-writing kit: reusable checks (probe inequalities, trajectories, witnesses, asymptotic directions, residual trends) that decide by the rules of ``verify.claims``."""
