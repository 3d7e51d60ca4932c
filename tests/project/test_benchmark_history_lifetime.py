"""The history lifetime benchmark keeps running, and its figures stay within the bounds."""

from __future__ import annotations

from benchmarks.history_lifetime import simulate
from riverbed.memory.history import MAX_KEYS, MAX_KEYS_BYTES


def test_churning_messages_reach_the_cap_and_stay_there() -> None:
    figures = simulate("churn", years=80 / (365 * 50), per_day=50)
    assert figures["pushes"] == 80 and figures["entries written"] == 80
    assert figures["keys at most"] == figures["keys at the end"] == MAX_KEYS
    assert figures["keys left: for the caps"] == 80 * 200 - MAX_KEYS
    assert figures["live entry bytes at most (sampled every 100 writes)"] < MAX_KEYS_BYTES + 100_000


def test_a_steady_repository_stays_under_the_caps() -> None:
    figures = simulate("steady", years=0.02, per_day=50)
    assert 2_000 <= figures["keys at the end"] < MAX_KEYS
    assert figures["keys left: for the caps"] == 0
    assert 0 < figures["stub bytes (largest)"] < 2_000
