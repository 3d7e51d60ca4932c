"""The fast parser (msgspec) changes no answer: every read gives what orjson alone gives.

`jsonbytes.loads_fast` parses an index with msgspec; orjson stays the parser of record
(`storage._check_nesting_and_keys` keeps msgspec's document only for bytes orjson would
write back byte for byte). Each case is read twice, once as shipped and once with the fast
parser replaced by orjson, and the two outcomes (the document, or the error's message)
must be the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.errors import CorruptIndexError
from riverbed.index import jsonbytes, storage
from riverbed.index.jsonbytes import dumps_js


def _entry(entry_id: str, **context: Any) -> dict[str, Any]:
    entry = {
        "id": entry_id,
        "type": "pattern",
        "title": f"title {entry_id}",
        "content": f"content {entry_id}",
        "metadata": {"createdAt": "2026-06-01T12:00:00.000Z", "author": "t"},
    }
    return {**entry, "context": context} if context else entry


@contextmanager
def orjson_only() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "loads_fast", jsonbytes.loads)
        patch.setattr(storage._loads, "__defaults__", (jsonbytes.loads,))
        yield


def outcome(data: bytes) -> tuple[str, Any]:
    try:
        return "index", storage.parse_index_bytes(data, "index.json")
    except CorruptIndexError as error:
        return "refused", str(error)


def same_either_way(data: bytes) -> tuple[str, Any]:
    fast = outcome(data)
    with orjson_only():
        strict = outcome(data)
    assert fast == strict
    if fast[0] == "index":  # the very same values, floats and integers included
        assert orjson.dumps(fast[1]) == orjson.dumps(strict[1])
    return fast


VALID = dumps_js({"version": "1", "entries": [_entry("a", note="free"), _entry("b")]})

EDGES: dict[str, bytes] = {
    "canonical": VALID,
    "a byte order mark": b"\xef\xbb\xbf" + VALID,
    "an integer past 64 bits": VALID.replace(
        b'"note": "free"', b'"n": 123456789012345678901234567890, "note": "free"', 1
    ),
    "a huge exponent": VALID.replace(b'"note": "free"', b'"n": 1e400, "note": "free"', 1),
    "minus zero": VALID.replace(b'"note": "free"', b'"n": -0.0, "note": "free"', 1),
    "a float spelled long": VALID.replace(b'"note": "free"', b'"n": 100.000, "note": "free"', 1),
    "a lone surrogate escape": VALID.replace(b'"title a"', b'"title \\ud800"', 1),
    "a surrogate pair escape": VALID.replace(b'"title a"', b'"title \\ud83e\\udd80"', 1),
    "bytes that are not UTF-8": VALID.replace(b"content a", b"content \xff\xfe", 1),
    "a repeated key": VALID.replace(
        b'"type": "pattern",', b'"type": "pattern",\n      "type": "adr",', 1
    ),
    "a trailing comma": VALID.replace(b'"note": "free"', b'"note": "free",', 1),
    "NaN": VALID.replace(b'"note": "free"', b'"author": NaN', 1),
    "nesting 70 deep": VALID.replace(
        b'"note": "free"', b'"x": ' + b"[" * 70 + b"]" * 70 + b', "note": "free"', 1
    ),
    "nesting 300 deep": VALID.replace(
        b'"note": "free"', b'"x": ' + b"[" * 300 + b"]" * 300 + b', "note": "free"', 1
    ),
    "nesting 5000 deep": VALID.replace(
        b'"note": "free"', b'"x": ' + b"[" * 5000 + b"]" * 5000 + b', "note": "free"', 1
    ),
    "a second document": VALID + b"{}",
    "four-space indent": json.dumps(json.loads(VALID), indent=4).encode(),
    "minified": json.dumps(json.loads(VALID), separators=(",", ":")).encode(),
    "escaped slashes and letters": VALID.replace(b'"title b"', b'"\\u0074itle\\/b"', 1),
    "truncated": VALID[:-20],
    "empty": b"",
}


@pytest.mark.parametrize("case", sorted(EDGES))
def test_every_edge_reads_the_same_with_either_parser(case: str) -> None:
    kind, _ = same_either_way(EDGES[case])
    assert kind == ("index" if case in READABLE else "refused")


READABLE = {
    "canonical",
    "an integer past 64 bits",
    "minus zero",
    "a float spelled long",
    "a surrogate pair escape",
    "four-space indent",
    "minified",
    "escaped slashes and letters",
}


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from(["orjson", "json", "json-ascii", "compact"]))
def test_any_context_reads_the_same_with_either_parser(extra: Any, style: str) -> None:
    # `context` is free-form in the entry schema: any value there is a readable index.
    document = {"version": "1", "entries": [_entry("a", extra=extra)]}
    try:
        if style == "orjson":
            data = orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"
        elif style == "compact":
            data = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()
        else:
            data = json.dumps(document, indent=2, ensure_ascii=style == "json-ascii").encode()
    except (orjson.JSONEncodeError, UnicodeEncodeError):
        return  # not representable as JSON bytes at all (an integer past 64 bits for orjson)
    same_either_way(data)
