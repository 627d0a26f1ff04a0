"""Bytecode caches for the test run, even under PYTHONDONTWRITEBYTECODE=1 (set on some CI machines): without them
each pytest-xdist worker recompiles and re-rewrites the asserts of ~370 modules on every run (about 25 s of CPU per
worker), and every CLI test's subprocess recompiles the modules it imports (it reads the caches written here). A
checkout that cannot be written is no error: Python then just compiles in memory, as before."""
import sys

sys.dont_write_bytecode = False
