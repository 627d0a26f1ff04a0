"""Adversarial search: hypothesis strategies for datasets at a claim's edges, ``hunt``, saved counterexamples."""
