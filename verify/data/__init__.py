"""Datasets: exact parsing and validation (``dataset``), seeded generators, and each paper's own datasets;
the input-validation layer for everything read from outside (``inputs``) and the output layer for
everything written (``outputs``: destinations checked first, atomic files with the umask's modes)."""
from verify.data.dataset import Dataset, load_dataset, loads

__all__ = ["Dataset", "load_dataset", "loads"]
