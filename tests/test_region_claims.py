"""Region certificates in claims and on the command line: mmts.lemma6 (i) proven on a box, the certificate written
by --report and re-verified by ``python -m verify recheck`` (accepted; rejected when tampered with; bad files get
the contract's exit codes)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from lemmas.mmts import lemma6
from verify.claims import Outcome
from verify.cli.main import main
from verify.data import mmts as D
from verify.data.dataset import Dataset
from verify.kit.region_inequality import logit_box_radius, prove_on_region
from verify.models.attention import LinearLogitModel, features
from verify.numbers.precision import to_arb, working_precision
from verify.numbers.regions import Margin, decimal_text, rational_below, recheck

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
pytestmark = pytest.mark.xdist_group("region-claims")  # one worker: the shared report run is made once


def run_process(*args):
    """(exit code, stdout, stderr) of a real ``python -m verify *args``."""
    proc = subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_rational_below_is_a_twelve_digit_lower_bound():
    with working_precision(30):
        x = to_arb(Fraction(22, 7))
        q = rational_below(x)
        assert q <= Fraction(22, 7) and Fraction(22, 7) - q < Fraction(1, 10 ** 11)
        assert decimal_text(q) == "3.14285714285"


def test_region_radius_keeps_every_logit_within_one():
    """r = 2^-k ≤ 1, the largest with r·max‖k‖₁ ≤ 1 — computed here from the keys by hand."""
    data = Dataset.make(X=[[[3, 1], [0, "1/2"]]], Y=[1], v=[1, 0], name="keys-3-1")
    assert logit_box_radius(features(data, "p")) == Fraction(1, 4)  # max ‖k‖₁ = 4: 1/4·4 = 1
    small = Dataset.make(X=[[["1/2", 0], [0, "1/3"]]], Y=[1], v=[1, 0], name="small")
    assert logit_box_radius(features(small, "p")) == 1


def test_the_hessian_box_is_proven_on_fig1c_and_its_certificate_rechecks():
    data = D.mmts_fig1c()
    with working_precision(30) as prec:
        out = Outcome()
        r = logit_box_radius(features(data, "p"))
        params = {"loss": "logistic", "radius": str(r)}
        margin = lemma6.hessian_box(data, params)
        item = prove_on_region(out, "h", margin, claim="mmts.lemma6", name="hessian-box", data=data, params=params,
                               dps=prec.dps, region=f"‖p‖∞ ≤ {r}")
        assert item.decide() is True and item.proof.status == "proven" and item.certified
        # the proven margin is consistent with the closed-form engine at the box's centre p = 0
        H = LinearLogitModel.from_dataset(data, "p", "logistic").hessian([to_arb(0)] * len(margin.lower))
        frob2 = sum(H[i, j] ** 2 for i in range(H.nrows()) for j in range(H.ncols()))
        bound = Fraction(margin.statement.split("< ")[1].split(" ≤")[0])
        assert to_arb(bound) ** 2 > frob2
        (cert,) = out.certificates
        assert cert["claim"] == "mmts.lemma6" and cert["margin"]["params"]["dataset"] == data.to_dict()
        assert recheck(cert, lemma6.hessian_box(Dataset.from_dict(cert["margin"]["params"]["dataset"]), params)).ok


def test_a_failing_sufficient_condition_is_undecided_not_a_counterexample():
    """A margin that is only sufficient for the statement (lemma6's Frobenius norm for the spectral one) and fails at
    a point: no counterexample — the item is undecided (INCONCLUSIVE unless other items decide), never VIOLATED.
    The same margin marked equivalent is a certified violation."""
    data = D.mmts_fig1a()
    for equivalent, decision in ((False, None), (True, False)):
        with working_precision(30) as prec:
            out = Outcome()
            margin = Margin(lambda x, o: x[0] - o.const(Fraction(1, 2)), (0,), (1,), equivalent=equivalent)
            item = prove_on_region(out, "g", margin, claim="toy", name="toy", data=data, params={}, dps=prec.dps,
                                   region="[0, 1]")
            assert item.decide() is decision
            assert not out.certificates
    assert "no counterexample" in prove_on_region(Outcome(), "g", Margin(lambda x, o: x[0] - o.const(Fraction(1, 2)),
                                                  (0,), (1,), equivalent=False), claim="toy", name="toy", data=data,
                                                  params={}, dps=30, region="[0, 1]").note


def test_the_claim_reports_the_proven_box_on_a_default():
    data = D.mmts_fig1a()
    kappa = max(sum(abs(x) for x in k) for seq in data.keys() for k in seq)  # max ‖k_it‖₁ over the keys
    r = Fraction(1)
    while r * kappa > 1:
        r /= 2
    with working_precision(30) as prec:
        v = lemma6.evaluate(data, prec, losses=("logistic",), descent_loss=None, search=False)
    items = [e for e in v.evidence if e.proof is not None]
    assert len(items) == 1 and items[0].decide() is True
    assert f"‖p‖∞ ≤ {r}" in items[0].quantity
    assert len(v.certificates) == 1
    with working_precision(30) as prec:
        none = lemma6.evaluate(data, prec, losses=("logistic",), descent_loss=None, search=False, region=None)
    assert not [e for e in none.evidence if e.proof is not None] and not none.certificates


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    """One ``verify mmts.lemma6 --report`` run shared by the tests below."""
    folder = tmp_path_factory.mktemp("rep")
    data = tmp_path_factory.mktemp("data") / "fig1a.json"
    D.mmts_fig1a().save(str(data))
    assert main(["mmts.lemma6", "--data", str(data), "--precision", "20", "--report", str(folder)]) == 0
    return folder


def test_report_writes_the_certificate_and_the_page_links_it(report_dir):
    certs = os.listdir(report_dir / "certificates")
    assert len(certs) == 1 and certs[0].endswith("-hessian-box.json")
    page = (report_dir / "mmts.lemma6.md").read_text()
    assert "## Certificates" in page and f"certificates/{certs[0]}" in page
    js = json.loads((report_dir / "mmts.lemma6.json").read_text())
    assert js["certificates"] == [f"certificates/{certs[0]}"]


def test_recheck_accepts_the_written_certificate(report_dir):
    path = report_dir / "certificates" / os.listdir(report_dir / "certificates")[0]
    code, out, err = run_process("recheck", str(path))  # the user's path: a real process
    assert code == 0, err
    assert "PROVEN" in out


def test_recheck_rejects_a_tampered_certificate(verify, report_dir, tmp_path):
    path = report_dir / "certificates" / os.listdir(report_dir / "certificates")[0]
    cert = json.loads(path.read_text())
    cert["region"]["upper"] = ["1"] * len(cert["region"]["upper"])  # a wider region than the one proven
    bad = tmp_path / "wider.json"
    bad.write_text(json.dumps(cert))
    code, out, err = verify("recheck", str(bad))
    assert code == 1 and "REJECTED" in out
    cert = json.loads(path.read_text())
    cert["leaves"] = []
    (tmp_path / "empty.json").write_text(json.dumps(cert))
    code, out, err = verify("recheck", str(tmp_path / "empty.json"))
    assert code == 1 and "no leaves" in out


@pytest.mark.parametrize("content, code_expected", [
    ("{not json", 5),
    (json.dumps({"format": "something else"}), 5),
    (json.dumps({"format": "attnverify-region-certificate/1", "claim": "mmts.lemma6"}), 5),
    (json.dumps({"format": "attnverify-region-certificate/1", "claim": "mmts.lemma6",
                 "margin": {"name": "no-such-region", "params": {"dataset": D.mmts_fig1a().to_dict()}}}), 5),
])
def test_recheck_bad_files_are_one_line_errors(verify, tmp_path, content, code_expected):
    path = tmp_path / "c.json"
    path.write_text(content)
    code, out, err = verify("recheck", str(path))
    assert code == code_expected
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in err


def test_recheck_without_a_file_is_a_usage_error(verify):
    code, out, err = verify("recheck")
    assert code == 2


# ----- tfsvm.lemma9: W^mm a descent direction on a whole box -------------------------------------------------
def test_descent_margin_is_minus_the_model_engines_directional_derivative():
    """At a rational W the generic margin's value must overlap −⟨∇L(W), d⟩ from the closed-form engine."""
    from verify.data import tfsvm as T
    from verify.kit.region_inequality import descent_margin
    from verify.numbers.intervals import ARB

    data = T.d_t2()
    feats = features(data, "W")
    d = [Fraction(1), Fraction(-2, 3), Fraction(1, 5), Fraction(2)]
    W = [Fraction(1, 3), Fraction(-1, 7), Fraction(2), Fraction(-1, 2)]
    with working_precision(30):
        g = descent_margin(feats, data.scores, "logistic", d, Fraction(1)).g([ARB.const(x) for x in W], ARB)
        grad = LinearLogitModel.from_dataset(data, "W", "logistic").grad([to_arb(x) for x in W])
        expected = -sum((gj * to_arb(dj) for gj, dj in zip(grad, d)), to_arb(0))
    assert g.overlaps(expected) and expected.rad() < 1e-20


def test_lemma9_proves_the_descent_box_on_d_t2_and_the_certificate_rechecks():
    from lemmas.tfsvm import lemma9
    from verify.data import tfsvm as T

    data = T.d_t2()
    with working_precision(30) as prec:
        out = lemma9.evaluate(data, prec)
        (item,) = [e for e in out.evidence if e.proof is not None]
        assert item.decide() is True and item.proof.status == "proven"
        (cert,) = [c for c in out.certificates if "margin" in c]  # beside the exact proof's identity certificates
        margin = lemma9.descent_box(Dataset.from_dict(cert["margin"]["params"]["dataset"]), cert["margin"]["params"])
        assert recheck(cert, margin).ok
    # beside the exact proof on every W (kit.descent_proof) the box corroborates: no coverage text of its own
    assert item.corroborates and out.covers == [] and out.decision().regions == ("every W ∈ ℝ^{d×d}",)
    with working_precision(30) as prec:  # B.1 and B.2 fail on D-NB: no exact proof, the box decides on its own
        out = lemma9.evaluate(T.d_nb(), prec, require_B=False)
    (item,) = [e for e in out.evidence if e.proof is not None]
    assert not item.corroborates and not any(e.proves for e in out.evidence)


def test_an_ascent_direction_is_refuted_on_the_box_with_an_exact_witness():
    """−W^mm is an ascent direction: the margin −⟨∇L(W), −W^mm⟩ = ⟨∇L(W), W^mm⟩ is negative, so the search must stop
    at a rational point certainly violating it; the closed-form engine confirms ⟨∇L, W^mm⟩ < 0 there."""
    from verify.data import tfsvm as T
    from verify.kit.global_descent import tfsvm_hypotheses
    from verify.kit.region_inequality import descent_margin
    from verify.numbers.regions import prove

    data = T.d_t2()
    with working_precision(30) as prec:
        _, _, q, _ = tfsvm_hypotheses(data, "logistic", prec.dps)  # the exact Att-SVM solution W^mm
        res = prove(descent_margin(features(data, "W"), data.scores, "logistic", [-x for x in q], Fraction(1, 8)))
        assert res.status == "violated"
        grad = LinearLogitModel.from_dataset(data, "W", "logistic").grad([to_arb(x) for x in res.witness])
        assert sum((gj * to_arb(x) for gj, x in zip(grad, q)), to_arb(0)) < 0


def test_mmts_lemma4_proves_the_descent_box_and_its_certificate_rechecks():
    """fig1a: the logit-scale box is ‖p‖∞ ≤ 1/2 (max ‖k‖₁ = 2, computed here from the keys); the proven box is it or
    a halving of it, named in the verdict's coverage, and the certificate re-checks with mpmath iv."""
    from lemmas.mmts import lemma4

    data = D.mmts_fig1a()
    kappa = max(sum(abs(x) for x in k) for seq in data.keys() for k in seq)
    r = Fraction(1)
    while r * kappa > 1:
        r /= 2
    with working_precision(30) as prec:
        out = lemma4.evaluate(data, prec, figure=False)
        (item,) = [e for e in out.evidence if e.proof is not None]
        assert item.decide() is True
        proven = Fraction(item.proof.region.split("≤ ")[1])
        assert proven <= r and (r / proven).denominator == 1 and bin(int(r / proven)).count("1") == 1
        (cert,) = [c for c in out.certificates if "margin" in c]  # beside the exact proof's identity certificates
        margin = lemma4.descent_box(Dataset.from_dict(cert["margin"]["params"]["dataset"]), cert["margin"]["params"])
        assert recheck(cert, margin).ok
    assert item.corroborates and out.covers == []  # beside the exact proof on every p (kit.descent_proof)
    with working_precision(30) as prec:  # fig1b fails B: no exact proof, the box is the claim's own coverage
        out = lemma4.evaluate(D.mmts_fig1b(), prec, figure=False, require_B=False)
    (item,) = [e for e in out.evidence if e.proof is not None]
    assert not item.corroborates and f"proven on every p with {item.proof.region}" in out.covers


def test_irgf_lemma42_proves_the_sign_of_28_29_on_a_box_and_its_certificate_rechecks():
    """D-FACE: (28)–(29)'s conclusion ⟨∇_βℒ(β), β_f⟩ < 0 is proven on a box; the margin agrees with the closed-form
    engine at a rational β (−⟨∇ℒ(β), β_f⟩ from ``LinearLogitModel`` with the exponential loss)."""
    from lemmas.irgf import lemma42
    from verify.data.irgf import d_face
    from verify.numbers.intervals import ARB

    data = d_face()
    with working_precision(30) as prec:
        out = lemma42.evaluate(data, prec)
        (item,) = [e for e in out.evidence if e.proof is not None]
        assert item.decide() is True
        (cert,) = out.certificates
        params = cert["margin"]["params"]
        margin = lemma42.descent_box(Dataset.from_dict(params["dataset"]), params)
        assert recheck(cert, margin).ok
        beta = [Fraction(1, 7), Fraction(-1, 3), Fraction(1, 5)][: data.d]
        grad = LinearLogitModel.from_dataset(data, "diag", "exponential").grad([to_arb(x) for x in beta])
        expected = -sum((g * to_arb(Fraction(b)) for g, b in zip(grad, params["beta_f"])), to_arb(0))
        assert margin.g([ARB.const(x) for x in beta], ARB).overlaps(expected)


def test_a_ladder_with_no_region_decided_leaves_an_informative_item():
    """|x − 1/3| ≥ 0 touches 0 inside every box [0, r] with r ≥ 1/3: never decided there, so a ladder of such boxes
    ends with an informative item (no certificate, no decision) — the claim's other items decide."""
    from verify.kit.region_inequality import prove_on_largest

    def build(r):
        m = Margin(lambda x, o: o.abs(x[0] - o.const(Fraction(1, 3))), (0,), (r,), relation=">=")
        return f"toy on [0, {r}]", m, {}, f"[0, {r}]"

    with working_precision(30) as prec:
        out = Outcome()
        item = prove_on_largest(out, [Fraction(1), Fraction(1, 2)], build, claim="toy", name="toy", data=D.mmts_fig1a(),
                                dps=prec.dps, max_boxes=20)
    assert item.informative and item.decide() is None and item.proof is None
    assert "[0, 1]" in item.quantity and "[0, 1/2]" in item.quantity and not out.certificates
    assert out.evidence == [item]
    with working_precision(30) as prec:  # the next rung [0, 1/4] stays clear of 1/3: proven there
        out = Outcome()
        item = prove_on_largest(out, [Fraction(1), Fraction(1, 4)], build, claim="toy", name="toy",
                                data=D.mmts_fig1a(), dps=prec.dps, max_boxes=20)
    assert item.decide() is True and "[0, 1]" in item.note and len(out.certificates) == 1
