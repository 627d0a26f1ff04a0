"""The papers' experiments replayed: their data, algorithm and hyperparameters (``catalog``), run at the working
precision beside the same algorithm in float64 and float32 (``replay``), with the departure points, tables and
figures (``report``). ``python -m verify experiment list`` / ``python -m verify experiment <id>``."""
from verify.experiments.catalog import EXPERIMENTS, Experiment, Run, get_experiment
from verify.experiments.replay import run_experiment

__all__ = ["EXPERIMENTS", "Experiment", "Run", "get_experiment", "run_experiment"]
