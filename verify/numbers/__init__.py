"""Numbers: the working precision (arb balls, mpmath), certified linear algebra, trend fits."""
