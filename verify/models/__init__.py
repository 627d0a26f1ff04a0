"""Models: losses, the attention models with their closed-form gradients and Hessians, the batched evaluator, and the sympy derivation they are tested against."""
