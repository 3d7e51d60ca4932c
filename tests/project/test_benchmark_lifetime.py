"""The lifetime benchmark keeps running, and its memory loses nothing to compaction."""

from __future__ import annotations

from benchmarks.lifetime import artifact_bytes, simulate


def test_a_short_busy_history_keeps_every_entry_and_bounds_the_live_index() -> None:
    sim = simulate(years=0.25, pushes_per_day=6, days=14)
    live, archive = sim.live["entries"], sim.archive["entries"]
    ids = [e["id"] for e in live] + [e["id"] for e in archive]
    # Two entries a push (an eval result and a baseline), each in exactly one place.
    assert len(ids) == len(set(ids)) == 2 * sim.pushes
    # Two weeks of settled entries at most stay live, plus a week until the next job.
    assert len(live) <= 2 * 6 * (14 + 7) + 2
    assert sim.max_live < 2 * sim.pushes
    index_size, archive_size, zipped = artifact_bytes(sim.live, sim.archive)
    assert 0 < zipped < index_size + archive_size
