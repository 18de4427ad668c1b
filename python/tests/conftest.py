import gc

import pytest

import nrt


def live():
    """Objects and bytes nrt holds now (alloc - free, mi_alloc - mi_free)."""
    gc.collect()
    s = nrt.stats()
    return s["alloc"] - s["free"], s["mi_alloc"] - s["mi_free"], s["live_bytes"]


@pytest.fixture
def balanced():
    """Checks that a test leaves nrt's statistics as it found them (compiled UDFs are
    compiled by the test body before the first measurement is taken by calling warm())."""
    state = {}

    def warm():
        state["before"] = live()

    yield warm
    if "before" in state:
        assert live() == state["before"]
