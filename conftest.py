"""Bytecode caches for the test run, even under PYTHONDONTWRITEBYTECODE=1 (set on some CI machines): without them
each pytest-xdist worker recompiles and re-rewrites the asserts of ~370 modules on every run (about 25 s of CPU per
worker), and every CLI test's subprocess recompiles the modules it imports (it reads the caches written here). A
checkout that cannot be written is no error: Python then just compiles in memory, as before."""
import sys

sys.dont_write_bytecode = False


import flint  # noqa: E402
import mpmath  # noqa: E402
import pytest  # noqa: E402

#: mpmath digits every test starts with. Several test modules set ``mpmath.mp.dps`` at import, and others inside a
#: test without restoring it: which value a test saw depended on which modules its xdist worker imported last and
#: which tests ran before it (CI failed once on two reference values computed at ~24 digits). Each test now starts
#: at this precision and leaves mpmath's and flint's as it found them.
TEST_MPMATH_DPS = 50


@pytest.fixture(autouse=True)
def _isolated_precision():
    old_mp, old_flint = mpmath.mp.prec, flint.ctx.prec
    mpmath.mp.dps = TEST_MPMATH_DPS
    try:
        yield
    finally:
        mpmath.mp.prec, flint.ctx.prec = old_mp, old_flint


def pytest_collection_modifyitems(config, items):
    """``--dist loadgroup`` (pyproject's addopts) sends the tests marked ``xdist_group(name)`` to one worker by
    suffixing their node id with ``@name`` — pytest-xdist 3.8 writes the suffix to ``item._nodeid``, which pytest ≥ 9.2
    no longer reads (the id lives in ``item._id``), so the groups were silently spread over the workers (each set up
    its own LocalCluster and shared report run). Set the suffixed id where pytest reads it."""
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import coerce_node_id
    except ImportError:  # an older pytest: xdist's own suffix works there
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(names)
        if names and hasattr(item, "_id") and not item.nodeid.endswith(suffix):
            item._id = coerce_node_id(item.nodeid + suffix)
