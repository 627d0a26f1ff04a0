"""verify.kit.sphere_ratio (mutation tests)."""
from verify.kit import sphere_ratio


def test_module_imports():
    assert sphere_ratio.__name__ == "verify.kit.sphere_ratio"
