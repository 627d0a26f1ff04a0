"""tfsvm.cor1 (mutation tests): what evaluate hands the global paths, the nuclear SAtt-SVM and the face test, and
what it reads back — with the paths replaced by a recorder (``global_path`` is the kit's, tested there) whose points
carry chosen θ and ‖·‖, and the distances by a stand-in returning chosen values per norm, so every test is fast.

Pinned: the options at their defaults (factors R₀·(1, 3, 10, 30, 100), both norms, target "svm", starts 2, seed 0,
the figure drawn) and passed through (radii as strings for both norms, norms alone, target "transpose" transposing
θ for both norms, starts, seed, figure=False); R₀ per norm — s2s_labels: 2.55 (Frobenius, ‖W^mm‖_F = √440/25 times
ln(B·T), B·T = 9√85/4 > B·T/c as c > 1) and 2.67 (nuclear, the certified C⋆ = 0.87727 times ln(B·T)) as the module
docstring states; s2s_causal: 7.97 for both (‖W^mm‖ = C⋆ = 2.69979, B·T = 3√650/4) —
the nuclear SAtt-SVM solved at the working dps with the dataset's causal flag, norm "nuc", no uniqueness check; an
unsolved one fails its requirement with the solver's notes and stops the nuclear part; the face note (True / False /
None); the budget count ‖K̄Q̄ᵀ‖_⋆ = R within R·10⁻ᵈᵖˢ (closed); the Evidence (value at the largest R, the regime
requirement from R₀, residual against 10⁻ᵈᵖˢ for F and rules.SDP_DISTANCE_RESOLUTION for the SDP distance); range,
cover, figure; ``check`` turning the radii into exact rational strings."""
from fractions import Fraction as F
from types import SimpleNamespace

from claim_helpers import lower_end, only_item

import lemmas.tfsvm.cor1 as C
from verify.claims import rules
from verify.data.tfsvm_seq2seq import s2s_causal, s2s_labels
from verify.numbers.precision import to_arb, working_precision

RS = (F(2), F(8), F(32), F(128), F(512))  # powers of 2: R·10⁻ᵈᵖˢ is an exact scaling of the ball
THETA = [F(1), F(2), F(3), F(4)]
F_LABEL = "(⋄ = F) dist(W̄_R/R, W^mm/‖W^mm‖_F) → 0 (value at the largest R)"
NUC_LABEL = "(⋄ = ⋆) dist(W̄_R/‖W̄_R‖_⋆, 𝒲^mm_⋆/C⋆) → 0 (float SDP over the certified face) (value at the largest R)"
NUC_REQ = "SAtt-SVM⋆ (nuclear) solved with a certified value"
LABELS_F = ("51/20", "153/20", "51/2", "153/2", "255")
LABELS_NUC = ("267/100", "801/100", "267/10", "801/10", "267")



class Off:
    """A stand-in ‖K̄Q̄ᵀ‖_⋆ whose distance |‖K̄Q̄ᵀ‖_⋆ − R| is the given ball exactly (no rounding at the working
    precision, which would widen it)."""

    def __init__(self, diff):
        self.diff = diff

    def __sub__(self, R):
        return self

    def __abs__(self):
        return self.diff


class FakePath:
    """Stands in for ``global_path``: records (param, radii, dps, starts, seed); its points sit at RS with θ = THETA
    and ‖·‖ = norms(R, k) (R by default)."""

    def __init__(self, norms=None):
        self.norms, self.calls, self.seen = norms or (lambda R, k: R), [], []

    def __call__(self, out, data, param, radii, prec, starts, seed):
        self.calls.append((param, tuple(radii), prec.dps, starts, seed))
        self.seen.append((out, data))
        pts = [SimpleNamespace(R=to_arb(r), theta=list(THETA), norm=self.norms(to_arb(r), k)) for k, r in enumerate(RS)]
        return None, SimpleNamespace(points=pts)


def _run(monkeypatch, data=None, kq_norms=None, unique="real", solver=None, **options):
    """evaluate at 30 digits with the paths faked; distances: 1/R² (F), 10⁻³·10^(−k) … (nuclear, last 10⁻⁸)."""
    path, log = FakePath(kq_norms), {"dist": [], "svm": [], "unique": []}
    real_svm, real_unique = C.satt_svm, C.nuclear_unique

    def dist(thetas, res, dps, nuclear):
        log["dist"].append((thetas, res, dps, nuclear))
        if nuclear:
            return [to_arb(F(1, 10**k)) for k in (3, 4, 5, 7, 8)]
        return [1 / to_arb(r) ** 2 for r in RS]

    def svm(*a, **k):
        log["svm"].append((a, k))
        return (solver or real_svm)(*a, **k)

    def face(*a):
        log["unique"].append(a)
        return real_unique(*a) if unique == "real" else unique

    monkeypatch.setattr(C, "global_path", path)
    monkeypatch.setattr(C, "distance_series", dist)
    monkeypatch.setattr(C, "satt_svm", svm)
    monkeypatch.setattr(C, "nuclear_unique", face)
    with working_precision(30) as prec:
        out = C.evaluate(data or s2s_labels(), prec, **options)
    log["path"] = path.calls
    assert all(o is out and d is (data or d) for o, d in path.seen)  # the outcome filled and the dataset
    log["path_data"] = [d for _, d in path.seen]
    return out, log



def test_defaults_on_s2s_labels(monkeypatch):
    """Both norms at the defaults; the (K,Q) norms R, R + (the exact lower end of R·10⁻³⁰: the closed bound), R/2,
    3R/2, R: 3 of 5 active."""
    with working_precision(30) as prec:
        bump = lower_end(to_arb(RS[1]) * prec.tolerance)
    norms = lambda R, k: [R, Off(bump), R / 2, 3 * R / 2, R][k]  # noqa: E731
    out, log = _run(monkeypatch, kq_norms=norms)
    assert log["path"] == [("W", LABELS_F, 30, 2, 0), ("KQ", LABELS_NUC, 30, 2, 0)]
    assert log["dist"][0][2:] == (30, False) and log["dist"][1][2:] == (30, True)
    assert list(log["dist"][0][1].solution) == [F(14, 25), F(6, 25), F(-12, 25), F(-8, 25)]
    nuc = log["dist"][1][1]
    assert nuc.status == "optimal" and log["svm"] == [((s2s_labels(), None, False),
                                                       {"dps": 30, "norm": "nuc", "check_unique": False})]
    assert log["unique"] == [(nuc.problem, nuc.duals, 30)]
    assert all(d[0] == [THETA] * 5 for d in log["dist"])
    f, n = only_item(out, F_LABEL, exact=True), only_item(out, NUC_LABEL, exact=True)
    assert f.rule.holds is True and f.residual is False and f.enclosed is False
    assert n.rule.holds is True and n.residual is True and abs(float(n.value) - 1e-8) < 1e-20
    assert abs(float(f.value.mid()) - 1 / 512 ** 2) < 1e-18  # 1/R² at the largest R
    regime = [r for r in out.requirements if "asymptotic regime" in r.name]
    assert len(regime) == 2 and all(r.met for r in regime) and "R₀ = 2.55" in regime[0].detail
    assert "R₀ = 2.67" in regime[1].detail
    solved = [r for r in out.requirements if r.name == NUC_REQ]
    assert len(solved) == 1 and solved[0].met is True and solved[0].detail.startswith("C⋆ ∈ [0.8772684")
    assert [d.name for d in log["path_data"]] == ["tfsvm-s2s-labels"] * 2
    assert "𝒲^mm_⋆ is a single point" in out.notes
    assert "(⋄ = ⋆) ‖K̄Q̄ᵀ‖_⋆ = R (budget active) at 3 of 5 radii" in out.notes
    assert out.range == "⋄ = F: R₀ = 2.55 ≤ R ≤ 255; ⋄ = ⋆: R₀ = 2.67 ≤ R ≤ 267"
    assert out.covers == ["⋄ ∈ {Frobenius, nuclear}, m = d"]
    assert len(out.figures) == 1 and len(out.figures[0].series) == 2
    assert out.decision().verdict == "HOLDS"


def test_options_pass_through(monkeypatch):
    """radii (as given, strings) for both norms; starts and seed; figure=False draws nothing; target "transpose"
    hands vec(Wᵀ) = (1, 3, 2, 4) of θ = (1, 2, 3, 4) (d = 2) to both distances and names the transpose."""
    out, log = _run(monkeypatch, radii=(2, "6", F(20), "60", 200), starts=3, seed=7, figure=False,
                    target="transpose")
    given = ("2", "6", "20", "60", "200")
    assert log["path"] == [("W", given, 30, 3, 7), ("KQ", given, 30, 3, 7)]
    assert all(d[0] == [[F(1), F(3), F(2), F(4)]] * 5 for d in log["dist"])
    assert all("Wᵀ (transposed: the FALSE CASE)" in e.quantity for e in out.evidence if "dist(" in e.quantity)
    assert out.figures == [] and out.range == "⋄ = F: R₀ = 2.55 ≤ R ≤ 200; ⋄ = ⋆: R₀ = 2.67 ≤ R ≤ 200"


def test_one_norm_at_a_time(monkeypatch):
    """norms ("F",): the W path only; ("nuclear",): the (K,Q) path only (and the nuclear SVM only then); (): no path,
    no figure."""
    out, log = _run(monkeypatch, norms=("F",))
    assert [c[0] for c in log["path"]] == ["W"] and log["svm"] == [] and out.covers == ["⋄ ∈ {Frobenius}, m = d"]
    out, log = _run(monkeypatch, norms=("nuclear",))
    assert [c[0] for c in log["path"]] == ["KQ"] and len(log["svm"]) == 1 and out.covers == ["⋄ ∈ {nuclear}, m = d"]
    assert out.range == "⋄ = ⋆: R₀ = 2.67 ≤ R ≤ 267"
    out, log = _run(monkeypatch, norms=())
    assert log["path"] == [] and out.figures == [] and out.covers == ["⋄ ∈ {}, m = d"]


def test_causal_dataset(monkeypatch):
    """s2s_causal: the nuclear SVM with causal masking (R₀ = 7.97 for both norms), the range marked causal."""
    out, log = _run(monkeypatch, data=s2s_causal())
    assert log["svm"][0][0] == (s2s_causal(), None, True)
    assert out.range == "⋄ = F: R₀ = 7.97 ≤ R ≤ 797; ⋄ = ⋆: R₀ = 7.97 ≤ R ≤ 797 (causal)"


def test_face_note(monkeypatch):
    """The face test's answer reaches the note: False — not a single point; None — undecided."""
    out, _ = _run(monkeypatch, unique=False)
    assert "𝒲^mm_⋆ is not a single point (distance to the set)" in out.notes
    out, _ = _run(monkeypatch, unique=None)
    assert "𝒲^mm_⋆ is of undecided size" in out.notes
    out2, _ = _run(monkeypatch, unique=True)
    assert "𝒲^mm_⋆ is a single point" in out2.notes


def test_unsolved_nuclear_svm_stops(monkeypatch):
    """An Att-SVM⋆ without a certified value: its requirement fails with the solver's notes and the nuclear part
    stops there (no face test, no (K,Q) path, no range)."""
    def solver(*a, **k):
        return SimpleNamespace(status="infeasible", notes=["no certificate", "dual unbounded"])

    out, log = _run(monkeypatch, solver=solver)
    req = [r for r in out.requirements if r.name == NUC_REQ]
    assert len(req) == 1 and req[0].met is False and req[0].detail == "no certificate; dual unbounded"
    assert [c[0] for c in log["path"]] == ["W"] and log["unique"] == [] and out.range is None
    assert out.decision().verdict == "INCONCLUSIVE"


def test_check_passes_exact_radii(monkeypatch):
    """check: radii as exact rationals written as strings (2.5 → "5/2"), None kept as None."""
    calls = []
    monkeypatch.setattr(C, "evaluate", lambda data, prec, radii=None: calls.append((data, prec, radii)) or "out")
    assert C.check("data", "prec", radii=[1, "3/2", 2.5]) == "out"
    assert C.check("data", "prec") == "out"
    assert calls == [("data", "prec", ("1", "3/2", "5/2")), ("data", "prec", None)]
    assert rules.SDP_DISTANCE_RESOLUTION == F(1, 10**6)


def test_factors_scale_both_ladders(monkeypatch):
    """factors given: R₀·factors for each norm — s2s_labels' R₀ = 255/100 (F) and 267/100 (⋆) times (1, 2)."""
    _, log = _run(monkeypatch, factors=("1", "2"))
    assert log["path"] == [("W", ("51/20", "51/10"), 30, 2, 0), ("KQ", ("267/100", "267/50"), 30, 2, 0)]
