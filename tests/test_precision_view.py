"""The dataset's working-precision view (``LinearLogitModel.from_dataset``): built once per (parameterisation,
named loss, precision) and shared by every layer; exact features computed once; never carried through pickling
(worker processes rebuild it at their own precision)."""
import pickle
from fractions import Fraction

from verify.data import tfsvm as D
from verify.models.attention import LinearLogitModel, features
from verify.models.losses import get_loss
from verify.numbers.precision import working_precision


def test_one_model_per_parameterisation_loss_and_precision():
    data = D.d_t2()
    with working_precision(30):
        m = LinearLogitModel.from_dataset(data, "W", "logistic")
        assert LinearLogitModel.from_dataset(data, "W", "logistic") is m
        assert LinearLogitModel.from_dataset(data, "W", "exponential") is not m
        assert LinearLogitModel.from_dataset(data, "p", "logistic") is not m
        with working_precision(60):
            high = LinearLogitModel.from_dataset(data, "W", "logistic")
            assert high is not m and LinearLogitModel.from_dataset(data, "W", "logistic") is high
        # a Loss object of the caller's own is never cached
        own = get_loss("logistic")
        assert LinearLogitModel.from_dataset(data, "W", own) is not LinearLogitModel.from_dataset(data, "W", own)


def test_exact_features_are_the_definition_and_computed_once():
    """F_it = vec(x_it z_iᵀ) row-major (W) and x_it ⊙ z_i (diag), recomputed here from the data."""
    data = D.d_t2()
    Z = data.queries()
    want_w = tuple(tuple(tuple(Fraction(a) * b for a in x for b in z) for x in seq) for seq, z in zip(data.X, Z))
    want_diag = tuple(tuple(tuple(Fraction(a) * b for a, b in zip(x, z)) for x in seq) for seq, z in zip(data.X, Z))
    assert features(data, "W") == want_w and features(data, "W") is features(data, "W")
    assert features(data, "diag") == want_diag


def test_the_view_is_not_pickled():
    data = D.d_t2()
    with working_precision(30):
        LinearLogitModel.from_dataset(data, "W")
    assert data._cache
    copy = pickle.loads(pickle.dumps(data))
    assert copy == data and copy._cache == {}
    with working_precision(30):
        assert LinearLogitModel.from_dataset(copy, "W").opt == LinearLogitModel.from_dataset(data, "W").opt


def test_a_changed_dataset_does_not_share_the_view():
    data = D.d_t2()
    with working_precision(30):
        m = LinearLogitModel.from_dataset(data, "W")
        other = data.replace(v=[str(2 * x) for x in data.v])
        assert LinearLogitModel.from_dataset(other, "W") is not m
        assert other.scores != data.scores
