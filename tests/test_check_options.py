"""verify.check(claim, data, **options): a claim's own options reach its check (the replay of a printed
statement with a hypothesis switched off); an option it does not take is a one-line UsageError."""
import pytest

import verify
from verify.data.tfsvm import d_stat
from verify.errors import UsageError


def test_options_reach_the_check_and_switch_a_hypothesis_off():
    # D-STAT: Att-SVM asks w ≥ 1 and −w ≥ 1 (infeasible) and ∇L(0) = 0 — the proof's hypothesis decides.
    assert verify.check("tfsvm.thm3", d_stat()).verdict == "NOT_APPLICABLE"
    printed = verify.check("tfsvm.thm3", d_stat(), require_feasible=False, lengths=(3000,))
    assert printed.verdict == "VIOLATED" and printed.certainty == "certified"
    assert str(printed).startswith("tfsvm.thm3 (tfsvm-D-STAT): VIOLATED — certified")


def test_an_unknown_option_is_a_usage_error_naming_the_options():
    with pytest.raises(UsageError, match="takes no option bogus; its options: require_feasible"):
        verify.check("tfsvm.thm3", d_stat(), bogus=1)
    with pytest.raises(UsageError, match="takes no option prec"):
        verify.check("tfsvm.thm3", d_stat(), prec=3)
