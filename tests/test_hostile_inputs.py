"""Hostile input, class by class (issue 14): every one a one-line error with the contract's exit code,
decided on the text before any costly conversion, or a correct answer."""
import json
import sys
from fractions import Fraction

import pytest
from cli_helpers import GOOD, one_line, run

from verify.data.dataset import Dataset, format_exact, load_dataset, loads
from verify.data.inputs import MAX_DIGITS, MAX_EXPONENT, parse_decimal_text, parse_json
from verify.errors import DataError, UsageError


def with_entry(text: str) -> str:
    """GOOD with X[0][0][0] replaced by the raw JSON ``text`` (a number or a string literal)."""
    obj = json.loads(json.dumps(GOOD))
    obj["X"][0][0][0] = "@"
    return json.dumps(obj).replace('"@"', text)


# ----- class: numbers are bounded on their text, before any exact conversion ----------------------
@pytest.mark.parametrize("text", ["1e1000000000", '"1e1000000000"', "1e-1000000000", '"-7e99999999999"',
                                  f'"1e{MAX_EXPONENT}"', f'"1e-{MAX_EXPONENT + 1}"', '"1e123456789012345678901"'])
def test_huge_exponents_are_refused_at_once(text, monkeypatch):
    """"1e1000000000" used to hang building a billion-digit integer: refused on its text, so no
    power of ten is ever built (the exact conversion of a long digit string is made to fail)."""
    import verify.data.inputs as inputs

    def small_only(digits):
        assert len(digits) < 50, "a huge number was converted"
        return int(digits)

    monkeypatch.setattr(inputs, "_int", small_only)
    with pytest.raises(DataError, match=r"X\[0\]\[0\]\[0\]: .*(outside the supported range|exponent)"):
        loads(with_entry(text))


def test_the_bounds_are_inclusive_where_documented():
    """Magnitudes from 1e-10000 to below 1e10000 convert exactly (an independent Fraction check)."""
    assert parse_decimal_text(f"9.5e{MAX_EXPONENT - 1}", "x") == Fraction(95, 10) * 10 ** (MAX_EXPONENT - 1)
    assert parse_decimal_text(f"1e-{MAX_EXPONENT}", "x") == Fraction(1, 10**MAX_EXPONENT)
    assert parse_decimal_text("0e999999999999", "x") == 0  # zero has no magnitude to bound
    assert parse_decimal_text("-0.00250", "x") == Fraction(-1, 400)
    assert parse_decimal_text(" 1/3 ", "x") == Fraction(1, 3)


def test_digit_counts_are_bounded_and_long_numbers_round_trip():
    long_ok = "0." + "7" * MAX_DIGITS  # 10000 digits: more than Python's 4300-digit str↔int limit
    d = loads(with_entry(f'"{long_ok}"'))
    assert d.X[0][0][0] == Fraction((10**MAX_DIGITS - 1) // 9 * 7, 10**MAX_DIGITS)  # 0.777…7
    assert loads(d.to_json()) == d  # saving such a number used to fail in str(int)
    for too_long in ('"0.' + "7" * (MAX_DIGITS + 1) + '"', "1" * (MAX_DIGITS + 1),
                     '"' + "1" * (MAX_DIGITS + 1) + '/3"'):
        with pytest.raises(DataError, match="digits"):
            loads(with_entry(too_long))


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", '"nan"', '"-inf"', '"+Infinity"', '"1/0"',
                                  '"abc"', '"1e"', '"."', "true", "null", '"0x10"'])
def test_not_a_finite_number(text):
    with pytest.raises(DataError):
        loads(with_entry(text))


def test_big_integers_from_python_callers_are_bounded_and_formatted():
    with pytest.raises(DataError, match="outside the supported range"):
        Dataset.make(X=[[[10**20000, 0], [0, 1]]], Y=[1], v=[1, 0])
    big = 10**9000 + 7
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the test's own parsing (Fraction(str)) needs it; the code does not
    try:
        assert Fraction(format_exact(Fraction(big))) == big
        assert Fraction(format_exact(Fraction(3, big))) == Fraction(3, big)
        assert Fraction(format_exact(Fraction(1, 2**40000))) == Fraction(1, 2**40000)
    finally:
        sys.set_int_max_str_digits(old)


# ----- class: JSON structure ----------------------------------------------------------------------
def test_duplicate_keys_are_refused():
    text = json.dumps(GOOD)[:-1] + ', "v": [1, 0]}'  # Python's json would silently keep the last "v"
    with pytest.raises(DataError, match="duplicate key 'v'"):
        loads(text)
    with pytest.raises(DataError, match="duplicate key"):
        parse_json('{"a": {"b": 1, "b": 1}}')


@pytest.mark.parametrize("depth", [2000, 100000])
def test_deep_nesting_is_one_line(depth):
    for text in ("[" * depth + "]" * depth, '{"X": ' + "[" * depth + "]" * depth + ', "Y": [1], "v": [1]}'):
        with pytest.raises(DataError, match="nested too deeply"):
            loads(text)


def test_moderate_nesting_is_a_shape_error_not_a_crash():
    with pytest.raises(DataError, match=r"X\[0\]\[0\]\[0\]: expected a number"):
        loads('{"X": [[[' + "[" * 50 + "1" + "]" * 50 + ']]], "Y": [1], "v": [1]}')


@pytest.mark.parametrize("obj,match", [
    ({"X": [[[], []]], "Y": [1], "v": []}, "d = 0"),
    ({"X": [[[1, 0], [0, 1]]], "Y": [1], "v": [1, 0], "K": [[[], []]]}, "d_k = 0"),
    ({"X": [], "Y": [], "v": [1]}, "n >= 1"),
    ({"X": [[]], "Y": [1], "v": [1]}, "T = 0"),
    ({"X": [[[1], [2]], [[1]]], "Y": [1, 1], "v": [1]}, "rows, expected 2"),
])
def test_zero_size_and_ragged_dimensions(obj, match):
    with pytest.raises(DataError, match=match):
        Dataset.from_dict(obj)


def test_a_byte_order_mark_is_not_part_of_the_json(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    assert load_dataset(str(path)).n == 1


# ----- class: paths -------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["mmts.lemma3", "--data", ""], ["mmts.lemma3", "--data", "  "], ["mmts.lemma3", "--report", ""],
    ["all", "--report", ""], ["flow", "--data", "", "--until-norm", "2"], ["flow", "--resume", "", "--until-norm", "2"],
    ["svm", "--data", "", "--kind", "p"], ["hunt", "mmts.lemma3", "--budget", "1", "--out", ""],
    [""],
])
def test_empty_paths_are_usage_errors_not_defaults(argv, capsys, no_work):
    """``--data ""`` used to run the default datasets and ``--report ""`` to write nothing."""
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert one_line(err).startswith("verify: error:")


def test_missing_and_directory_paths_are_data_errors(tmp_path):
    with pytest.raises(DataError, match="no such"):
        load_dataset(str(tmp_path / "missing.json"))
    with pytest.raises(DataError, match="directory"):
        load_dataset(str(tmp_path))
    with pytest.raises(UsageError):
        load_dataset("")


@pytest.mark.parametrize("where,code,message", [
    ("verify.data.dataset.parse_json", 5, "too large for the available memory"),  # while loading
    ("verify.claims.run_claim", 3, "out of memory"),  # while computing: nothing decided
])
def test_memory_exhaustion_is_one_line(where, code, message, tmp_path, monkeypatch, capsys):
    path = tmp_path / "d.json"
    path.write_text(json.dumps(GOOD))

    def no_memory(*a, **k):
        raise MemoryError

    monkeypatch.setattr(where, no_memory)
    got, out, err = run(["mmts.lemma3", "--data", str(path)], capsys)
    assert got == code and message in one_line(err) and out == ""


# ----- class: numbers on the command line ---------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["flow", "--until-norm", "1e1000000000"], ["flow", "--until-norm", "nan"], ["flow", "--until-norm", "inf"],
    ["flow", "--until-logt", "-inf"], ["flow", "--until-norm", "2", "--m", "0"],
    ["flow", "--until-norm", "2", "--m", "-1"], ["flow", "--until-norm", "2", "--param", "KQ", "--m", "1001"],
    ["flow", "--until-norm", "2", "--param", "p", "--m", "2"], ["flow", "--until-norm", "2", "--stages", "1"],
    ["flow", "--until-norm", "2", "--init", "1,nan,3"], ["flow", "--until-norm", "2", "--init", "random:x"],
    ["mmts.lemma3", "--seed", "1e5"], ["mmts.lemma3", "--seed", "-1"], ["all", "--jobs", "100000"],
    ["hunt", "mmts.lemma3", "--budget", "nan"], ["hunt", "mmts.lemma3", "--budget", "inf"],
    ["hunt", "mmts.lemma3", "--budget", "-1"], ["hunt", "mmts.lemma3", "--budget", "0"],
    ["hunt", "mmts.lemma3", "--budget", "1e300"], ["hunt", "mmts.lemma3", "--budget", "8x"],
    ["hunt", "mmts.lemma3", "--budget", "h"], ["hunt", "mmts.lemma3", "--budget", "-1h"],
    ["hunt", "mmts.lemma3", "--budget", "117d"], ["hunt", "mmts.lemma3", "--seeds", "0"],
])
def test_bad_flag_values_are_usage_errors(argv, tmp_path, capsys, no_work):
    """--m 0 used to mean m = d, --m −1 aborted inside FLINT, --budget nan searched nothing, inf forever."""
    path = tmp_path / "d.json"
    path.write_text(json.dumps(GOOD))
    if argv[0] in ("flow", "mmts.lemma3"):
        argv = argv + ["--data", str(path)]
    code, out, err = run(argv, capsys)
    assert code == 2, err
    assert one_line(err).startswith("verify: error:") and out == ""


def test_the_highest_precision_is_accepted_by_the_cli():
    from verify.numbers.precision import MAX_DPS, parse_precision

    assert parse_precision(str(MAX_DPS)) == MAX_DPS == 10000


def test_the_stability_recheck_stays_within_reach_for_every_allowed_precision():
    """--precision above 6666 used to ask the 1.5× recheck for more than 10000 digits and fail after
    the work. The recheck is 1.5 × dps (≥ 20 more), capped at max(MAX_DPS, dps + 20)."""
    from verify.numbers.precision import MAX_DPS, Precision, working_precision

    assert [Precision(d).higher().dps for d in (15, 40, 50, 100, 6666, 6667, 7000, 9990, MAX_DPS)] == \
        [35, 60, 75, 150, 9999, MAX_DPS, MAX_DPS, 10010, MAX_DPS + 20]
    with working_precision(MAX_DPS + 20) as prec:  # the recheck of the highest precision runs
        assert prec.dps == MAX_DPS + 20
    with pytest.raises(UsageError):
        with working_precision(MAX_DPS + 21):
            pass


def test_progress_inside_a_claim_reaches_the_sink():
    """A long check reports how far it is (mmts Lemma 3: probe points), named by dataset and precision."""
    from lemmas.mmts import lemma3
    from verify.claims import run_claim
    from verify.claims.progress import progress_sink

    data = loads(json.dumps({"X": [[[1, 0], [0, 1], [0, 0]], [[2, 1], [0, 1], [1, 3]]], "Y": [1, -1], "v": [1, 2]}),
                 name="two")
    lines = []
    with progress_sink(lines.append):
        run_claim(lemma3.CLAIM, [data], dps=30)
    # 4 seeded directions + ± the 2 nonzero key differences of each sequence, at 8 scales: 8 × 8 per sequence
    assert lines[0] == "two at 30 digits: probe points 0/128"
    assert "two at 30 digits: probe points 128/128" in lines
    assert lines[-1] == "two, recheck at 50 digits: probe points 128/128"


@pytest.mark.parametrize("text, seconds", [("600", 600), ("90s", 90), ("15m", 900), ("8h", 8 * 3600),
                                           ("0.5h", 1800), ("2D", 2 * 86400)])
def test_a_budget_takes_a_unit(text, seconds):
    from verify.cli.hunt import budget_flag

    assert budget_flag(text) == seconds
