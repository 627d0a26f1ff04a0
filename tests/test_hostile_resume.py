"""Resume files (issue 14): validated like datasets, bound to their dataset by a fingerprint, resumed at
the saved precision correctly; flow statuses that are no answer say so; NaN is never a result."""
import json
from pathlib import Path

import pytest
from cli_helpers import one_line
from cli_helpers import run as run_cli
from flint import arb

from verify.cli.flow import main as flow_main
from verify.data.dataset import Dataset
from verify.data.mmts import mmts_fig1a, mmts_fig1b
from verify.dynamics import gradient_flow
from verify.dynamics.trajectory import Trajectory
from verify.errors import DataError
from verify.numbers.precision import working_precision


def run(argv, capsys):
    return run_cli(argv, capsys, entry=flow_main)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """fig1a's p-flow saved at ‖p‖ = 30, at the default 50 digits (the precision where resume broke)."""
    folder = tmp_path_factory.mktemp("resume")
    data = folder / "d.json"
    mmts_fig1a().save(str(data))
    traj = folder / "t.json"
    gradient_flow(mmts_fig1a(), "p", until_norm=30, dps=50, svm=False).save(str(traj))
    return {"data": str(data), "traj": str(traj), "folder": folder}


# ----- class: resuming at the saved precision ---------------------------------------------------------
@pytest.mark.parametrize("dps", [50, 100])
def test_resume_at_the_saved_precision_continues_the_same_run(dps, tmp_path):
    """Saved at 50 (or 100) digits and resumed: the run reaches the target and agrees with one
    uninterrupted run. The step size used to be parsed at 53 bits, a ball too wide for the Newton
    solves: the resumed run 'stalled' at the saved norm (exit 0)."""
    ds = mmts_fig1a()
    full = gradient_flow(ds, "p", until_norm=60, dps=dps, svm=False)
    path = tmp_path / "t.json"
    gradient_flow(ds, "p", until_norm=20, dps=dps, svm=False).save(str(path))
    cont = gradient_flow(None, until_norm=60, dps=dps, svm=False, resume=Trajectory.load(str(path)))
    assert cont.status == "reached", cont.notes
    with working_precision(dps):
        assert abs(cont.final.norm - 60) < arb(10) ** -(dps - 6)
        assert abs(cont.final.log_t - full.final.log_t) < arb(10) ** -(dps - 6)
        assert max(abs(a - b) for a, b in zip(cont.psi, full.psi)) < arb(10) ** -(dps - 6)


def test_loaded_numbers_keep_their_saved_digits(saved):
    traj = Trajectory.load(saved["traj"])
    raw = json.loads(Path(saved["traj"]).read_text())["state"]["h"]
    assert traj.state["h"].rad() < arb(10) ** -55  # parsed at the saved 50 + 10 digits, not 53 bits
    with working_precision(50):
        assert abs(traj.state_at("h") - arb(raw)) < arb(10) ** -55


# ----- class: a resume file is bound to its dataset -------------------------------------------------
def test_resume_on_another_dataset_is_refused(saved, tmp_path, capsys):
    other = tmp_path / "other.json"
    mmts_fig1b().save(str(other))
    code, out, err = run(["--resume", saved["traj"], "--data", str(other), "--until-norm", "40", "--no-svm"], capsys)
    assert code == 5 and "not the one this trajectory was computed on" in one_line(err) and out == ""
    with pytest.raises(DataError):
        Trajectory.load(saved["traj"]).bind(mmts_fig1b())


def test_resume_on_the_same_dataset_under_another_name_is_accepted(saved, tmp_path, capsys):
    same = tmp_path / "renamed.json"
    mmts_fig1a().with_name("renamed").save(str(same))
    code, out, err = run(["--resume", saved["traj"], "--data", str(same), "--until-norm", "31", "--no-svm",
                          "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["norm"] == "31"


def test_fingerprint_is_the_exact_content():
    a, b = mmts_fig1a(), mmts_fig1a().with_name("other name")
    assert a.fingerprint() == b.fingerprint()
    moved = a.replace(v=[1, 0, "1/1000000000000"])
    assert moved.fingerprint() != a.fingerprint()


def test_conflicting_flags_with_resume(saved, capsys):
    for extra in (["--param", "W"], ["--loss", "exponential"], ["--init", "zero"]):
        code, _out, err = run(["--resume", saved["traj"], "--until-norm", "40"] + extra, capsys)
        assert code == 2 and one_line(err).startswith("verify: error:")


# ----- class: malformed resume files, validated like datasets ----------------------------------------
def _edit(obj, where):
    st, meta = obj["state"], obj["meta"]
    return {
        "state nan": lambda: st.update(psi=["nan"] * len(st["psi"])),
        "state inf": lambda: st.update(u="inf"),
        "short state": lambda: st.update(psi=st["psi"][:1]),
        "state not numbers": lambda: st.update(psi=[[1]] * len(st["psi"])),
        "huge exponent digits": lambda: st.update(s="1e" + "9" * 30),
        "step size zero": lambda: st.update(h="0"),
        "precision not numeric": lambda: meta.update(precision="abc"),
        "precision out of range": lambda: meta.update(precision=14),
        "missing param": lambda: meta.pop("param"),
        "unknown loss": lambda: meta.update(loss="hinge"),
        "missing state": lambda: obj.pop("state"),
        "records not a list": lambda: obj.update(records={}),
        "record missing norm": lambda: obj["records"][0].pop("norm"),
        "record selected not indices": lambda: obj["records"][0].update(selected=["a"]),
        "dataset edited": lambda: meta["dataset"]["v"].__setitem__(0, 7),
        "dataset invalid": lambda: meta["dataset"].update(Y=[0]),
        "format": lambda: obj.update(format="other/1"),
    }[where]


@pytest.mark.parametrize("where", ["state nan", "state inf", "short state", "state not numbers",
                                   "huge exponent digits", "step size zero", "precision not numeric",
                                   "precision out of range", "missing param", "unknown loss", "missing state",
                                   "records not a list", "record missing norm", "record selected not indices",
                                   "dataset edited", "dataset invalid", "format"])
def test_malformed_resume_files_are_one_line_exit_5(where, saved, tmp_path, capsys):
    obj = json.loads(Path(saved["traj"]).read_text())
    _edit(obj, where)()
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(obj))
    code, out, err = run(["--resume", str(path), "--until-norm", "40", "--no-svm"], capsys)
    assert code == 5, (where, err)
    assert one_line(err).startswith(f"verify: error: {path}") and out == ""


def test_a_resume_file_of_another_size_is_refused_by_the_integrator(saved):
    """A consistent file whose state does not fit the parameterisation (psi and psi0 both cut)."""
    obj = json.loads(Path(saved["traj"]).read_text())
    obj["state"]["psi"] = obj["state"]["psi"][:2]
    obj["meta"]["psi0"] = obj["meta"]["psi0"][:2]
    with pytest.raises(DataError, match="needs 3"):
        gradient_flow(None, until_norm=40, dps=50, svm=False, resume=Trajectory.from_json(obj))


# ----- class: statuses that are no answer, and NaN never a result -------------------------------------
def _dataset(tmp_path, **entries):
    obj = {"X": [[[1, 1, 1], [1, 0, "0.9"], [0, 0, "0.9"]]], "Y": [1], "v": [0, 0, 1],
           "K": [[["-0.1", 1, 0], [1, 0, 0], [0, 0, 0]]]}
    for key, (index, value) in entries.items():
        obj[key][0][index[0]][index[1]] = value
    path = tmp_path / "x.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_a_stalled_integrator_is_no_answer_exit_3(tmp_path, capsys):
    """Keys of size 10³⁰: no step size keeps the stage equations solvable; 'stalled' used to exit 0."""
    code, out, err = run(["--data", _dataset(tmp_path, K=((0, 0), "1e30")), "--until-norm", "5",
                          "--precision", "20", "--json"], capsys)
    assert code == 3 and json.loads(out)["status"] == "stalled"
    assert one_line(err).startswith("verify: no answer")


def test_a_figure_that_is_not_a_number_is_never_printed(tmp_path, capsys):
    """A score of 10¹⁰⁰ at 50 digits: ℓ'(γ) is a ball of unbounded width there. It used to print
    'stationary' with loss_gap "nan" and exit 0."""
    code, out, err = run(["--data", _dataset(tmp_path, X=((2, 2), "1e100")), "--until-norm", "5", "--json"], capsys)
    assert code == 3 and out == "" and "not a finite number" in one_line(err)


def test_far_out_slow_decay_is_not_a_stationary_point():
    """Steps collapsing at ‖p‖ ≈ 100, where ‖∇L‖ ~ e^{−100} without being zero: _stalled must not call
    it a stationary point (the resume bug produced exactly this situation)."""
    from verify.dynamics.flow import ArcLength, _stalled
    from verify.dynamics.observe import Observer
    from verify.dynamics.parameterization import make_parameterization

    ds = mmts_fig1a()
    run_ = gradient_flow(ds, "p", until_norm=100, dps=50, svm=False)
    with working_precision(50) as prec:
        par = make_parameterization(ds, "p")
        traj = Trajectory(dict(run_.meta))
        y = [arb(x) for x in run_.psi] + [run_.state["u"]]
        _stalled(traj, ArcLength(par), Observer(par, 50, False, [arb(0)] * 3), y, arb(0), prec)
    assert traj.status == "stalled", traj.notes


def test_a_genuine_stationary_start_is_still_reported(tmp_path, capsys):
    """mmts-infeasible-B: ∇L(0) = 0 exactly, so the flow does not move (status stationary, exit 0)."""
    from verify.data.mmts import mmts_infeasible_B

    path = tmp_path / "b.json"
    mmts_infeasible_B().save(str(path))
    code, out, err = run(["--data", str(path), "--until-norm", "5", "--precision", "20", "--json"], capsys)
    assert code == 0 and json.loads(out)["status"] == "stationary" and "nan" not in out.lower(), err


def test_saved_trajectories_carry_the_fingerprint(saved):
    obj = json.loads(Path(saved["traj"]).read_text())
    assert obj["meta"]["dataset_sha256"] == Dataset.from_dict(obj["meta"]["dataset"]).fingerprint()


def test_kq_flow_to_a_set_of_stationary_points_is_reported_as_such(tmp_path, capsys):
    """Two copies of one sequence with opposite labels, tokens ±e₁: ∇L(0) = 0 for p, W and diag (the
    stationary start), and L = ℓ(f) + ℓ(−f) is least where the output f is 0 — a whole set of (K, Q),
    since K Qᵀ only enters through one linear form. The KQ flow from its random start converges into
    that set, where the Hessian is singular. It used to say "stalled" (exit 0); Newton's polish now
    takes the minimum-norm step and reports the stationary point."""
    from verify.dynamics.parameterization import make_parameterization
    from verify.models.attention import norm2

    data = Dataset.make(X=[[[1, 0], [-1, 0]], [[1, 0], [-1, 0]]], Y=[1, -1], v=[1, 0])
    path = tmp_path / "inf.json"
    data.save(str(path))
    for param in ("p", "W", "diag"):
        code, out, err = run(["--data", str(path), "--param", param, "--until-norm", "10", "--precision", "20",
                              "--json"], capsys)
        assert code == 0 and json.loads(out)["status"] == "stationary", (param, err)
    traj = tmp_path / "t.json"
    code, out, err = run(["--data", str(path), "--param", "KQ", "--until-norm", "10", "--precision", "20", "--json",
                          "--no-svm", "--save", str(traj)], capsys)
    obj = json.loads(out)
    assert code == 0 and obj["status"] == "stationary" and "singular" in obj["notes"][0], err
    saved = Trajectory.load(str(traj))
    with working_precision(20):  # independently: the gradient at the reported point vanishes
        psi = saved.state_at("psi")
        assert norm2(make_parameterization(data, "KQ").grad(psi)) < arb(10) ** -10
