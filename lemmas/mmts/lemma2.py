"""mmts Lemma 2 — (ATT-SVM) is feasible for the optimal tokens when labels are positive (Sec. 2.1).

Statement (spec `mmts.lemma2`, SEED+ / DERIVED). Keys k_it = Wᵀx_it (K_i = X_i W), scores
γ_it = Y_i vᵀx_it. Suppose for all i and t ≠ opt_i

    γ_it < γ_{i,opt_i}   (a strict optimal token)   and   Y_i = 1,

and W is full rank. Then (ATT-SVM) for α = opt,

    p^mm = argmin ‖p‖  s.t.  (k_{i,opt_i} − k_it)ᵀ p ≥ 1  for all t ≠ opt_i, i ∈ [n],

is feasible. Certificate (the proof's): γ_gap := min_i min_{t≠opt_i} (γ_{i,opt_i} − γ_it) > 0 and
p̂ := W^† v / γ_gap, whose margins are (x_{i,opt} − x_it)ᵀ W W^† v / γ_gap = (γ_{i,opt} − γ_it)/γ_gap ≥ 1.
Hence also ‖p^mm‖ ≤ ‖p̂‖.

How it is checked — exactly, in rational arithmetic (no rounding anywhere):

* the dataset stores keys, not W; W is any matrix with K_i = X_i W for all i. Such a W exists iff
  rank[X | K] = rank X (stacked over all tokens), and a *full-rank* one exists iff
  rank K = rank X (when d_k ≥ d) resp. d_k − rank K ≤ d − rank X (when d_k < d) — W is fixed on the
  row space of X (minimum-norm part W₀ = X⁺K, rank W₀ = rank K) and free on its null space. Without
  keys, W = I. When X has full column rank W is unique and the test is just rank W = min(d, d_k);
* the certificate is built at key level: p̂ = p₀/γ_gap with p₀ the minimum-norm exact solution of
  K p = X v (stacked). When W is unique and invertible this is exactly W^†v/γ_gap = W⁻¹v/γ_gap;
  in general K p = X v is solvable iff v ∈ range(W) for *some* W with K = XW (Lemma 11's hypothesis;
  a full-rank W gives it). Every margin of p̂ is computed as an exact rational and compared with 1;
* ATT-SVM(opt) is solved exactly (``verify.svm``: exact rational active set) and ‖p^mm‖² ≤ ‖p̂‖²
  is compared exactly.

UNCERTAIN in the spec (§7 item 4), decided here: the second condition is read as Y_i = 1 (the only
reading under which the certificate works), the full-rank matrix as W, and Lemma 11's weaker
condition as v ∈ range(W) (``lemmas/mmts/lemma11.py``).

Paper numbers: none printed; the spec reports 200/200 random instances feasible with the
certificate. False cases: mixed labels on identical inputs (X_1 = X_2 = [(1,0),(0,0)], v = (1,0),
Y = (+1,−1), W = I: constraints p₁ ≥ 1 and −p₁ ≥ 1) → hypothesis Y_i = 1 not met (NOT_APPLICABLE);
with the hypotheses switched off the conclusion itself fails (the exact solver returns a Farkas
certificate) → VIOLATED. A wrong certificate (p̂ scaled by 1/(2γ_gap)) → VIOLATED.
"""
from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpq_mat

from verify.claims import Claim, Evidence, Figure, Hypothesis, Outcome, Series, register
from verify.data.dataset import Dataset
from verify.data.generators import random_dataset
from verify.numbers.precision import Precision, to_arb


# ----- exact linear algebra ----------------------------------------------------------------------
def _mat(rows) -> fmpq_mat:
    rows = [list(r) for r in rows]
    return fmpq_mat(len(rows), len(rows[0]), [fmpq(Fraction(x).numerator, Fraction(x).denominator)
                                               for r in rows for x in r])


def _frac(q) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def rank(rows) -> int:
    if not rows or not rows[0]:
        return 0
    return _mat(rows).rank()


def min_norm_solution(A_rows, b):
    """The minimum-norm exact solution of A p = b, or None when inconsistent (Fractions)."""
    A = _mat(A_rows)
    R_full, r = A.rref()
    D_ = A.ncols()
    if r == 0:
        return [Fraction(0)] * D_ if all(x == 0 for x in b) else None
    R = fmpq_mat(r, D_, [R_full[i, j] for i in range(r) for j in range(D_)])  # basis of the row space
    B = A * R.transpose()  # m × r, full column rank
    bb = _mat([[x] for x in b])
    c = (B.transpose() * B).solve(B.transpose() * bb)
    p = R.transpose() * c
    if A * p != bb:
        return None
    return [_frac(p[j, 0]) for j in range(D_)]


def stacked(data: Dataset):
    X = [list(row) for seq in data.X for row in seq]
    K = [list(row) for seq in data.keys() for row in seq]
    return X, K


def w_structure(data: Dataset) -> dict:
    """Exact facts about the W behind the keys: exists, identified, full-rank W exists, ranks."""
    X, K = stacked(data)
    d, dk = data.d, len(K[0])
    if data.K is None:
        return dict(exists=True, identified=True, full_rank=True, rank_X=rank(X), rank_K=rank(K),
                    d=d, dk=dk, detail="no keys given: W = I (full rank)")
    rX, rK = rank(X), rank(K)
    rXK = rank([x + k for x, k in zip(X, K)])
    exists = rXK == rX
    if not exists:
        return dict(exists=False, identified=False, full_rank=False, rank_X=rX, rank_K=rK, d=d, dk=dk,
                    detail=f"keys are not a linear image of the tokens: rank[X|K] = {rXK} > rank X = {rX}")
    identified = rX == d
    full = (rK == rX) if dk >= d else (dk - rK <= d - rX)
    if identified:
        detail = f"W unique (X has full column rank {d}); rank W = rank K = {rK}, full rank = {min(d, dk)}"
    else:
        detail = (f"W not unique (rank X = {rX} < d = {d}); a full-rank W with K = XW "
                  f"{'exists' if full else 'does not exist'} (rank K = {rK}, d_k = {dk})")
    return dict(exists=True, identified=identified, full_rank=full, rank_X=rX, rank_K=rK, d=d, dk=dk,
                detail=detail)


# ----- the check ---------------------------------------------------------------------------------
_OPS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}


def exact_evidence(quantity: str, value, relation: str = "~", bound=None, note: str = "") -> Evidence:
    """Evidence for exact rationals: decided exactly (a tie such as 1 >= 1 is certain), stored as arb
    balls of the working precision (the report prints them; the decision never goes through them)."""
    holds = _OPS[relation](Fraction(value), Fraction(bound)) if relation != "~" else None
    return Evidence(quantity, to_arb(Fraction(value)), relation,
                    None if bound is None else to_arb(Fraction(bound)), holds=holds, note=note)


def common_hypotheses(data: Dataset) -> list[Hypothesis]:
    pos = all(y == 1 for y in data.Y)
    opts = data.optimal_tokens()
    strict = all(len(o) == 1 for o in opts)
    return [
        Hypothesis("Y_i = 1 for every i", pos, "labels " + ", ".join(f"{y:+d}" for y in data.Y)),
        Hypothesis("strict optimal token: γ_it < γ_{i,opt_i} for t ≠ opt_i", strict,
                   "opt = " + ", ".join("{" + ",".join(map(str, o)) + "}" for o in opts)),
    ]


def certificate(data: Dataset, gap_scale=1):
    """(γ_gap, p̂, margins) with p̂ = p₀/(gap_scale·γ_gap), p₀ the min-norm solution of K p = X v;
    None when K p = X v has no solution. ``gap_scale`` ≠ 1 is a wrong certificate for tests."""
    X, K = stacked(data)
    gam = [sum((a * b for a, b in zip(x, data.v)), Fraction(0)) for x in X]  # vᵀx (unsigned)
    p0 = min_norm_solution(K, gam)
    if p0 is None:
        return None
    opts = [o[0] for o in data.optimal_tokens()]
    g = data.scores
    gap = min(g[i][opts[i]] - g[i][t] for i in range(data.n) for t in range(data.T) if t != opts[i])
    if gap <= 0:
        return None
    c = Fraction(gap_scale) * gap
    p_hat = [x / c for x in p0]
    keys = data.keys()
    margins = {}
    for i in range(data.n):
        o = opts[i]
        for t in range(data.T):
            if t != o:
                margins[(i, t)] = sum(((a - b) * x for a, b, x in zip(keys[i][o], keys[i][t], p_hat)), Fraction(0))
    return gap, p_hat, margins


def evaluate(data: Dataset, prec: Precision, variant: str = "lemma2", require_hypotheses: bool = True,
             gap_scale=1) -> Outcome:
    """Lemma 2 (``variant='lemma2'``: full-rank W) or Lemma 11 (``'lemma11'``: v ∈ range(W)).
    With ``require_hypotheses=False`` the conclusion is tested on any data (tests: VIOLATED)."""
    from verify.svm import solve_svm

    out = Outcome()
    hyps = common_hypotheses(data)
    ws = w_structure(data)
    X, K = stacked(data)
    if variant == "lemma2":
        hyps.append(Hypothesis("W full rank (some W with K_i = X_i W has rank min(d, d_k))",
                               ws["exists"] and ws["full_rank"], ws["detail"]))
    else:
        gam = [sum((a * b for a, b in zip(x, data.v)), Fraction(0)) for x in X]
        solvable = ws["exists"] and min_norm_solution(K, gam) is not None
        detail = ("K p = X v is solvable, i.e. v ∈ range(W) for some W with K = XW"
                  if solvable else ("keys are not of the form X W" if not ws["exists"]
                                    else "X v ∉ range(K): no W with K = XW has v in its range"))
        hyps.append(Hypothesis("v ∈ range(W) (for a W with K_i = X_i W)", solvable, detail))
    if require_hypotheses:
        out.hypotheses = hyps
        if not all(h.met for h in hyps):
            return out
    else:
        out.notes.append("hypotheses NOT enforced (test mode): " +
                         "; ".join(f"{h.name}: {'met' if h.met else 'NOT met'}" for h in hyps))
        if not hyps[1].met:  # a tie: opt is not defined, nothing to test
            out.hypotheses = hyps[1:2]
            return out

    res = solve_svm(data, "p", "opt", prec.dps, check_unique=False)
    if res.status == "optimal":
        pmm2 = sum((x * x for x in res.solution), Fraction(0))
        out.evidence.append(Evidence("ATT-SVM(opt) feasible (exact solver)", "optimal", "~", holds=True,
                                     note=f"support tokens {res.support}"))
    else:
        pmm2 = None
        far = res.farkas
        out.evidence.append(Evidence(
            "ATT-SVM(opt) feasible (exact solver)", "infeasible", "~", holds=False,
            note=(f"Farkas certificate λ ≥ 0 on rows {far.rows}, residual {far.residual}" if far else "infeasible")))

    cert = certificate(data, gap_scale)
    if cert is None:
        out.evidence.append(Evidence("certificate p̂ = W^†v/γ_gap exists (K p = Xv solvable, γ_gap > 0)",
                                     "no", "~", holds=False))
        return out
    gap, p_hat, margins = cert
    (iw, tw), mmin = min(margins.items(), key=lambda kv: kv[1])
    out.evidence.append(exact_evidence(
        "min_{i,t≠opt} (k_{i,opt} − k_it)ᵀ p̂,  p̂ = W^†v/γ_gap (exact rational)", mmin, ">=", 1,
        note=f"attained at sequence {iw}, token {tw}; {len(margins)} margins checked exactly"))
    ph2 = sum((x * x for x in p_hat), Fraction(0))
    if pmm2 is not None:
        out.evidence.append(exact_evidence("‖p^mm‖² (exact ATT-SVM) ≤ ‖p̂‖²", pmm2, "<=", ph2))
    out.evidence.append(exact_evidence("γ_gap = min_i min_{t≠opt}(γ_{i,opt} − γ_it)", gap))
    keys_ = sorted(margins)
    series = [Series("p̂ = W^†v/γ_gap", list(range(len(keys_))), [float(margins[k]) for k in keys_], "o")]
    if pmm2 is not None:
        keys = data.keys()
        mm = {}
        for (i, t) in keys_:
            o = [o_[0] for o_ in data.optimal_tokens()][i]
            mm[(i, t)] = sum(((a - b) * x for a, b, x in zip(keys[i][o], keys[i][t], res.solution)), Fraction(0))
        series.append(Series("p^mm (exact ATT-SVM)", list(range(len(keys_))), [float(mm[k]) for k in keys_], "x"))
    out.figures.append(Figure(
        "margins", "Margins (k_{i,opt} − k_it)ᵀp of the certificate and of p^mm", "constraint (i, t), in order",
        "margin", series, hlines=[(1.0, "ATT-SVM constraint")],
        caption="Both lie on or above 1: p̂ is feasible, so p^mm exists and ‖p^mm‖ ≤ ‖p̂‖. Constraints: " +
                ", ".join(f"{k}" for k in keys_[:12]) + ("…" if len(keys_) > 12 else "")))
    out.notes.append("p̂ = " + "(" + ", ".join(str(x) for x in p_hat) + ")" +
                     (f"; p^mm = ({', '.join(str(x) for x in res.solution)})" if pmm2 is not None else ""))
    return out


def check(data, prec: Precision) -> Outcome:
    return evaluate(data, prec, "lemma2")


def keyed_full_rank_dataset() -> Dataset:
    """n = 2, T = 3, d = 2, keys K_i = X_i W with the full-rank W = [[2, 1], [−1, 1]] (rational)."""
    X = [[[1, "1/2"], [0, 1], ["-1/2", 0]], [[2, 1], [1, -1], [0, 0]]]
    W = [[2, 1], [-1, 1]]
    Xf = [[[Fraction(x) for x in tok] for tok in seq] for seq in X]
    K = [[[sum(tok[a] * W[a][b] for a in range(2)) for b in range(2)] for tok in seq] for seq in Xf]
    return Dataset.make(X=X, Y=[1, 1], v=[1, 3], K=[[[str(x) for x in k] for k in seq] for seq in K],
                        name="keys-XW-full-rank")


def default_datasets(seed: int = 0):
    return [
        random_dataset(n=3, T=4, d=3, seed=seed, labels="positive", name=f"random-positive-n3T4d3-s{seed}"),
        keyed_full_rank_dataset(),
        random_dataset(n=2, T=3, d=1, seed=seed + 1, labels="positive", name=f"random-positive-n2T3d1-s{seed + 1}"),
    ]


CLAIM = register(Claim(
    id="mmts.lemma2",
    paper="mmts",
    number="Lemma 2",
    title="ATT-SVM(opt) is feasible for positive labels and full-rank W",
    kind="existential",
    statement=(
        "If for all i and t ≠ opt_i: γ_it < γ_{i,opt_i} and Y_i = 1, and W is full rank, then (ATT-SVM) "
        "with α = opt is feasible. Witness: p̂ = W^†v/γ_gap, γ_gap = min_i min_{t≠opt_i}(γ_{i,opt_i} − γ_it), "
        "with every margin (k_{i,opt} − k_it)ᵀp̂ ≥ 1; hence ‖p^mm‖ ≤ ‖p̂‖ (Sec. 2.1).\n\n"
        "Checked exactly in rationals: margins of p̂ (built at key level as the min-norm solution of "
        "K p = Xv divided by γ_gap), the exact ATT-SVM, and ‖p^mm‖² ≤ ‖p̂‖²."
    ),
    check=check,
    default_datasets=default_datasets,
    aliases=("svm-feasible-positive-labels",),
    recompute=False,  # exact rational arithmetic: nothing depends on the working precision
    module=__name__,
))
