"""Hostile input, generated (issue 14): malformed dataset JSON and hostile argument vectors, run
in-process through ``verify.cli.main.main``. Whatever the input: an exit code of the contract, at
most one line on stderr (exactly one for an error), never a traceback, never "nan" printed as a result.

Expensive valid combinations are kept out of the vocabulary (``all`` always carries one bad flag,
precisions stay low, flows stop at small norms), so the ``ci`` profile runs 100 examples of each in
about 10 s; the ``deep`` profile (HYPOTHESIS_PROFILE=deep) draws 2000 of each.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.cli.main import main

CONTRACT_CODES = {0, 1, 2, 3, 4, 5}
NAN = re.compile(r"\bnan\b", re.IGNORECASE)
VALID = {"X": [[[1, "1/2", 0], [0, 1, "0.25"], [0, 0, 1]], [[1, 0, 0], [1, 1, 0], ["-1/3", 0, 2]]],
         "Y": [1, -1], "v": ["0.5", -1, 2]}

# Tokens a hostile user puts where a number belongs (JSON text, inserted verbatim).
HOSTILE_NUMBERS = ["1e1000000000", '"1e999999"', "1e400", "-1e-400", "NaN", "Infinity", "-Infinity", '"nan"',
                   '"-inf"', '"1/0"', '"abc"', "true", "null", "[]", "{}", '"0x1F"', '"1_000"', '" 7 "', "-0",
                   '"1e-10001"', '"9.99e9999"', "1" * 12000, '"0.' + "3" * 12000 + '"', '"1/3"', "0.1", '"1e30"',
                   "1e-30", '"+.5"', '"5."', '"."', '"1e"', '""', "123456789012345678901234567890"]


def _leaves(obj, path=()):
    if isinstance(obj, list):
        for k, x in enumerate(obj):
            yield from _leaves(x, path + (k,))
    elif isinstance(obj, dict):
        for k, x in obj.items():
            yield from _leaves(x, path + (k,))
    else:
        yield path


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


@st.composite
def hostile_dataset_text(draw) -> bytes:
    obj = json.loads(json.dumps(VALID))
    kind = draw(st.sampled_from(["numbers", "structure", "text"]))
    if kind == "numbers":  # one to three entries replaced by hostile tokens
        leaves = list(_leaves(obj))
        marks = {}
        for _ in range(draw(st.integers(1, 3))):
            path = draw(st.sampled_from(leaves))
            marks[f"@{len(marks)}@"] = draw(st.sampled_from(HOSTILE_NUMBERS))
            _set(obj, path, list(marks)[-1])
        text = json.dumps(obj)
        for mark, token in marks.items():
            text = text.replace(f'"{mark}"', token)
        return text.encode()
    if kind == "structure":
        change = draw(st.sampled_from(["drop key", "extra key", "duplicate key", "zero d", "zero dk", "no seqs",
                                       "T = 1", "ragged", "label 0", "wrong Y length", "deep", "deep in X",
                                       "not an object", "K shape", "z shape", "u length"]))
        if change == "drop key":
            obj.pop(draw(st.sampled_from(["X", "Y", "v"])))
        elif change == "extra key":
            obj["W"] = [1]
        elif change == "zero d":
            obj = {"X": [[[], []]], "Y": [1], "v": []}
        elif change == "zero dk":
            obj["K"] = [[[], [], []], [[], [], []]]
        elif change == "no seqs":
            obj = {"X": [], "Y": [], "v": [1]}
        elif change == "T = 1":
            obj["X"] = [[seq[0]] for seq in obj["X"]]
        elif change == "ragged":
            obj["X"][1] = obj["X"][1][:2]
        elif change == "label 0":
            obj["Y"][0] = 0
        elif change == "wrong Y length":
            obj["Y"].append(1)
        elif change == "not an object":
            obj = [obj]
        elif change == "K shape":
            obj["K"] = [[[1, 0]]]
        elif change == "z shape":
            obj["z"] = [[1, 0, 0, 0], [0, 1, 0, 0]]
        elif change == "u length":
            obj["u"] = [1]
        text = json.dumps(obj)
        depth = draw(st.sampled_from([40, 1200, 50000]))
        if change == "duplicate key":
            text = text[:-1] + ', "Y": [1, 1]}'
        elif change == "deep":
            text = "[" * depth + text + "]" * depth
        elif change == "deep in X":
            text = text.replace('"X": [', '"X": [' + "[" * depth, 1).replace('], "Y"', "]" * (depth + 1) + ', "Y"', 1)
        return text.encode()
    text = json.dumps(obj).encode()
    change = draw(st.sampled_from(["truncate", "bom", "utf16", "nul", "empty", "garbage", "latin1"]))
    if change == "truncate":
        return text[: draw(st.integers(0, len(text) - 1))]
    return {"bom": b"\xef\xbb\xbf" + text, "utf16": json.dumps(obj).encode("utf-16"), "nul": text[:10] + b"\0" + text[10:],
            "empty": b"", "garbage": draw(st.binary(max_size=40)), "latin1": b'{"X": "\xe9"}'}[change]


@pytest.fixture(scope="module")
def files():
    folder = tempfile.mkdtemp(prefix="hostile-")
    good = os.path.join(folder, "good.json")
    with open(good, "w") as fh:
        json.dump(VALID, fh)
    return {"folder": folder, "good": good, "missing": os.path.join(folder, "missing.json"),
            "dir": folder, "file_as_dir": os.path.join(good, "sub"), "rep": os.path.join(folder, "out", "rep"),
            "sys": "/sys/attnverify-hostile"}


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


# ci: 100 examples each (about 10 s together, the runs are in-process); deep: the profile's 2000
EXAMPLES = settings(max_examples=max(100, settings().max_examples))
INFO = ("verify: '", "report: ")  # the contract's informational lines: which claim an alias chose, where a report is


def assert_contract(argv, code, out, err):
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith(INFO)]
    assert code in CONTRACT_CODES, (argv, code, err)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    assert len(lines) <= 1, (argv, err)
    if code in (2, 5):
        assert len(lines) == 1 and lines[0].startswith("verify: error:"), (argv, err)
    assert not NAN.search(out), (argv, out)


@EXAMPLES
@given(text=hostile_dataset_text(), verb=st.sampled_from(["claim", "svm", "flow"]))
def test_malformed_dataset_json_is_a_clear_error_or_a_correct_run(files, text, verb):
    path = os.path.join(files["folder"], "hostile.json")
    with open(path, "wb") as fh:
        fh.write(text)
    argv = {"claim": ["mmts.lemma3", "--data", path, "--precision", "15", "--json"],
            "svm": ["svm", "--data", path, "--kind", "p", "--precision", "15", "--json"],
            "flow": ["flow", "--data", path, "--until-norm", "1.5", "--precision", "15", "--no-svm", "--json"]}[verb]
    code, out, err = run(argv)
    assert_contract(argv, code, out, err)
    if code == 0 and out:
        json.loads(out)  # a result is complete JSON


# Each flag takes a valid value three times in four, else a hostile one: most vectors carry zero or
# one hostile value, so the valid paths (and what they print) are exercised too.
PRECISION = (["15", "20"], ["", "14", "10001", "abc", "50.5", "-3", "1e3", "nan", " "])
PATH = (["good"], ["", " ", "missing", "dir", "file_as_dir", "sys"])
NORM = (["1.5", "1/3", "2", "1e-400"], ["", "nan", "inf", "-inf", "-1", "0", "1e1000000000", "abc", "1/0"])
COUNT = (["1", "2", "3"], ["", "nan", "0", "-1", "1e5", "abc", "99999999999999999999", "1.5"])


@st.composite
def hostile_argv(draw, files):
    def pick(choices):
        valid, hostile = choices
        return draw(st.sampled_from(valid if draw(st.integers(0, 3)) else hostile))

    def path(choices=PATH):
        p = pick(choices)
        return files.get(p, p)

    verb = draw(st.sampled_from(["list", "claim", "claim", "flow", "flow", "svm", "hunt", "all", "other"]))
    if verb == "list":
        argv = ["list"] + draw(st.sampled_from([[], ["--json"], ["--paper", "x"], ["--paper", "irgf"], ["--bogus"]]))
    elif verb == "claim":
        argv = [pick((["mmts.lemma3", "lemma3", "key-lemma"], ["mmts.lema3", "", "-x"])), "--data", path(),
                "--precision", pick(PRECISION)]
        argv += draw(st.sampled_from([[], ["--json"], ["--report", path((["rep"], PATH[1] + ["good"]))],
                                      ["--seed", pick((["0", "7"], COUNT[1]))]]))
    elif verb == "flow":
        argv = ["flow", "--data", path(), "--until-norm", pick(NORM), "--no-svm", "--precision",
                pick((["15", "16"], ["", "14", "abc"]))]
        argv += draw(st.sampled_from([
            [], ["--json"], ["--param", pick((["p", "W", "KQ", "diag"], ["Q", ""]))],
            ["--param", "KQ", "--m", pick(COUNT)], ["--m", pick(COUNT)], ["--stages", pick((["6", "8"], COUNT[1]))],
            ["--init", pick((["zero", "random:3"], ["", "1,nan", "random:x", "1,2", "1e1000000000"]))],
            ["--save", path((["rep"], PATH[1] + ["good"]))], ["--resume", path()],
            ["--until-logt", pick((["2", "-1"], NORM[1]))]]))
    elif verb == "svm":
        argv = ["svm", "--data", path(), "--kind", pick((["p", "W", "diag"], ["q", ""])), "--precision",
                pick(PRECISION)]
        argv += draw(st.sampled_from([[], ["--json"], ["--select", pick((["opt", "0,1"], ["9", "", "a", "0"]))],
                                      ["--kind", "KQ", "--rank", pick(COUNT)]]))
    elif verb == "hunt":  # a valid budget is at most 0.2 s
        argv = ["hunt", pick((["mmts.lemma3"], ["nope", ""])), "--budget",
                pick((["0.2"], ["nan", "inf", "-1", "0", "1e300", "abc", ""])), "--precision", pick(PRECISION),
                "--out", path((["rep"], PATH[1] + ["good"]))]
    elif verb == "all":  # always one bad flag: a whole run takes minutes
        argv = ["all"] + draw(st.sampled_from([["--jobs", draw(st.sampled_from(["0", "-1", "x", "100000", ""]))],
                                               ["--precision", draw(st.sampled_from(["14", "abc", ""]))],
                                               ["--report", draw(st.sampled_from(["", files["good"], files["sys"]]))],
                                               ["--paper", "nope"], ["--seed", "x"]]))
    else:
        argv = draw(st.sampled_from([["nope.claim"], ["mmts"], ["irgf.lemma99"], ["ünïcode"], ["--precision", "15"],
                                     ["-x"], [""], [" "], []]))
    return argv


@EXAMPLES
@given(data=st.data())
def test_hostile_argument_vectors_get_contract_answers(files, data):
    argv = data.draw(hostile_argv(files))
    code, out, err = run(argv)
    assert_contract(argv, code, out, err)
