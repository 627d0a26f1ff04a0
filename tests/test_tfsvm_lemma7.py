"""tfsvm.lemma7 (Key Lemma, W form): holds; constant 1 for 2 is VIOLATED at the tight T = 2 case; a tie is
NOT_APPLICABLE; the tight case attains the bound (ratio 1, hand derivation)."""
from flint import arb

from lemmas.tfsvm import lemma7
from verify import Dataset
from verify.claims import run_claim
from verify.data import tfsvm as D
from verify.numbers.precision import working_precision


def test_defaults_hold_proven_on_the_whole_domain():
    """The exact proof (kit.key_lemma.domain_proof) covers every s in the simplex; the probe tallies corroborate it."""
    v = run_claim(lemma7.CLAIM, lemma7.CLAIM.default_datasets(), dps=30)
    assert (v.verdict, v.certainty, v.range) == ("HOLDS", "proven", "every s in the open simplex, all a, γ")
    assert all(e.corroborates for e in v.evidence if e.coverage is not None)


def test_constant_one_is_violated_at_the_tight_case():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.lemma4_spec(), prec, factor=1)
    d = out.decision()
    assert d.verdict == "VIOLATED" and d.certainty == "certified"


def test_power_three_is_violated():
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.d_lmm(), prec, power=3)
    assert out.decide() == "VIOLATED"


def test_tight_case_attains_the_bound():
    """x = (1, −1), z = v = 1: γ = (1, −1), Γ = 2, a = (V, −V), A = |V|; LHS = −s₂²(a₁−a₂)(γ₁−γ₂) = −4V s₂²
    and 2ΓA(1 − s₁)² = 4|V|s₂²: the ratio is 1 at every probe point, where its ball straddles 1 and the exact
    structure M_a·M_γ/(2ΓA) = 2|V|·2/(4|V|) = 1 decides it: HOLDS, the tightest value exactly 1."""
    with working_precision(30) as prec:
        out = lemma7.evaluate(D.lemma4_spec(), prec)
    assert out.evidence[0].value == 1 and out.decide() == "HOLDS"


def test_tied_optimal_token_is_not_applicable():
    tied = Dataset.make(X=[[[1, 0], [0, 1], [0, 0]]], Y=[1], v=[1, 1], z=[[1, 1]], name="tied")
    v = run_claim(lemma7.CLAIM, [tied], dps=20)
    assert v.verdict == "NOT_APPLICABLE" and "unique" in v.reasons[0]


def test_hardest_v_finds_the_worst_direction_the_seeded_ones_miss():
    """x = (1, 0), (1, 1/100), z = (1, 0), v = (1, −1): a = XVz = (u₁, u₁ + u₂/100) with u = Ve₁, so at every W the
    ratio is |a₁ − a₂|/(factor·max|a_t|), sup 2/factor at a = (1, −1) (u = (1, −200)); a seeded V has
    |a₁ − a₂| ≈ |u₂|/100. Constant 1: the seeded V's alone find no violation at their points (only the domain-wide
    exact item refutes it), VIOLATED (ratio 2) at a probe point with the hardest V."""
    data = Dataset.make(X=[[[1, 0], [1, "1/100"]]], Y=[1], v=[1, -1], z=[[1, 0]], name="skewed-pair-W")
    with working_precision(30) as prec:
        old = lemma7.evaluate(data, prec, factor=1, hardest_v=False)
        new = lemma7.evaluate(data, prec, factor=1)
        paper = lemma7.evaluate(data, prec)
    assert old.evidence[0].decide() is True and old.evidence[0].value < 1
    assert old.decision().reasons and all("whole domain" in r for r in old.decision().reasons)
    assert new.decision().verdict == "VIOLATED" and new.decision().certainty == "certified"
    assert abs(new.evidence[0].value - 2) < arb("1e-25")
    assert paper.decide() == "HOLDS" and paper.evidence[0].value == 1
