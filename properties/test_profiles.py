"""The searches' sizes follow the hypothesis profile: ``examples(n)`` is n examples under ``ci`` and 80 n under
``deep`` (2000/25), so HYPOTHESIS_PROFILE=deep lengthens every property search, including those CI keeps short."""
import os

from hypothesis import settings

from properties.strategies import examples


def test_examples_scale_with_the_profile():
    loaded = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    try:
        settings.load_profile("ci")
        assert [examples(n).max_examples for n in (1, 4, 25)] == [1, 4, 25]
        settings.load_profile("deep")
        assert [examples(n).max_examples for n in (1, 4, 25)] == [80, 320, 2000]
    finally:
        settings.load_profile(loaded)
