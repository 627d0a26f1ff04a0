"""Claim-kit piece: an inequality proven on a whole region, with a certificate anyone can re-check.

``prove_on_region`` runs the branch-and-bound of ``verify.numbers.regions`` on a claim's margin and turns the
result into one deciding ``Evidence`` item (decided by "region"): proven on every point of the region, violated
at a certified counterexample (its exact coordinates in the note), or undecided when the budget ends (the share
of the region's volume left is named — INCONCLUSIVE, never a silent HOLDS). A proven region's certificate goes
into ``Outcome.certificates``; ``--report DIR`` writes it to DIR/certificates/ and ``python -m verify recheck``
re-verifies it with mpmath's interval engine, from the certificate alone.

A claim that proves a region declares how to rebuild the margin from a dataset and the certificate's
parameters (``Claim.regions``: name → builder(data, params) → Margin); the certificate carries the dataset
exactly, so the re-check needs nothing else.
"""
from __future__ import annotations

from fractions import Fraction

import verify
from verify.claims import Evidence, Outcome, Proof, steps
from verify.numbers.regions import Margin, budget_factor, certificate, prove

DEFAULT_BOXES = 4000
#: rungs an "auto" ladder of halved boxes starts above the logit-scale box under ``--prove``
PROVE_DOUBLINGS = 2


def tool_versions() -> dict:
    import flint
    import mpmath

    return {"attnverify": verify.__version__, "python-flint": flint.__version__, "mpmath": mpmath.__version__}


def prove_on_region(out: Outcome, quantity: str, margin: Margin, *, claim: str, name: str, data, params: dict,
                    dps: int, region: str, max_boxes: int = DEFAULT_BOXES) -> Evidence:
    """Prove ``margin`` on its region; add and return the deciding item (module docstring)."""
    work = steps(max_boxes, f"region {name}: boxes")

    def show(boxes, left):
        work.what = f"region {name} ({left:.1%} of the volume left): boxes"
        work.advance(boxes - work.done)

    res = prove(margin, max_boxes=max_boxes, progress=show)
    value = res.smallest if res.witness is None else res.witness_value  # the witness: a violation, or where a
    witness = res.witness_text if res.status == "violated" else None  # sufficient margin failed (undecided)
    proof = Proof(res.status, region, res.boxes, len(res.leaves), res.seconds, float(res.undecided_fraction), witness)
    item = Evidence(quantity, value, margin.relation, 0, note=res.summary(), proof=proof)
    out.add(item)
    if res.status == "proven":
        cert = certificate(res, claim=claim, margin_name=name, params={**params, "dataset": data.to_dict()},
                           dps=dps, versions=tool_versions())
        cert["dataset_name"] = data.name
        out.certificates.append(cert)
    return item


def prove_on_largest(out: Outcome, radii, build, *, claim: str, name: str, data, dps: int,
                     max_boxes: int = 100) -> Evidence:
    """A statement proven on the largest of nested regions, *beside* a check's other items: ``build(r)`` gives
    (quantity, margin, params, region text) for each r of ``radii`` (largest first); each is searched with
    ``max_boxes``. The first proven region is the item (its note names the larger ones left undecided, so the
    verdict's range says exactly what was proven); a certain violation of an equivalent margin ends the ladder at once
    (a counterexample: the item decides VIOLATED). When no region is decided the proof was not obtained: the item is
    informative (shown, never deciding) — a proof attempt that runs out of budget is no evidence against the
    statement, which the check's other items decide."""
    radii = list(radii)
    tried = []
    for r in radii:
        quantity, margin, params, region = build(r)
        trial = Outcome()
        item = prove_on_region(trial, quantity, margin, claim=claim, name=name, data=data, params=params, dps=dps,
                               region=region, max_boxes=max_boxes)
        if item.decide() is not None:
            if tried:
                item.note += (f"; the larger regions {', '.join(tried)} were undecided within {max_boxes} boxes "
                              "each (the interval enclosure is too wide there)")
            out.add(item)
            out.certificates.extend(trial.certificates)
            return item
        tried.append(region)
    if not tried:
        raise ValueError("prove_on_largest needs at least one region")
    item = Evidence(f"{name}: no region proven, from {tried[0]} down to {tried[-1]}", None,
                    note=f"no region proven: {', '.join(tried)} each undecided within {max_boxes} boxes (informative: "
                         "the statement rests on the check's other items)")
    out.add(item)
    return item


def prove_on_halved_boxes(out: Outcome, region, features, build, *, rungs: int, claim: str, name: str, data,
                          dps: int, max_boxes: int) -> Evidence:
    """``prove_on_largest`` over the boxes ‖θ‖∞ ≤ r₀/2^k, k < ``rungs``: r₀ = ``logit_box_radius(features)`` when
    ``region`` is "auto", else the given radius. Under ``--prove`` (a budget scale > 1) an "auto" ladder starts
    ``PROVE_DOUBLINGS`` rungs higher, at 2^PROVE_DOUBLINGS·r₀: the larger budget is spent on larger boxes first."""
    r0 = logit_box_radius(features) if region == "auto" else Fraction(region)
    up = PROVE_DOUBLINGS if region == "auto" and budget_factor() > 1 else 0
    return prove_on_largest(out, [r0 * 2 ** up / 2 ** k for k in range(rungs + up)], build, claim=claim, name=name,
                            data=data, dps=dps, max_boxes=max_boxes)


def logit_box_radius(features) -> Fraction:
    """The largest r = 2^-k ≤ 1 with r·max_{i,t}‖F_it‖₁ ≤ 1: on the box ‖θ‖∞ ≤ r every logit |F_itᵀθ| ≤ 1 (attention
    far from saturation, where interval enclosures of the softmax stay tight)."""
    kappa = max((sum(abs(Fraction(x)) for x in row) for seq in features for row in seq), default=Fraction(0))
    r = Fraction(1)
    while r * kappa > 1:
        r /= 2
    return r


def descent_margin(features, scores, loss: str, direction, radius: Fraction, names=None, statement: str = "") -> Margin:
    """−⟨∇L(θ), d⟩ > 0 on the box ‖θ‖∞ ≤ radius (d a rational direction): the directional derivative of the
    engine-generic loss (``verify.models.generic``) by one forward-mode derivative along d, so the margin also
    accepts the search's derivatives (the centred form) and runs on both interval engines. Equivalent to the
    statement "d is a descent direction at every θ of the box": a point where it fails is a counterexample."""
    from verify.models.generic import attention_loss
    from verify.numbers.intervals import Dual

    d = [Fraction(x) for x in direction]

    def g(theta, ops):
        moved = [Dual(th, (ops.const(w),)) for th, w in zip(theta, d)]
        return -attention_loss(moved, features, scores, loss, ops).g[0]

    D_ = len(d)
    return Margin(g, (-radius,) * D_, (radius,) * D_, tuple(names or (f"θ{j + 1}" for j in range(D_))), ">",
                  statement=statement)


def hessian_margin(features, scores, loss: str, bound: Fraction, radius: Fraction, names=None,
                   statement: str = "") -> Margin:
    """bound² − ‖∇²L(θ)‖_F² > 0 on the box ‖θ‖∞ ≤ radius: ∇²L of the engine-generic loss by nested forward mode, so
    the margin runs on both interval engines (the plain extension: a centred form would need third derivatives).
    Sufficient, not equivalent, for ‖∇²L(θ)‖₂ < bound (‖·‖₂ ≤ ‖·‖_F): a point where it fails is no counterexample."""
    from verify.models.generic import attention_loss
    from verify.numbers.intervals import gradient_and_hessian

    def g(theta, ops):
        _, _, hess = gradient_and_hessian(lambda th, o: attention_loss(th, features, scores, loss, o), theta, ops)
        frob = ops.const(0)
        for row in hess:
            for h in row:
                frob = frob + h * h
        return ops.const(bound * bound) - frob

    D_ = len(features[0][0])
    return Margin(g, (-radius,) * D_, (radius,) * D_, tuple(names or (f"θ{j + 1}" for j in range(D_))), ">",
                  statement=statement, slopes=False, equivalent=False)
