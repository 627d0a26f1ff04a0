"""irgf structure claims (App. A, §3.2, §5; the diagonal model's gradients and conserved quantities, Lemma A.1,
Proposition inf-loss, nuclear = ℓ1 on diagonals, Remark on Assumption 3, Lemma 5.1, Theorem 5.1, the lift (42), the
coincidence under Assumption 4) on hypothesis-generated data at the edges: n = 1, L = 2 (L = 3 for Assumption 4,
whose non-optimal tokens come in pairs), d = 1 or d = 3, near-tied score gaps (10⁻⁶), tiny and large scales, zero
columns of B, random starts ω₀ and exact starts (ξ_k(0), ξ_q(0)).

All these statements are true (the spec reads their proofs; HOLDS on the defaults): never VIOLATED, with small
budgets (short flow times, a low target µ). ``irgf.prop.diag-l1`` is exact and its hypothesis (d_e ≥ d) holds by
default, so it must HOLD on every dataset. Assumption 4 data come from the engine's generator
(``verify.data.irgf.random_a4_dataset``) on drawn seeds and sizes (n ≤ d, L ∈ {3, 5}, d ∈ {3, 4}).
"""
from __future__ import annotations

from fractions import Fraction

from hypothesis import event, given
from hypothesis import strategies as st

from lemmas.irgf import (
    aux_a4_coincide,
    aux_conservation,
    aux_gradients,
    lemma51,
    lemmaA1,
    prop_diag_l1,
    prop_inf_loss,
    prop_lift,
    rem_asm3,
    thm51,
)
from properties.strategies import datasets, examples, save_failure
from properties.test_irgf_properties import a2_datasets
from verify import Dataset
from verify.data.irgf import random_a4_dataset
from verify.numbers.precision import working_precision

omegas = st.lists(st.sampled_from([Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2)]), min_size=4, max_size=4)


def _never_violated(claim_id, out, data):
    decided = out.decision()
    verdict = decided.verdict
    event(f"verdict {verdict}" + (f": {str(decided.reasons[0])[:70]}" if verdict != "HOLDS" and decided.reasons
                                  else ""))
    if verdict == "VIOLATED":
        raise AssertionError(f"{claim_id}: VIOLATED; counterexample saved to {save_failure(data, claim_id)}")


@st.composite
def a4_data(draw):
    """Assumption 2 + 4 data from the engine's generator: n ≤ d, L odd, d ≥ 3."""
    d = draw(st.integers(3, 4))
    n = draw(st.integers(1, min(3, d)))
    L = draw(st.sampled_from([3, 5]))
    seed = draw(st.integers(0, 10**6))
    return random_a4_dataset(n=n, L=L, d=d, seed=seed)


# ----- the diagonal model --------------------------------------------------------------------------------------
@examples(4)
@given(a2_datasets(max_n=2, max_L=3, max_d=3))
def test_aux_gradients_never_violated(data):
    with working_precision(20) as prec:
        out = aux_gradients.evaluate(data, prec)
    _never_violated("irgf.aux.gradients", out, data)


@examples(4)
@given(a2_datasets(max_n=2, max_L=3, max_d=3), omegas)
def test_aux_conservation_never_violated(data, om):
    with working_precision(20) as prec:
        out = aux_conservation.evaluate(data, prec, omega0=om[:data.d], times=("1/2", "1"))
    _never_violated("irgf.aux.conservation", out, data)


@examples(4)
@given(a2_datasets(max_n=2, max_L=3, max_d=3), omegas)
def test_lemmaA1_never_violated(data, om):
    with working_precision(20) as prec:
        out = lemmaA1.evaluate(data, prec, omega0=om[:data.d], times=("1/2", "1"))
    _never_violated("irgf.lemmaA1", out, data)


@examples(4)
@given(a2_datasets(max_n=2, max_L=3, max_d=3),
       st.lists(st.sampled_from([Fraction(0), Fraction(1), Fraction(-1, 2), Fraction(3)]), min_size=6, max_size=6))
def test_lemmaA1_exact_start_never_violated(data, entries):
    """An exact start (ξ_k(0), ξ_q(0)) meeting (5): on each coordinate one factor 0, the other nonzero."""
    xk = [entries[j] for j in range(data.d)]
    xq = [Fraction(0) if xk[j] else (entries[3 + j] or Fraction(1)) for j in range(data.d)]
    with working_precision(20) as prec:
        out = lemmaA1.evaluate(data, prec, start=(xk, xq), times=("1/2", "1"))
    _never_violated("irgf.lemmaA1", out, data)


@examples(8)
@given(datasets(max_n=2, max_T=3, max_d=2, unique_opt=False))
def test_prop_inf_loss_never_violated(data):
    with working_precision(20) as prec:
        out = prop_inf_loss.evaluate(data, prec, target="3")
    _never_violated("irgf.prop.inf-loss", out, data)


@examples(15)
@given(datasets(max_n=2, max_T=3, max_d=3))
def test_prop_diag_l1_holds(data):
    """d_e = d by default (the hypothesis holds): the identity is certified on every dataset with unique optimal
    tokens (tied ones: ``test_prop_diag_l1_tied_optimal_tokens``)."""
    with working_precision(20) as prec:
        out = prop_diag_l1.evaluate(data, prec)
    verdict = out.decide()
    event(f"verdict {verdict}")
    if verdict != "HOLDS":
        raise AssertionError(f"irgf.prop.diag-l1: {verdict}; saved to {save_failure(data, 'irgf.prop.diag-l1')}")


def test_prop_diag_l1_tied_optimal_tokens():
    """Found by ``test_prop_diag_l1_holds`` with ties allowed (n = 1, T = 2, d = 1, both tokens 0): the norm identity
    does not involve the optimal tokens, and the SVM part's need for them is a hypothesis (NOT_APPLICABLE naming it),
    not a usage error (it raised DataError, exit 5, before)."""
    data = Dataset.make(X=[[[0], [0]]], Y=[-1], v=[1], name="irgf-diag-l1-tied")
    with working_precision(20) as prec:
        verdict = prop_diag_l1.evaluate(data, prec).decide()
    assert verdict == "NOT_APPLICABLE"


@examples(15)
@given(a2_datasets(max_n=3, max_L=4, max_d=3))
def test_rem_asm3_never_violated(data):
    with working_precision(20) as prec:
        out = rem_asm3.evaluate(data, prec)
    _never_violated("irgf.rem.asm3", out, data)


# ----- general (K, Q) under Assumption 4 ---------------------------------------------------------------------------
@examples(10)
@given(a4_data())
def test_prop_lift_never_violated(data):
    with working_precision(20) as prec:
        out = prop_lift.evaluate(data, prec)
    _never_violated("irgf.prop.lift", out, data)


@examples(10)
@given(a4_data())
def test_aux_a4_coincide_never_violated(data):
    with working_precision(20) as prec:
        out = aux_a4_coincide.evaluate(data, prec)
    _never_violated("irgf.aux.a4-coincide", out, data)


@examples(3)
@given(a4_data(), st.integers(0, 100))
def test_lemma51_never_violated(data, seed):
    with working_precision(20) as prec:
        out = lemma51.evaluate(data, prec, target="10", seed=seed)
    _never_violated("irgf.lemma51", out, data)


@examples(3)
@given(a4_data(), st.integers(0, 100))
def test_thm51_never_violated(data, seed):
    with working_precision(20) as prec:
        out = thm51.evaluate(data, prec, target="10", seed=seed)
    _never_violated("irgf.thm51", out, data)
