"""Datasets: exact parsing and validation (``dataset``), seeded generators, and each paper's own datasets."""
from verify.data.dataset import Dataset, load_dataset, loads

__all__ = ["Dataset", "load_dataset", "loads"]
