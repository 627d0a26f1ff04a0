"""The command line, one module per verb: ``python -m verify``."""
from verify.cli.main import main

__all__ = ["main"]
