"""`okgin serve`'s process settings (``okgin.server.serve``): the collector, once the app is made."""

from __future__ import annotations

import gc

from okgin.server.serve import YOUNG_OBJECTS_BEFORE_COLLECTING, settle_memory


def test_settle_memory_hides_what_exists_from_the_collector_and_collects_less_often() -> None:
    before = gc.get_threshold()
    try:
        existing = [[n] for n in range(1000)]  # tracked containers, made before
        settle_memory()
        assert gc.get_freeze_count() >= len(existing)
        assert gc.get_threshold() == (YOUNG_OBJECTS_BEFORE_COLLECTING, 20, 20)
        watched = {id(thing) for thing in gc.get_objects()}
        assert not any(id(item) in watched for item in existing)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
