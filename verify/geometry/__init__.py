"""Static geometry of the SVM solutions: token selections, cones around max-margin directions, descent directions, smoothness constants, probe points."""
