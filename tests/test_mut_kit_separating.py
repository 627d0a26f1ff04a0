"""verify.kit.separating (mutation tests)."""
from verify.kit import separating


def test_module_imports():
    assert separating.__name__ == "verify.kit.separating"
