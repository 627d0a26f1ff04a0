"""Output streams (issue 22): every character goes through one output function (cli.common.OutputStream).

Classes: a stream that cannot carry the symbols (non-UTF-8 terminal) gets ASCII spellings and the
verdict is printed; a stdout or stderr that is closed, full or whose reader went away never costs the
verdict's exit code, never a traceback, and stderr's lines never land on stdout; ``--version`` and
``--help`` work.
"""
import json
import os
import subprocess
import sys

import pytest
from cli_helpers import run

from verify.data.outputs import ascii_spelling, for_encoding

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# mmts Fig. 1(b)'s tokens with plain keys (K = X): n = 1, T = 3; the Key Lemma is a theorem, so HOLDS
DATA = {"X": [[["-0.1", 1, 1], [1, 0, "0.9"], [0, 0, 0]]], "Y": [1], "v": [0, 0, 1]}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("streams") / "d.json"
    path.write_text(json.dumps(DATA))
    return str(path)


def shell(script: str, env=None, timeout=240):
    """Run a bash line with ``verify`` meaning ``python -m verify``; (exit code of verify, stdout, stderr)."""
    full = f"verify() {{ {sys.executable} -m verify \"$@\"; }}; {script}; echo \"rc=$?\" >&3"
    r = subprocess.run(["bash", "-c", f"exec 3>&2; {full}"], capture_output=True, cwd=ROOT, timeout=timeout,
                       env=dict(os.environ, **(env or {})), check=False)
    err = r.stderr.decode("utf-8", "replace")
    rc_lines = [line for line in err.splitlines() if line.startswith("rc=")]
    assert rc_lines, err
    err_wo = "\n".join(line for line in err.splitlines() if not line.startswith("rc="))
    return int(rc_lines[-1][3:]), r.stdout, err_wo


def lines(text: str) -> list:
    return [line for line in text.splitlines() if line.strip()]


# ----- class: a terminal that does not speak UTF-8 -------------------------------------------------
def test_ascii_spellings_are_readable():
    """Each spelling written out by hand: superscripts become ^…, subscripts _…, symbols words."""
    assert ascii_spelling("‖p‖ ≤ 10⁴") == "||p|| <= 10^4"
    assert ascii_spelling("10⁻¹⁰⁰ and γ₁₂") == "10^-100 and gamma_12"
    assert ascii_spelling("HOLDS — certified; L − L⋆ ≥ 0") == "HOLDS -- certified; L - L* >= 0"
    assert ascii_spelling("∇L(ψ) → Γ, Wᵀ") == "grad L(psi) -> Gamma, W^T"
    assert ascii_spelling("plain ASCII stays") == "plain ASCII stays"
    assert all(ord(c) < 128 for c in ascii_spelling("✅ 𝒲 ℝ ⊙ ½ é ∑ ☃"))  # nothing is left unencodable


def test_a_stream_keeps_what_its_encoding_can_carry():
    assert for_encoding("‖p‖ × 2 é", "latin-1") == "||p|| × 2 é"  # × and é exist in latin-1
    assert for_encoding("‖p‖ × 2", "utf-8") == "‖p‖ × 2"
    assert for_encoding("‖p‖", "no-such-codec") == "||p||"


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                 {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}])
def test_the_verdict_survives_a_non_utf8_terminal(env, data):
    """It used to be 'internal error (UnicodeEncodeError)', exit 3: the HOLDS was lost."""
    code, out, err = shell(f"verify mmts.lemma3 --data {data} --precision 20", env=env)
    assert code == 0, err
    text = out.decode("latin-1")
    assert text.startswith("mmts.lemma3") and "HOLDS -- proven on every s in the open simplex" in text and "||p||" in text
    assert err.strip() == "" and out.decode("latin-1").encode("latin-1") == out


def test_errors_and_notes_are_spelled_too(data):
    """A bare id's note and an error line go through the same function (stderr)."""
    code, _out, err = shell(f"verify lemma3 --data {data} --precision 5", env={"PYTHONIOENCODING": "ascii"})
    assert code == 2 and "UnicodeEncodeError" not in err and "\\u" not in err
    assert all(ord(c) < 128 for c in err) and "precision" in err


# ----- class: a closed, full or vanished stream ---------------------------------------------------
def test_closed_stderr_never_lands_on_stdout(data):
    """``2>&-``: Python's print(file=None) writes to stdout; the bare id's note broke the JSON."""
    code, out, _err = shell(f"verify lemma3 --data {data} --precision 20 --json 2>&-")
    assert code == 0
    assert json.loads(out)["verdict"] == "HOLDS"  # nothing but the JSON on stdout
    code, out, _err = shell(f"verify mmts.lemma3 --data {data} --precision 3 2>&-")
    assert code == 2 and out == b""  # the error line is dropped, never printed on stdout


@pytest.mark.parametrize("argv,code,meaning", [
    ("mmts.lemma3 --data {data} --precision 20", 0, "HOLDS"),
    ("svm --data {data} --kind p --json", 0, "solved"),
    ("list", 0, "HOLDS / solved"),
])
def test_closed_stdout_keeps_the_verdict_in_the_exit_code(argv, code, meaning, data):
    """``>&-``: a traceback and exit 120 before; now one line on stderr and the result's exit code."""
    rc, out, err = shell(f"verify {argv.format(data=data)} >&-")
    assert rc == code and out == b""
    assert lines(err) == [f"verify: stdout is closed: nothing was printed; exit code {code} is the result's "
                          f"(HOLDS / solved)"], err
    assert meaning in err


def test_a_full_disk_says_the_output_could_not_be_written(data):
    """``> /dev/full`` said 'internal error … nothing was decided' (exit 3); it was decided."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    rc, _out, err = shell(f"verify mmts.lemma3 --data {data} --precision 20 > /dev/full")
    assert rc == 0 and "Traceback" not in err and "Exception ignored" not in err
    assert lines(err) == ["verify: the output could not be written to stdout (No space left on device); it is "
                          "incomplete; exit code 0 is the result's (HOLDS / solved)"]


def test_a_full_stderr_costs_nothing(data):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    rc, out, _err = shell(f"verify lemma3 --data {data} --precision 20 2>/dev/full")
    assert rc == 0 and out.decode().startswith("mmts.lemma3") and b"HOLDS" in out


def test_a_reader_that_goes_away_is_quiet(data):
    """``| head -1``: Python tools exit quietly; the exit code is still the verdict's."""
    script = (f"{sys.executable} -m verify mmts.lemma3 --data {data} --precision 20 | true; "  # no reader at all
              "echo rc=${PIPESTATUS[0]} >&2; "
              f"{sys.executable} -m verify list | head -c 1 >/dev/null; echo rc=${{PIPESTATUS[0]}} >&2")
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
                       env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert lines(r.stderr) == ["rc=0", "rc=0"], r.stderr


def test_in_process_broken_pipe_is_quiet_and_keeps_the_code(data, monkeypatch, capsys):
    import io

    class Gone(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", Gone())
    from verify.cli.main import main

    assert main(["mmts.lemma3", "--data", data, "--precision", "20"]) == 0
    assert capsys.readouterr().err == ""


# ----- --version and --help ---------------------------------------------------------------------
def test_version(capsys):
    import verify

    for flag in ("--version", "-V"):
        code, out, err = run([flag], capsys)
        assert code == 0 and err == "" and out.startswith(f"attnverify {verify.__version__} (Python ")


def test_help_lists_the_verbs_the_exit_codes_and_the_docs(capsys):
    from verify.cli.main import VERBS

    code, out, err = run(["--help"], capsys)
    assert code == 0 and err == ""
    verb_lines = {line.split()[0] for line in out.splitlines() if line.startswith("  ") and line.split()}
    assert set(VERBS) | {"<claim>"} <= verb_lines
    for code_text in ("0 HOLDS", "1 VIOLATED", "2 usage", "3 INCONCLUSIVE", "4 NOT APPLICABLE", "5 invalid", "130",
                      "143"):
        assert code_text in out
    assert "docs/contract.md" in out and os.path.exists(os.path.join(ROOT, "docs", "contract.md"))
    examples = [w for w in out.split() if w.startswith("examples/")]
    assert examples and all(os.path.exists(os.path.join(ROOT, w.rstrip(")"))) for w in examples)


# ----- all: which claim is running ---------------------------------------------------------------
class _Bar:
    def __init__(self):
        self.shown = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def set_postfix_str(self, text, refresh=True):
        self.shown.append(text)

    def update(self, k=1):
        pass

    def write(self, text, file=None):
        print(text, file=file)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_all_shows_the_claim_it_is_on(jobs, monkeypatch, capsys):
    """A long claim ran behind a bare count; the bar now names the claims being checked (and, in one
    process, the claim's own progress after its name)."""
    from verify.claims import REGISTRY

    bar = _Bar()
    ids = ["mmts.lemma3", "tfsvm.lemma7"]  # two quick claims, in this order
    claims = [REGISTRY.resolve(i)[0] for i in ids]
    monkeypatch.setattr(REGISTRY, "all", lambda paper=None: claims)
    monkeypatch.setattr("verify.cli.all.progress", lambda total, desc, quiet: bar)
    code, out, err = run(["all", "--jobs", jobs, "--precision", "20"], capsys)
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] == ids
    named = [text for text in bar.shown if text.startswith("running ")]
    assert any("mmts.lemma3" in t for t in named) and any("tfsvm.lemma7" in t for t in named)
    if jobs == "1":
        first = [t for t in named if "tfsvm.lemma7" in t][0]
        assert bar.shown.index(first) > max(k for k, t in enumerate(bar.shown) if t.startswith("running mmts.lemma3"))
        assert any(t.startswith("running mmts.lemma3 — ") and "probe points" in t for t in named)


def test_a_closed_stdout_adds_nothing_to_an_error(tmp_path):
    """An error already is the one line on stderr: a closed stdout does not add a second one."""
    rc, out, err = shell(f"verify mmts.lemma3 --data {tmp_path / 'missing.json'} >&-")
    assert rc == 5 and out == b"" and len(lines(err)) == 1 and "no such dataset file" in err
