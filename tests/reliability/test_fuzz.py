"""Counted fuzzing of the parsers: only RiverbedError subclasses escape, and nothing hangs.

Sizes are bounded, and each example is timed: the slowest one is a reported figure and must
stay far below a second, so a parser that went quadratic or looped would fail here.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import reliability_support as support
from hypothesis import given
from hypothesis import strategies as st

from riverbed import RiverbedError, merge_indexes, parse_expires_at, validate_index
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.lifecycle import expire
from riverbed.index.query import query_memory
from riverbed.index.storage import parse_index_bytes
from riverbed.index.store import date_warnings

SETTINGS = support.examples(500, 10_000)
SLOWEST_ALLOWED = 2.0  # seconds for one bounded example on a loaded 2-core machine


def fuzz_call(target: str, func: Callable[[], Any]) -> Any:
    """Call `func`; a non-RiverbedError escapes as a failure. Returns its value or None."""
    started = time.perf_counter()
    try:
        return func()
    except RiverbedError as exc:
        assert str(exc), "an error must say something"
        return None
    finally:
        elapsed = time.perf_counter() - started
        support.peak(f"fuzz slowest example ms: {target}", round(elapsed * 1000))
        assert elapsed < SLOWEST_ALLOWED, f"{target} took {elapsed:.2f}s on one bounded input"
        support.count(f"fuzz examples: {target}")


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", "2026-01-01", "2026-02-30", "1", "active", "archived", "suppression"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=25,
)
FIELDS = [
    "id",
    "type",
    "title",
    "content",
    "metadata",
    "context",
    "status",
    "supersededBy",
    "expiresAt",
    "createdAt",
    "updatedAt",
    "author",
    "phase",
    "tags",
    "relatedFiles",
    "links",
    "confidence",
    "summary",
    "active",
    "fingerprint",
    "match",
    "feedbackType",
]


@st.composite
def entry_like(draw: st.DrawFn) -> Any:
    """An object with the index's field names and values that are sometimes right."""
    entry = support.make_entry(draw(st.sampled_from(["a", "b", "c", "d"])))
    for _ in range(draw(st.integers(0, 4))):
        target = entry
        if draw(st.booleans()) and isinstance(entry.get("metadata"), dict):
            target = entry["metadata"]
        key = draw(st.sampled_from(FIELDS))
        if draw(st.integers(0, 3)) == 0:
            target.pop(key, None)
        else:
            target[key] = draw(json_values)
    return entry


@st.composite
def loadable_index(draw: st.DrawFn) -> Any:
    """Structurally valid, but with any text, any context, any expiry string and status."""
    entries = []
    for number in range(draw(st.integers(0, 5))):
        entry = support.make_entry(f"e{number}")
        entry["content"] = draw(st.text(max_size=40))
        entry["title"] = draw(st.text(max_size=20))
        if draw(st.booleans()):
            entry["context"] = draw(st.dictionaries(st.text(max_size=8), json_values, max_size=4))
        if draw(st.booleans()):
            entry["expiresAt"] = draw(st.one_of(st.text(max_size=25), st.just("2026-01-01")))
        if draw(st.booleans()):
            entry["status"] = draw(st.sampled_from(["active", "superseded", "archived"]))
        if draw(st.booleans()):
            entry["supersededBy"] = draw(st.text(max_size=5))
        entry["type"] = draw(st.sampled_from(["adr", "suppression", "resurface", "eval_result"]))
        entry["metadata"]["createdAt"] = draw(st.sampled_from(["2026-01-01T00:00:00Z", "bad"]))
        entries.append(entry)
    return {"version": "1", "entries": entries}


index_like = st.fixed_dictionaries(
    {
        "version": st.sampled_from(["1", "1", "2", 1, None]),
        "entries": st.lists(entry_like(), max_size=5),
    },
    optional={"generatedAt": json_scalars, "extra": json_values},
)


@st.composite
def mutated_bytes(draw: st.DrawFn) -> bytes:
    """A valid index's bytes, cut, spliced or with bytes flipped."""
    data = bytearray(dumps_js(draw(index_like)))
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, max(0, len(data) - 1)))
        action = draw(st.sampled_from(["flip", "cut", "insert", "delete"]))
        if action == "flip" and data:
            data[position] = draw(st.integers(0, 255))
        elif action == "cut":
            del data[position:]
        elif action == "insert":
            data[position:position] = draw(st.binary(min_size=1, max_size=8))
        elif data:
            del data[position : position + draw(st.integers(1, 16))]
    return bytes(data)


hostile_documents = st.sampled_from(
    [
        b"[" * 5000 + b"]" * 5000,
        b'{"version":"1","entries":[' + b"[" * 3000 + b"]" * 3000 + b"]}",
        b'{"version":"1","entries":[{"id":"\\ud800","type":"adr","content":"","metadata":'
        b'{"createdAt":"2026-01-01T00:00:00Z","author":"a"}}]}',
        b'{"version":"1","entries":[],"n":1' + b"0" * 400 + b"}",
        b'{"version":"1","entries":[],"version":"2"}',
        b'{"version":"1","entries":[]}' + b" " * 1000 + b"x",
    ]
)

index_bytes = st.one_of(
    st.binary(max_size=2000),
    index_like.map(lambda d: json.dumps(d).encode()),
    loadable_index().map(dumps_js),
    mutated_bytes(),
    hostile_documents,
)


def _use_everywhere(index: dict[str, Any]) -> None:
    """An index that loads must be usable by every pure function that reads one."""
    now = datetime(2026, 6, 1, tzinfo=UTC)
    assert isinstance(validate_index(index), list)
    date_warnings(index)
    expire(index, now)
    query_memory(index, text="a", include_inactive=True)
    merged = merge_indexes(index, index).index
    assert {e["id"] for e in merged["entries"]} == {e["id"] for e in index["entries"]}
    again = parse_index_bytes(dumps_js(index), "round trip")
    assert again == index


@SETTINGS
@given(index_bytes)
def test_index_loader_only_raises_riverbed_errors(data: bytes) -> None:
    index = fuzz_call("parse_index_bytes", lambda: parse_index_bytes(data, "fuzz.json"))
    if index is not None:
        fuzz_call("loaded index used everywhere", lambda: _use_everywhere(index))
        support.count("fuzz inputs that loaded")


date_like = st.one_of(
    st.text(max_size=80),
    st.from_regex(
        r"[0-9]{1,5}-[0-9]{1,3}-[0-9]{1,3}([Tt ][0-9]{1,3}:[0-9]{1,3}(:[0-9]{1,3})?"
        r"(\.[0-9]{0,12})?([Zz]|[+-][0-9]{1,3}:[0-9]{1,3})?)?",
        fullmatch=True,
    ),
    st.sampled_from(["0001-01-01T00:00:00+23:59", "9999-12-31T23:59:59-23:59", "٢٠٢٦-٠١-٠١"]),
    st.integers().map(str),
    st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
)


@st.composite
def valid_date_times(draw: st.DrawFn) -> tuple[str, datetime]:
    """An RFC 3339 date-time string and the instant it names (computed independently)."""
    moment = draw(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
    minutes = draw(st.integers(-(23 * 60 + 59), 23 * 60 + 59))
    digits = draw(st.integers(0, 9))
    frac = f".{moment.microsecond:06d}"[: digits + 1] if digits else ""
    if minutes == 0 and draw(st.booleans()):
        offset = draw(st.sampled_from(["Z", "z"]))
    else:
        sign = "-" if minutes < 0 else "+"
        offset = f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    day = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"  # %Y does not pad year 999
    text = f"{day}{draw(st.sampled_from('Tt'))}{moment:%H:%M:%S}{frac}{offset}"
    kept = int((f"{moment.microsecond:06d}"[:digits] + "000000")[:6]) if digits else 0
    instant = moment.replace(microsecond=kept) - timedelta(minutes=minutes)
    return text, instant.replace(tzinfo=UTC)


@SETTINGS
@given(valid_date_times())
def test_parse_expires_at_accepts_every_rfc3339_date_time(case: tuple[str, datetime]) -> None:
    text, instant = case
    parsed = fuzz_call("parse_expires_at (valid date-times)", lambda: parse_expires_at(text))
    assert parsed == instant, text
    support.count("fuzz dates accepted")


@SETTINGS
@given(date_like)
def test_parse_expires_at_only_raises_invalid_expires_at(value: str) -> None:
    parsed = fuzz_call("parse_expires_at", lambda: parse_expires_at(value))
    if parsed is not None:
        assert parsed.tzinfo is not None
        assert parsed.utcoffset() == UTC.utcoffset(None)
        support.count("fuzz dates accepted")
