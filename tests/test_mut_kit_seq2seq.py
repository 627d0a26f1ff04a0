"""verify.kit.seq2seq (mutation tests)."""
from verify.kit import seq2seq


def test_module_imports():
    assert seq2seq.__name__ == "verify.kit.seq2seq"
