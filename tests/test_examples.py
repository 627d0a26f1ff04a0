"""examples/ (issue 22): the papers' small datasets ship as exact JSON, generated from the builders of
verify/data/{mmts,tfsvm,irgf}.py by dev/make_examples.py — the files cannot drift from the builders, the
README's commands name files that exist, and a few entries are checked against the specifications'
printed values (not against the builders)."""
import json
import os
import re
from fractions import Fraction

import pytest

from verify.data.dataset import load_dataset
from verify.data.examples import EXAMPLES, example_files, index_text

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "examples")


def test_the_shipped_files_are_exactly_what_the_builders_give():
    shipped = sorted(f for f in os.listdir(FOLDER) if f.endswith(".json"))
    expected = example_files()
    assert shipped == sorted(expected), "run python dev/make_examples.py"
    for name, text in expected.items():
        with open(os.path.join(FOLDER, name), encoding="utf-8") as fh:
            assert fh.read() == text, f"examples/{name} differs from its builder: run python dev/make_examples.py"
    with open(os.path.join(FOLDER, "README.md"), encoding="utf-8") as fh:
        assert fh.read() == index_text()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_loads_as_its_builder(name):
    build, _what = EXAMPLES[name]
    assert load_dataset(os.path.join(FOLDER, f"{name}.json")).fingerprint() == build().fingerprint()


def test_entries_as_the_specifications_print_them():
    """mmts Fig. 1(a): tokens (−0.1, 1, 1), (1, 0, 0.9), (0, 0, 0.9), keys (x₁, x₂, 0), v = e₃ (spec §5.1);
    tfsvm D-T2: x_11 = (1,1), x_21 = (2,2), z_2 = (1, 0.5), Y = (+1, −1) (spec §6)."""
    a = load_dataset(os.path.join(FOLDER, "mmts-fig1a.json"))
    assert a.X == ((((Fraction(-1, 10), 1, 1), (1, 0, Fraction(9, 10)), (0, 0, Fraction(9, 10)))),)
    assert a.K == (((Fraction(-1, 10), 1, 0), (1, 0, 0), (0, 0, 0)),) and a.v == (0, 0, 1) and a.Y == (1,)
    t2 = load_dataset(os.path.join(FOLDER, "tfsvm-D-T2.json"))
    assert t2.X == (((1, 1), (0, 0)), ((2, 2), (0, 0))) and t2.Y == (1, -1)
    assert t2.z == ((1, 0), (1, Fraction(1, 2))) and t2.v == (0, 1)
    assert [list(s) for s in t2.scores] == [[1, 0], [-2, 0]]  # γ_1 = (1, 0), γ_2 = (−2, 0) as printed


def test_every_json_is_exact_text():
    """No float64 rendering: every non-integer entry is a decimal or rational string."""
    for name in EXAMPLES:
        with open(os.path.join(FOLDER, f"{name}.json"), encoding="utf-8") as fh:
            text = fh.read()
        assert not re.search(r"(?<![\"\w.])-?\d+\.\d+(?![\w\"])", text), name  # no bare JSON floats
        json.loads(text)


def test_the_readme_names_only_files_that_exist():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    named = set(re.findall(r"examples/[\w.-]+\.json", readme))
    assert named, "the README's examples use the shipped datasets"
    assert all(os.path.exists(os.path.join(ROOT, p)) for p in named), named
    assert "my.json" not in readme


def test_the_dev_script_regenerates_them(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, os.path.join(ROOT, "dev", "make_examples.py"), str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    for name in list(example_files()) + ["README.md"]:
        assert (tmp_path / name).read_text(encoding="utf-8") == open(os.path.join(FOLDER, name), encoding="utf-8").read()
