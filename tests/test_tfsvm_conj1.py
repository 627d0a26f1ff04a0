"""tfsvm.conj1 (Gen-SVM equivalence, empirical): a protocol trial HOLDS as evidence with the protocol as its range; the
single-token baseline W^1token on a multi-token run is VIOLATED (the spec's false case, as in v1 Fig. 8); all labels +1
and a linear head (|𝒪_i| = 1) → NOT_APPLICABLE naming the hypothesis; the references checked against their defining
equations computed here exactly / in arb; the trial generator's exact unit-sphere data."""
from fractions import Fraction as F

from flint import arb

from lemmas.tfsvm import conj1
from verify.claims import run_claim
from verify.data.dataset import Dataset
from verify.dynamics.heads import head_normalized_gd
from verify.models.attention import features
from verify.models.heads import HeadModel, make_head
from verify.numbers.precision import to_arb, working_precision


def test_trial_generator_protocol():
    data = conj1.trial(4, 6)
    assert (data.n, data.T, data.d) == (3, 4, 4) and -1 in data.Y
    assert all(sum((a * a for a in x), F(0)) == 1 for seq in data.X for x in seq)  # exactly on the unit sphere
    assert all(sum((a * a for a in z), F(0)) == 1 for z in data.z)
    assert sum((a * a for row in data.head[1] for a in row), F(0)) == 1  # ‖V‖_F = 1
    assert conj1.trial(4, 2) is None  # all labels +1: the protocol skips it


def test_protocol_trial_holds_as_evidence():
    v = run_claim(conj1.CLAIM, [conj1.trial(4, 6)], dps=30)
    assert v.verdict == "HOLDS" and v.certainty == "evidence" and "k ≤ 2000" in v.range


def test_references_satisfy_their_definitions():
    data = conj1.trial(4, 6)
    with working_precision(30):
        head = make_head(data.head, data.v)
        tr = head_normalized_gd(data, head, steps=2000, dps=30, init=conj1._init(data, None))
        psi = tr.state["psi"]
        st = HeadModel(features(data, "W"), data, head, "logistic").states(psi)
        O, _, between = conj1.classify(st)
        assert not between and any(len(o) >= 2 for o in O)
        refs = conj1.references(data, psi, st, O)
        d, X, Z = data.d, data.X, data.z
        mm = [F(x) for x in refs["res"].solution]  # exact Gen-SVM solution

        def form(W, i, t, u):  # (x_it − x_iu)ᵀ W z_i, exactly for rational W, in arb otherwise
            if isinstance(W[0], F):
                return sum(((X[i][t][a] - X[i][u][a]) * W[a * d + b] * Z[i][b] for a in range(d) for b in range(d)),
                           F(0))
            return sum((to_arb((X[i][t][a] - X[i][u][a]) * Z[i][b]) * W[a * d + b] for a in range(d) for b in range(d)),
                       arb(0))
        for i, o in enumerate(O):
            for t in o:
                for u in range(data.T):
                    if u in o:
                        assert form(mm, i, t, u) == 0
                    else:
                        assert form(mm, i, t, u) >= 1
        fin = [x for row in refs["fin"].W for x in row]
        for i, o in enumerate(O):
            for t in o:
                for u in o:
                    if t < u:
                        res = form(fin, i, t, u) - (st[i].s[t] / st[i].s[u]).log()
                        assert abs(res) < arb(10) ** -20


def test_single_token_baseline_is_violated_on_a_multi_token_run():
    with working_precision(30) as prec:
        out = conj1.evaluate(conj1.trial(8, 18), prec, reference="1token")
    d = out.decision()
    assert d.verdict == "VIOLATED" and "W^1token" in d.reasons[0]


def test_labels_all_positive_not_applicable():
    data = conj1.trial(4, 6).replace(Y=[1, 1, 1])
    with working_precision(30) as prec:
        d = conj1.evaluate(data, prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "mixed labels" in d.reasons[0]


def test_linear_head_single_token_not_applicable():
    obj = conj1.trial(4, 6).to_dict()
    obj["head"] = {"kind": "linear"}
    with working_precision(30) as prec:
        d = conj1.evaluate(Dataset.from_dict(obj), prec).decision()
    assert d.verdict == "NOT_APPLICABLE" and "multi-token" in d.reasons[0]
