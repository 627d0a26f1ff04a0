"""Sequence-to-sequence (and causal) attention in the engine: L_seq and its gradient against a direct mpmath evaluation
of the formula, the causal mask, SAtt-SVM with per-query labels, the parameterisations/paths, the dataset keys and the
CLI paths (svm --kind satt|satt-nuc, flow --attention) with their one-line errors and exit codes."""
import json
import re
from fractions import Fraction

import mpmath
import pytest

from verify.cli.flow import main as flow_main
from verify.cli.svm import main as svm_main
from verify.data.dataset import Dataset, loads
from verify.data.tfsvm_seq2seq import s2s_causal, s2s_labels, s2s_plain
from verify.dynamics import regularization_path
from verify.dynamics.parameterization import Seq2SeqKQ, Seq2SeqW, make_parameterization
from verify.errors import DataError, UsageError
from verify.models.seq2seq import seq2seq_model
from verify.numbers.precision import to_arb, working_precision
from verify.svm.seq2seq import satt_svm

W0 = [Fraction(1, 2), Fraction(-3, 4), Fraction(5, 4), Fraction(1, 3)]  # a 2×2 W, row-major


def _direct(data, W, causal):
    """L_seq(W) = (1/n) Σ_i Σ_k ℓ(Y_ik vᵀX_iᵀ S(X_i W x_ik)) and its gradient (1/n) Σ ℓ'(φ) X_iᵀ(diag s − ssᵀ)γ x_ikᵀ,
    straight from the formula in mpmath (logistic ℓ(u) = log(1 + e^{−u})), with the causal window t ≤ k."""
    mpmath.mp.dps = 50
    d, T, n = data.d, data.T, data.n
    Wm = [[mpmath.mpf(W[a * d + b].numerator) / W[a * d + b].denominator for b in range(d)] for a in range(d)]
    f = lambda x: mpmath.mpf(x.numerator) / x.denominator  # noqa: E731
    L, G = mpmath.mpf(0), [[mpmath.mpf(0)] * d for _ in range(d)]
    for i in range(n):
        X = [[f(x) for x in tok] for tok in data.X[i]]
        v = [f(x) for x in data.v]
        for k in range(T):
            y = (data.Yq[i][k] if data.Yq is not None else data.Y[i])
            win = range(k + 1) if causal else range(T)
            q = X[k]
            logits = [sum(X[t][a] * Wm[a][b] * q[b] for a in range(d) for b in range(d)) for t in win]
            m = max(logits)
            e = [mpmath.exp(a - m) for a in logits]
            s = [x / sum(e) for x in e]
            gam = [y * sum(X[t][a] * v[a] for a in range(d)) for t in win]
            phi = sum(a * b for a, b in zip(s, gam))
            L += mpmath.log(1 + mpmath.exp(-phi))
            lp = -1 / (1 + mpmath.exp(phi))
            c = [s[t] * (gam[t] - phi) for t in range(len(s))]
            for a in range(d):
                for b in range(d):
                    G[a][b] += lp * sum(c[t] * X[t][a] for t in range(len(s))) * q[b]
    return L / n, [G[a][b] / n for a in range(d) for b in range(d)]


@pytest.mark.parametrize("make,causal", [(s2s_labels, False), (s2s_causal, True), (s2s_plain, False),
                                         (s2s_plain, True)])
def test_loss_and_gradient_match_the_formula(make, causal):
    data = make()
    L, G = _direct(data, W0, causal)
    with working_precision(40):
        m = seq2seq_model(data, causal)
        th = [to_arb(x) for x in W0]
        tol = to_arb(Fraction(1, 10**35))
        assert abs(m.loss_seq(th) - to_arb(mpmath.nstr(L, 45))) < tol
        for a, b in zip(m.grad_seq(th), G):
            assert abs(a - to_arb(mpmath.nstr(b, 45))) < tol


def test_causal_mask_weights_are_exactly_zero_and_query_zero_is_constant():
    data = s2s_causal()
    with working_precision(30):
        m = seq2seq_model(data)
        st = m.states([to_arb(x) for x in W0])
        for k, row in enumerate(st):   # n = 1: row k is query k
            for t in range(k + 1, data.T):
                assert row.s[t] == 0 and row.c[t] == 0
        assert st[0].s[0] == 1  # query 0 sees token 0 alone: φ = γ_00 whatever W
        big = [to_arb(x * 1000) for x in W0]
        assert m.states(big)[0].phi == st[0].phi


def test_satt_svm_uses_per_query_labels():
    """s2s_labels: u = vᵀx = (−3, 9/4, −3/4), Yq = (−1, 1, 1): query 0 maximises −u (token 0), queries 1, 2 maximise u
    (token 1)."""
    res = satt_svm(s2s_labels(), None, False, dps=30)
    assert res.alpha == ((0, 1, 1),) and res.status == "optimal"
    # every constraint of the exact solution holds with margin ≥ 1
    d, X = 2, s2s_labels().X[0]
    W = [Fraction(x) for x in res.solution]  # flat, exact
    for (_, k, t) in res.labels:
        a = res.alpha[0][k]
        m = sum((X[a][p] - X[t][p]) * W[p * d + q] * X[k][q] for p in range(d) for q in range(d))
        assert m >= 1


def test_parameterizations_and_paths_run_seq2seq():
    data = s2s_causal()
    with working_precision(30):
        par = make_parameterization(data, "W")
        assert isinstance(par, Seq2SeqW) and par.causal and par.attention == "causal"
        assert isinstance(make_parameterization(s2s_plain(), "KQ", attention="seq2seq"), Seq2SeqKQ)
        assert not isinstance(make_parameterization(s2s_plain(), "W"), Seq2SeqW)  # a plain dataset: single query
        rp = regularization_path(par, "W", radii=("1", "10", "30"), dps=30, starts=1)
        omc = [p.one_minus_corr_gmm for p in rp.points]
        assert all(x is not None for x in omc) and omc[2] < omc[1] < omc[0]
        assert rp.points[-1].selected == (0, 0, 0)
    with pytest.raises(UsageError):
        make_parameterization(data, "p")
    with pytest.raises(UsageError):
        make_parameterization(data, "W", attention="seq2seq")  # a causal dataset is causal


@pytest.mark.parametrize("patch,msg", [
    ({"causal": "yes"}, "causal: expected true or false"),
    ({"Yq": [[1, 1]]}, "Yq[0]: expected T = 3"),
    ({"Yq": [[1, 0, 1]]}, "labels must be +1 or -1"),
    ({"Yq": [1, 1, 1]}, "Yq: expected n = 1 rows"),
    ({"causal": True, "z": [[1, 0]]}, "drop z"),
])
def test_dataset_keys_are_validated(patch, msg):
    obj = s2s_plain().to_dict()
    obj.update(patch)
    with pytest.raises(DataError, match=re.escape(msg)):
        Dataset.from_dict(obj)


def test_dataset_round_trip_keeps_the_flags():
    for data in (s2s_causal(), s2s_labels()):
        back = loads(data.to_json(), name=data.name)
        assert back == data and back.causal == data.causal and back.Yq == data.Yq
    assert "causal" not in s2s_plain().to_json()  # unflagged datasets keep their JSON (and fingerprints)


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, make in (("causal", s2s_causal), ("labels", s2s_labels), ("plain", s2s_plain)):
        p = tmp_path / f"{name}.json"
        make().save(str(p))
        out[name] = str(p)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**s2s_plain().to_dict(), "causal": 1}))
    out["bad"] = str(bad)
    tie = tmp_path / "tie.json"
    Dataset.make(X=[[[1, 0], [0, 1], [1, 1]]], Y=[1], v=[1, 1], name="tie").save(str(tie))  # u = (1, 1, 2)
    out["tie"] = str(tie)
    return out


def test_cli_svm_satt(files, capsys):
    assert svm_main(["--data", files["causal"], "--kind", "satt", "--json", "--precision", "30"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "optimal" and obj["kind"] == "SAtt-causal" and obj["select"] == [0, 0, 0]
    # causal, γ = (13/4, 5/4, −3): α = 0 for every query; query k ≥ 1 compares token 0 with t = 1..k (margins of the
    # printed decimals: ≥ 1 up to their rounding)
    W = [[Fraction(x) for x in row] for row in obj["solution"]]
    X = s2s_causal().X[0]
    for k in (1, 2):
        for t in range(1, k + 1):
            m = sum((X[0][p] - X[t][p]) * W[p][q] * X[k][q] for p in range(2) for q in range(2))
            assert m >= 1 - Fraction(1, 10**12)
    assert svm_main(["--data", files["labels"], "--kind", "satt-nuc", "--precision", "30"]) == 0
    assert svm_main(["--data", files["plain"], "--kind", "satt", "--select", "1,2,1"]) == 0


@pytest.mark.parametrize("argv,code,msg", [
    (["--kind", "satt", "--select", "1,x"], 2, "--select for satt"),
    (["--kind", "satt", "--select", "1,2,1;0,0,0"], 2, "n×T = 1×3"),
    (["--kind", "satt", "--select", "1,2,7"], 2, "outside 0..2"),
    (["--kind", "satt", "--rank", "1"], 2, "--rank applies to --kind KQ only"),
    (["--kind", "sat"], 2, "unknown SVM kind"),
])
def test_cli_svm_satt_bad_flags(files, capsys, argv, code, msg):
    assert svm_main(["--data", files["plain"]] + argv) == code
    err = capsys.readouterr().err.strip()
    assert msg in err and len(err.splitlines()) == 1


def test_cli_svm_satt_bad_data(files, capsys):
    assert svm_main(["--data", files["bad"], "--kind", "satt"]) == 5
    err = capsys.readouterr().err.strip()
    assert "causal: expected true or false" in err and len(err.splitlines()) == 1
    obj = json.loads(open(files["tie"]).read())
    obj["causal"] = True
    with open(files["tie"], "w") as fh:
        json.dump(obj, fh)
    assert svm_main(["--data", files["tie"], "--kind", "satt"]) == 5  # query 1 sees tokens 0, 1 with u = 1, 1: a tie
    err = capsys.readouterr().err.strip()
    assert "tied" in err and len(err.splitlines()) == 1


def test_cli_flow_attention(files, capsys):
    code = flow_main(["--data", files["causal"], "--param", "W", "--until-norm", "5", "--precision", "20", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    obj = json.loads(out.out)
    assert len(obj["selected"]) == 3 and obj["status"] == "reached"  # nT = 3 query rows
    code = flow_main(["--data", files["plain"], "--param", "W", "--attention", "seq2seq", "--until-norm", "5",
                      "--precision", "20", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert code == 0 and len(obj["selected"]) == 3


@pytest.mark.parametrize("name,argv,code,msg", [
    ("plain", ["--param", "p", "--attention", "causal"], 2, "implemented for W and KQ"),
    ("plain", ["--param", "W", "--attention", "cross"], 2, "unknown --attention"),
    ("causal", ["--param", "W", "--attention", "seq2seq"], 2, "flagged causal"),
    ("causal", ["--param", "W", "--attention", "single"], 2, "flagged causal"),
    ("labels", ["--param", "W", "--attention", "single"], 2, "per-query labels"),
    ("bad", ["--param", "W"], 5, "causal: expected true or false"),
])
def test_cli_flow_attention_errors(files, capsys, name, argv, code, msg):
    assert flow_main(["--data", files[name], "--until-norm", "2", "--precision", "20"] + argv) == code
    err = capsys.readouterr().err.strip()
    assert msg in err and len(err.splitlines()) == 1
