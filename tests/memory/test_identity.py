"""riverbed's identity as memory records it: read (pure), written once per login (the store)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.jsonbytes import dumps_js
from riverbed.index.schema import check_entry
from riverbed.index.storage import read_index
from riverbed.memory.identity import (
    DEFAULT_IDENTITY,
    Identity,
    identity_entry,
    is_identity_entry,
    recorded_identity,
)
from riverbed.memory.record_identity import record_identity

NOW = datetime.now(UTC).replace(microsecond=0)
LOGINS = st.sampled_from(["github-actions[bot]", "riverbed-app[bot]", "other[bot]", "alice"])


def test_an_entry_is_valid_and_is_read_back() -> None:
    entry = identity_entry("riverbed-app[bot]", how="a test", now=NOW, entry_id="identity-1")
    check_entry(entry)
    assert is_identity_entry(entry)
    index = {"version": "1", "entries": [entry]}
    assert recorded_identity(index) == Identity("riverbed-app[bot]", "memory")
    assert recorded_identity({"version": "1", "entries": []}) == DEFAULT_IDENTITY


def test_who_counts_as_riverbed() -> None:
    app = Identity("riverbed-app[bot]", "memory")
    assert app.wrote("riverbed-app[bot]", is_bot=True) and app.wrote("riverbed-app", is_bot=True)
    assert not app.wrote("riverbed-app[bot]", is_bot=False)  # a person cannot be a bot
    assert not app.wrote("github-actions[bot]", is_bot=True) and not app.wrote("", is_bot=True)
    assert not app.shared and DEFAULT_IDENTITY.shared


@given(st.lists(LOGINS, min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_the_newest_recorded_login_wins_and_each_change_is_one_entry(logins: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "index.json"
        path.write_bytes(dumps_js({"version": "1", "entries": []}))
        for at, login in enumerate(logins):
            record_identity(path, login, how="a test", now=NOW + timedelta(seconds=at))
        index = read_index(path)
        pins = [e for e in index["entries"] if is_identity_entry(e)]
        changes = [a for n, a in enumerate(logins) if n == 0 or logins[n - 1] != a]
        assert len(pins) == len(changes)  # the same login again writes nothing
        assert recorded_identity(index) == Identity(logins[-1], "memory")
        active = [e for e in pins if e.get("status", "active") == "active"]
        assert len(active) == 1  # each new login supersedes the one before
