"""verify.kit.separating (mutation tests): ``lmm_cone_outcome`` routes the selections (the separating-cone engine
replaced by recorders that hand back fake selections) into (a) κ > 0 for locally optimal α and (b) κ ≤ 0 for the
others — every sign on both sides, an uncertified SVM a requirement, the feasibility hypothesis True / undecided /
False, (c) from opt's row sets, the empty-support count, the notes, the coverage text (one α, the first of many, all
of each space) and the figure switch; ``kappa_figure``'s points; ``head_spread`` B = ‖v‖·max‖x_t − x_τ‖ (exact
here); ``cone_path_requirements`` on both sides of each optimisation check."""
from fractions import Fraction
from types import SimpleNamespace as NS

import pytest
from flint import arb

from verify.kit import separating as S
from verify.numbers.precision import to_arb, working_precision


@pytest.fixture(autouse=True)
def _prec():
    with working_precision(30):
        yield


PREC = NS(dps=30, tolerance=to_arb(Fraction(1, 10**20)))


def _sel(label, feasible=True, lopt=True, sign=1, kappa="1/2", empty=(), reason=""):
    k = kappa if kappa in (S.POS_INF, S.NEG_INF) else to_arb(Fraction(kappa))
    return NS(label="α = " + label, feasible=feasible, reason=reason, locally_optimal=lopt, kappa=k,
              sep=NS(sign=lambda: sign, where="edge"), empty_support=lambda: [NS(label=x) for x in empty])


def _data(causal=False, Yq=None):
    return NS(causal=causal, Yq=Yq)


@pytest.fixture
def engine(monkeypatch):
    """Fake engine: ``sels`` are handed out in order; calls are recorded."""
    st = NS(sels=[], total=None, opt=(0,), sets=[NS(label="row 1", high=[])], calls=[])

    def selections(data, attention, limit):
        st.calls.append(("selections", attention, limit))
        return list(range(len(st.sels)))

    def selection(data, a, attention, dps):
        st.calls.append(("selection", a, attention, dps))
        return st.sels[a] if isinstance(a, int) else st.sels[0]

    def selection_count(data, attention):
        return st.total if st.total is not None else len(st.sels)

    def optimal_selection(data, attention):
        st.calls.append(("opt", attention))
        return st.opt

    def row_sets(data, opt, attention):
        st.calls.append(("row_sets", opt, attention))
        return st.sets

    for name, f in (("selections", selections), ("selection", selection), ("selection_count", selection_count),
                    ("optimal_selection", optimal_selection), ("row_sets", row_sets)):
        monkeypatch.setattr(S, name, f)
    return st


def _items(out):
    return {e.quantity.split(" ")[0]: e for e in out.evidence}


def test_single_query_hypothesis_and_attention():
    assert S.single_query_hypothesis(_data()).met is True
    h = S.single_query_hypothesis(_data(causal=True, Yq=[[1]]))
    assert h.met is False and "causal, per-query labels Yq" in h.detail
    assert S.single_query_hypothesis(_data(Yq=[[1]])).met is False
    assert S.attention_of_lemma(_data(causal=True), False) == "single"
    assert S.attention_of_lemma(_data(causal=True), True) == "causal"
    assert S.attention_of_lemma(_data(), True) == "seq2seq"


def test_lemma5_on_seq2seq_data_is_not_applicable(engine):
    engine.sels = [_sel("(1)")]
    out = S.lmm_cone_outcome(_data(causal=True), PREC)
    assert [h.met for h in out.hypotheses] == [False] and not out.evidence and not engine.calls
    out = S.lmm_cone_outcome(_data(causal=True), PREC, seq2seq=True, figure=False)
    assert out.hypotheses[0].met is True and ("selections", "causal", S.ENUMERATION_LIMIT) in engine.calls


def test_signs_decide_a_and_b(engine):
    """Locally optimal with sign 1 and others with signs 0, −1 → (a), (b) hold; counts and cover name all of [T]^n."""
    engine.sels = [_sel("(1)", sign=1), _sel("(2)", lopt=False, sign=0, kappa="0"),
                   _sel("(3)", lopt=False, sign=-1, kappa=S.NEG_INF), _sel("(4)", feasible=False)]
    out = S.lmm_cone_outcome(_data(), PREC, limit=7, figure=False)
    assert ("selections", "single", 7) in engine.calls and ("selection", 3, "single", 30) in engine.calls
    assert out.hypotheses[0].met is True and "3 of 4 selections certified feasible, 0 undecided" in out.hypotheses[0].detail
    a, b = out.evidence[0], out.evidence[1]
    assert a.quantity.startswith("(a)") and a.decide() is True and a.coverage.points == 1
    assert b.quantity.startswith("(b)") and b.decide() is True and b.coverage.points == 2
    assert [r.met for r in out.requirements] == [True] and out.requirements[0].detail == "4 selections"
    assert out.covers == ["α: all 4 selections of [T]^n (3 feasible, 1 locally optimal)"]
    assert "of the 2 other feasible α: 1 are −∞, 1 are 0" in out.notes[-1] and "α = (1) 0.5" in out.notes[-1]
    assert not out.figures


def test_a_fails_on_sign_zero_and_b_fails_on_positive_or_unknown(engine):
    engine.sels = [_sel("(1)", sign=0, kappa="0"), _sel("(2)", sign=None), _sel("(3)", lopt=False, sign=1)]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    a, b = out.evidence[0], out.evidence[1]
    assert a.decide() is False and a.coverage.violated == 2 and "α = (1)" in a.coverage.first_violation
    assert b.decide() is False and b.coverage.violated == 1
    engine.sels = [_sel("(1)"), _sel("(2)", lopt=False, sign=None)]
    b = S.lmm_cone_outcome(_data(), PREC, figure=False).evidence[1]
    assert b.decide() is False and b.coverage.points == 1


def test_feasibility_hypothesis_undecided_and_false(engine):
    """No feasible but one undecided → met None (stop, not applicable); none at all → False; an undecided next to a
    feasible one → a failed requirement naming it."""
    engine.sels = [_sel("(1)", feasible=None), _sel("(2)", feasible=False)]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.hypotheses[0].met is None and not out.evidence and not out.requirements
    engine.sels = [_sel("(1)", feasible=False)]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.hypotheses[0].met is False and not out.evidence
    engine.sels = [_sel("(1)"), _sel("(2)", feasible=None)]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.hypotheses[0].met is True and "1 undecided" in out.hypotheses[0].detail
    assert out.requirements[0].met is False and "α = (2)" in out.requirements[0].detail
    assert out.evidence[0].coverage.points == 1   # the undecided α is not tallied


def test_only_one_side_present_gives_notes(engine):
    engine.sels = [_sel("(1)", lopt=False, sign=-1)]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.evidence[0].quantity.startswith("(b)") and "(a): no locally-optimal selection" in out.notes[0]
    engine.sels = [_sel("(1)")]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.evidence[0].quantity.startswith("(a)") and out.notes[0].startswith("(b): every feasible")
    assert out.evidence[0].decide() is True


def test_c_and_the_empty_support_count(engine):
    """(c): high(opt) = ∅ in every row set holds; one row set with a high token fails and is named; opt tied → a
    note, no (c) item. The informative count of locally optimal α with an empty 𝒯."""
    engine.sels = [_sel("(1)", empty=("row 2",)), _sel("(2)", empty=("row 1", "row 3")), _sel("(3)")]
    engine.sets = [NS(label="row 1", high=[]), NS(label="row 2", high=[])]
    out = S.lmm_cone_outcome(_data(), PREC, seq2seq=True, figure=False)
    c = [e for e in out.evidence if e.quantity.startswith("(c)")][0]
    assert c.decide() is True and c.note == "2 row sets" and ("row_sets", (0,), "seq2seq") in engine.calls
    empty = out.evidence[-1]
    assert empty.value == 2 and empty.informative and "α = (2) (row 1, row 3: 𝒯 = ∅" in empty.note
    engine.sets = [NS(label="row 1", high=[]), NS(label="row 2", high=[1])]
    c = [e for e in S.lmm_cone_outcome(_data(), PREC, figure=False).evidence if e.quantity.startswith("(c)")][0]
    assert c.decide() is False and c.note == "row 2"
    engine.opt = None
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert not [e for e in out.evidence if e.quantity.startswith("(c)")]
    assert any(n.startswith("(c) not checked") for n in out.notes)
    engine.sels = [_sel("(1)")]
    assert S.lmm_cone_outcome(_data(), PREC, figure=False).evidence[-1].note == "none of 1"


def test_one_alpha_and_partial_enumeration(engine):
    engine.sels = [_sel("(2, 1)", feasible=False, reason="Farkas")]
    out = S.lmm_cone_outcome(_data(), PREC, alpha=(1, 0), figure=False)
    assert ("selection", (1, 0), "single", 30) in engine.calls
    h = out.hypotheses[0]
    assert h.met is False and h.detail == "Farkas" and h.name == "Att-SVM((2, 1)) feasible (W^mm_α exists)"
    engine.sels = [_sel("(2, 1)")]
    out = S.lmm_cone_outcome(_data(), PREC, alpha=(1, 0), figure=False)
    assert out.hypotheses[0].detail == "certified optimum" and out.covers == ["α: the one selection α = (2, 1)"]
    engine.sels, engine.total = [_sel("(1)"), _sel("(2)")], 3
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.covers == ["α: the first 2 of the 3 selections (opt first, then product order)"]
    engine.total = 2
    out = S.lmm_cone_outcome(_data(causal=True), PREC, seq2seq=True, figure=False)
    assert out.covers[0].startswith("α: all 2 selections of the causal windows")
    out = S.lmm_cone_outcome(_data(), PREC, seq2seq=True, figure=True)
    assert out.covers[0].startswith("α: all 2 selections of [T]^{nT}") and len(out.figures) == 1


def test_kappa_figure_points():
    """Feasible finite κ drawn at their 1-based index, split by local optimality; ±∞ in the caption; nothing finite
    → None."""
    sels = [_sel("(1)", kappa="1/4"), _sel("(2)", feasible=False), _sel("(3)", lopt=False, kappa="-1/2"),
            _sel("(4)", kappa=S.POS_INF), _sel("(5)", feasible=None, kappa="3")]
    fig = S.kappa_figure(sels, seq2seq=True)
    (lo, hi), (nlo, nhi) = [(s.x, s.y) for s in fig.series]
    assert (lo, hi, nlo, nhi) == ([1], [0.25], [3], [-0.5])
    assert [s.label for s in fig.series] == ["locally optimal", "not locally optimal"]
    assert "α = (4) +∞" in fig.caption and "Lemma 16" in fig.title and fig.hlines == [(0, "κ = 0")]
    assert S.kappa_figure([_sel("(1)", kappa=S.NEG_INF)], False) is None
    fig = S.kappa_figure([_sel("(1)", lopt=False, kappa="1")], False)
    assert len(fig.series) == 1 and fig.caption == "" and "Lemma 5" in fig.title


def test_head_spread():
    """v = (3, 4) (‖v‖ = 5); sequence 1 tokens (0, 0), (1, 2), (−1, 0) (largest gap (2, 2): √8); sequence 2 tokens
    (0, 0), (3, 0) (gap 3) → B = 5·3 = 15. Across sequences (0,0)–(3,0) vs (1,2)–(3,0) is not a pair."""
    data = NS(v=[3, 4], X=[[[0, 0], [1, 2], [-1, 0]], [[0, 0], [3, "0"]]])
    data.X[1][1][1] = 0
    assert abs(float(S.head_spread(data).mid()) - 15) < 1e-20
    data = NS(v=["1/2", 0], X=[[[0, 0], [1, 1]], [[5, 5], [5, 4]]])
    B = S.head_spread(NS(v=[Fraction(1, 2), 0], X=[[[0, 0], [1, 1]], [[5, 5], [5, 4]]]))
    assert abs(float(B.mid()) - 0.5 * 2 ** 0.5) < 1e-15


def _pt(R, f=0, cand=1, grad=0, mult=None, radial=-1, starts=3):
    return NS(R=to_arb(R), f=to_arb(Fraction(f)), candidate_f=to_arb(Fraction(cand)), starts=starts,
              riemannian_gradient=to_arb(Fraction(grad)), min_multiplier=None if mult is None else to_arb(Fraction(mult)),
              radial=to_arb(Fraction(radial)))


def _reqs(pts, prec=PREC, invalidating=None):
    out = NS(r=[])

    def require(name, met, detail="", invalidates=False):
        out.r.append((name, met, detail))
        if invalidating is not None:
            invalidating.append(invalidates)

    out.require = require
    S.cone_path_requirements(out, pts, "ε = 1/10", prec)
    return out.r


def test_cone_path_requirements_both_sides():
    """dps = 30 → tolerance 10^−7 for KKT. f ≤ candidate, |f − cand| ≤ tol, f > cand; gradient below / above 10^−7,
    multiplier above / below −10^−7; radial < 0 vs 0."""
    flags = []
    r = _reqs([_pt(1), _pt(2, f=1, cand=1, grad=Fraction(1, 2 * 10**7), mult=-Fraction(1, 2 * 10**7))],
              invalidating=flags)
    assert [m for _, m, _ in r] == [True, True, True] and "2 radii, 3 starts each" in r[0][2]
    assert flags == [True, True, True]  # each says the search's W̄_R is not the path: its direction then proves nothing
    assert r[0][0].startswith("(ε = 1/10)")
    prec = NS(dps=30, tolerance=to_arb(Fraction(1, 8)))
    r = _reqs([_pt(1, f=Fraction(9, 8), cand=1), _pt(2, f=Fraction(5, 4), cand=1)], prec)
    assert r[0][1] is False and r[0][2] == "not certified at R = [2.0]"
    r = _reqs([_pt(1, grad=Fraction(2, 10**7)), _pt(2, mult=-Fraction(2, 10**7)), _pt(3, mult=5), _pt(4, radial=0)])
    assert r[1][1] is False and r[1][2] == "not met at R = [1.0, 2.0]"
    assert r[2][1] is False and r[2][2] == "not certain at R = [4.0]"
    r = _reqs([_pt(1, grad=Fraction(1, 2 * 10**8)), _pt(2, radial=Fraction(-1, 10**30))], NS(dps=32, tolerance=PREC.tolerance))
    assert [m for _, m, _ in r] == [True, True, True]
    r = _reqs([_pt(1, grad=Fraction(2, 10**8))], NS(dps=32, tolerance=PREC.tolerance))
    assert r[1][1] is False


def test_kappa_text():
    assert S._kappa_text(_sel("(1)", kappa=S.NEG_INF)) == S.NEG_INF
    assert S._kappa_text(_sel("(1)", kappa="1/3")) == "0.333333"
    assert isinstance(arb(1), arb)


@pytest.fixture
def strict_engine(engine, monkeypatch):
    """The fake engine, checking that every call gets the dataset and the attention of the lemma."""
    data = _data()
    for name in ("selections", "selection", "selection_count", "optimal_selection", "row_sets"):
        f = getattr(S, name)

        def checked(d, *args, _f=f, _name=name):
            assert d is data, _name
            assert args[-2 if _name in ("selection", "selections") else -1] in ("single", "seq2seq", "causal"), _name
            return _f(d, *args)
        monkeypatch.setattr(S, name, checked)
    engine.data = data
    return engine


def test_engine_receives_the_data_and_attention(strict_engine):
    strict_engine.sels = [_sel("(1)")]
    out = S.lmm_cone_outcome(strict_engine.data, PREC, seq2seq=True)
    assert ("opt", "seq2seq") in strict_engine.calls and len(out.figures) == 1   # figure on by default
    assert out.hypotheses[0].name.startswith("some SAtt-SVM(α) feasible")
    S.lmm_cone_outcome(strict_engine.data, PREC, alpha=(0,), figure=False)


def test_an_infeasible_selection_does_not_end_the_tally(engine):
    engine.sels = [_sel("(1)", feasible=False), _sel("(2)"), _sel("(3)", lopt=False, sign=0, kappa="0")]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    assert out.evidence[0].coverage.points == 1 and out.evidence[1].coverage.points == 1


def test_kappa_notes_count_each_kind(engine):
    """Others: κ = −∞ twice, 0 once, −1/2 once (the rest); no locally-optimal α → "none"."""
    engine.sels = [_sel("(1)", lopt=False, sign=-1, kappa=S.NEG_INF), _sel("(2)", lopt=False, sign=-1, kappa=S.NEG_INF),
                   _sel("(3)", lopt=False, sign=0, kappa="0"), _sel("(4)", lopt=False, sign=-1, kappa="-1/2")]
    out = S.lmm_cone_outcome(_data(), PREC, figure=False)
    note = out.notes[-1]
    assert note.startswith("κ(α) of the locally-optimal α: none;")
    assert "of the 4 other feasible α: 2 are −∞, 1 are 0, the rest α = (4) -0.5" in note
    engine.sels = engine.sels[:3]
    note = S.lmm_cone_outcome(_data(), PREC, figure=False).notes[-1]
    assert note.endswith("2 are −∞, 1 are 0")


def test_names_of_the_hypotheses_and_requirement_details():
    assert S.single_query_hypothesis(_data()).name == "single-query attention data (one query z_i per sequence)"
    r = _reqs([_pt(1)])
    assert r[1][2] == "" and r[2][2] == ""


def test_cone_path_tolerance_one_at_low_dps():
    """dps = 3 → tolerance 10⁰ = 1 exactly: a gradient of exactly 1 and a multiplier of exactly −1 pass (≤, ≥)."""
    r = _reqs([_pt(1, grad=1, mult=-1)], NS(dps=3, tolerance=PREC.tolerance))
    assert r[1][1] is True
