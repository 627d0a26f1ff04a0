"""Reports: a markdown page per claim with its figures, an index, and the JSON twins, written atomically."""
