"""Fixtures shared by the CLI tests."""
import json

import pytest
from cli_helpers import GOOD
from cli_helpers import run as run_in_process


@pytest.fixture
def verify(capsys):
    """``verify(*argv)`` → (exit code, stdout, stderr) of ``main(argv)`` in this process: what ``python -m verify
    *argv`` exits with and prints, without a process's start-up (a test of the process itself runs one)."""
    return lambda *args: run_in_process(list(args), capsys)


@pytest.fixture
def no_work(monkeypatch):
    """Fails the test if a claim, a flow or a search starts: bad flags and unusable destinations must be
    refused before any work (this replaces timing the refusal)."""
    def refuse(*a, **k):
        raise AssertionError("the work started before the input was checked")

    monkeypatch.setattr("verify.claims.run_claim", refuse)
    monkeypatch.setattr("verify.dynamics.flow.gradient_flow", refuse)
    monkeypatch.setattr("verify.search.hunt.hunt", refuse)


@pytest.fixture
def data(tmp_path):
    """The path of ``GOOD`` written as a dataset file (a test module may define its own ``data``)."""
    path = tmp_path / "d.json"
    path.write_text(json.dumps(GOOD))
    return str(path)
