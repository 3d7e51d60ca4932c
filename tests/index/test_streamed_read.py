"""The streamed read changes no answer: every file reads as the full read reads it.

`streamed_read.read_streamed` validates an index a piece at a time; whatever it cannot
vouch for it declines, and the full read in `storage` decides. Each case here is loaded
twice, once as shipped and once with the streamed read turned off, and the outcomes (the
document and its warnings, or the error's message) must be the same; where the streamed
read answers, the full read must accept the file too.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Required, get_origin, get_type_hints

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from riverbed import load_memory
from riverbed.errors import CorruptIndexError
from riverbed.index import schema_types, storage, streamed_read, whole_read
from riverbed.index.build import build_entry
from riverbed.index.dates import is_valid_date, parse_expires_at
from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import ENTRY_TYPES
from riverbed.index.schema import ENTRY_SCHEMA, INDEX_SCHEMA, load_schema

NOW = parse_expires_at("2026-06-01T12:00:00Z")


def _entry(entry_id: str, **extra: Any) -> dict[str, Any]:
    """A valid entry from the library's builder (any id, even one it would refuse), changed."""
    built = build_entry(
        type="pattern",
        title=f"title {entry_id}",
        content=f"content {entry_id}",
        author="t",
        now=NOW,
        tags=["a"],
        entry_id=entry_id or "placeholder",
    )
    return {**built, "id": entry_id, **extra}


def _index(entries: list[dict[str, Any]], **root: Any) -> dict[str, Any]:
    return {"entries": entries, "version": "1", **root}


@contextmanager
def _streamed_off() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(storage, "read_streamed", lambda _path: None)
        yield


def _outcome(path: Path) -> tuple[str, Any, list[str]]:
    warned: list[str] = []
    try:
        index = load_memory(path, on_warning=warned.append)
    except CorruptIndexError as error:
        return "refused", str(error), warned
    return "index", orjson.dumps(index), warned  # the very values: ints stay ints


def same_either_way(path: Path) -> tuple[str, Any, list[str]]:
    """Load `path` both ways; the outcomes must be equal, and an answer must be one the full
    read gives too."""
    streamed = streamed_read.read_streamed(path)
    shipped = _outcome(path)
    with _streamed_off():
        full = _outcome(path)
    assert shipped == full
    if streamed is not None:
        assert full[0] == "index", "the streamed read vouched for a file the full read refuses"
        assert orjson.dumps(streamed[0]) == full[1]
    return shipped


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "index.json"
    path.write_bytes(data)
    return path


def test_a_file_riverbed_wrote_is_read_streamed_and_not_read_whole_again(tmp_path: Path) -> None:
    document = _index([_entry(f"e{n}", expiresAt="2027-01-01") for n in range(50)])
    path = _write(tmp_path, dumps_js(document))
    streamed = streamed_read.read_streamed(path)
    assert streamed is not None
    assert streamed[0] == document and streamed[1] == frozenset()
    validated: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(whole_read, "parse_whole", lambda *a, **k: validated.append("whole"))
        assert load_memory(path) == document
    assert validated == []


def test_pieces_across_many_blocks_and_an_entry_larger_than_the_buffer(tmp_path: Path) -> None:
    block = streamed_read.BLOCK
    entries = [_entry(f"e{n}", content="x" * 900) for n in range(4 * block // 1000)]
    entries.insert(7, _entry("huge", content="y" * (3 * block)))  # the buffer must grow
    document = _index(entries, generatedAt="2026-06-01T00:00:00.000Z")
    path = _write(tmp_path, dumps_js(document))
    streamed = streamed_read.read_streamed(path)
    assert streamed is not None and streamed[0] == document
    assert same_either_way(path)[0] == "index"


def test_bytes_with_no_entry_end_stop_the_buffer_growing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another layout after a matching head (a hostile file, or one entry of megabytes):
    # the buffer stops growing at MAX_ENTRY and the full read decides, one copy in memory.
    monkeypatch.setattr(streamed_read, "MAX_ENTRY", 4 * streamed_read.BLOCK)
    head = b'{\n  "version": "1",\n  "entries": [\n    '
    path = _write(tmp_path, head + json.dumps(_entry("a", content="z" * (9 << 20))).encode())
    assert streamed_read.read_streamed(path) is None
    assert same_either_way(path)[0] == "refused"
    fits = _index([_entry("big", content="y" * (3 * streamed_read.BLOCK))])
    assert streamed_read.read_streamed(_write(tmp_path, dumps_js(fits))) is not None


@pytest.mark.parametrize(
    "layout",
    ["version first", "entries first", "generatedAt last"],
)
def test_both_root_layouts_are_read_streamed(tmp_path: Path, layout: str) -> None:
    entries = [_entry("a"), _entry("b")]
    document = {
        "version first": {"version": "1", "entries": entries},
        "entries first": {"entries": entries, "version": "1"},
        "generatedAt last": {"version": "1", "entries": entries, "generatedAt": "2026-01-01"},
    }[layout]
    path = _write(tmp_path, dumps_js(document))
    assert streamed_read.read_streamed(path) is not None
    assert same_either_way(path)[0] == "index"


def _canonical(document: Any) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


DECLINED: dict[str, bytes] = {
    "four-space indent": json.dumps(_index([_entry("a")]), indent=4).encode(),
    "compact": json.dumps(_index([_entry("a")])).encode(),
    "no final newline": _canonical(_index([_entry("a")]))[:-1],
    "two final newlines": _canonical(_index([_entry("a")])) + b"\n",
    "trailing garbage": _canonical(_index([_entry("a")])) + b"{}",
    "no entries": _canonical(_index([])),
    "cut inside an entry": _canonical(_index([_entry("a"), _entry("b")]))[:-40],
    "an escape orjson would not write": _canonical(_index([_entry("a")])).replace(
        b"title a", b"title \\u0061"
    ),
    "a number orjson spells otherwise": _canonical(
        _index([_entry("a", context={"n": 1500.0})])
    ).replace(b"1500.0", b"1.5E3"),
}


@pytest.mark.parametrize("case", sorted(DECLINED))
def test_other_layouts_are_declined_and_read_in_full(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, DECLINED[case])
    assert streamed_read.read_streamed(path) is None
    same_either_way(path)


def _entry_lines(entry: dict[str, Any]) -> bytes:
    return _canonical(_index([entry]))


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"k": value}
    return value


REFUSED: dict[str, bytes] = {
    "a repeated key in an entry": _entry_lines(_entry("a")).replace(
        b'      "type": "pattern",\n', b'      "type": "pattern",\n      "type": "adr",\n'
    ),
    "a repeated key in the root": _canonical(_index([_entry("a")])).replace(
        b'  "version": "1"\n', b'  "version": "1",\n  "version": "1"\n'
    ),
    "a repeated id": _canonical(_index([_entry("a"), _entry("b"), _entry("a")])),
    "a repeated tag": _canonical(
        _index([_entry("a", metadata={"createdAt": "x", "author": "t", "tags": ["t", "t"]})])
    ),
    "an unknown entry key": _canonical(_index([_entry("a", extra=1)])),
    "an unknown metadata key": _canonical(
        _index([_entry("a", metadata={"createdAt": "x", "author": "t", "extra": 1})])
    ),
    "an unknown root key": _canonical(_index([_entry("a")], extra=1)),
    "an unknown type": _canonical(_index([_entry("a", type="unknown")])),
    "an empty id": _canonical(_index([_entry("")])),
    "confidence above 1": _canonical(
        _index([_entry("a", metadata={"createdAt": "x", "author": "t", "confidence": 2})])
    ),
    "a boolean confidence": _canonical(
        _index([_entry("a", metadata={"createdAt": "x", "author": "t", "confidence": True})])
    ),
    "version 2": _canonical({"entries": [_entry("a")], "version": "2"}),
    "nesting too deep in a context": _canonical(_index([_entry("a", context=_nested(70))])),
    "a lone surrogate": _canonical(_index([_entry("a")])).replace(b"title a", b"\\ud800"),
    "a second document after the first": _canonical(_index([_entry("a")]))
    + _canonical(_index([_entry("b")])),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_the_full_read_refuses_is_never_vouched_for(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, REFUSED[case])
    assert streamed_read.read_streamed(path) is None
    assert same_either_way(path)[0] == "refused"


def _listed(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("how", ["objects", "arrays", "under expiresAt", "beside a date"])
@pytest.mark.parametrize("depth", [58, 61, 62, 70])
def test_a_context_at_the_nesting_limit_is_read_one_past_it_refused(
    tmp_path: Path, how: str, depth: int
) -> None:
    # `context` is an entry's level 4: 61 more levels inside it reach 64, the limit. The
    # streamed read checks that in its validator (not in the bytes): either way the answer
    # is the full read's, and only a file within the limit is vouched for.
    inner = _listed(depth - 1) if how == "arrays" else _nested(depth - 1)
    context = {
        "objects": {"k": inner},
        "arrays": {"k": inner},
        "under expiresAt": {"expiresAt": inner},
        "beside a date": {"expiresAt": "2027-01-01", "rule": inner},
    }[how]
    path = _write(tmp_path, dumps_js(_index([_entry("a", context=context)])))
    streamed = streamed_read.read_streamed(path)
    kind, message, _ = same_either_way(path)
    if depth <= 61:
        assert kind == "index" and streamed is not None
    else:
        assert kind == "refused" and streamed is None
        assert "nest deeper than 64 levels" in message


def test_entry_text_that_looks_like_layout_cannot_split_a_piece(tmp_path: Path) -> None:
    # Strings cannot hold a raw newline, so text spelling an entry's end is escaped and the
    # piece boundaries are not fooled (an attacker controls entry text in shared memory).
    sneaky = '\n    },\n    {\n      "id": "forged",\n'
    document = _index([_entry("a", content=sneaky), _entry("b", title=sneaky * 3)])
    path = _write(tmp_path, dumps_js(document))
    streamed = streamed_read.read_streamed(path)
    assert streamed is not None and [e["id"] for e in streamed[0]["entries"]] == ["a", "b"]
    same_either_way(path)


@pytest.mark.parametrize(
    ("expiry", "warned"),
    [
        ("2028-02-29", False),  # a leap day: a plain date
        ("2027-02-29", True),  # not a day
        ("9999-12-31", False),  # valid, beyond the plain pattern: checked by is_valid_date
        ("2026-06-01T10:00:00.1234567890123+05:30", False),
        ("soon", True),
    ],
)
def test_expiry_warnings_are_the_full_reads(tmp_path: Path, expiry: str, warned: bool) -> None:
    entries = [_entry("top", expiresAt=expiry), _entry("ctx", context={"expiresAt": expiry})]
    path = _write(tmp_path, dumps_js(_index(entries)))
    assert streamed_read.read_streamed(path) is not None
    kind, _, warnings = same_either_way(path)
    assert kind == "index"
    assert len(warnings) == (2 if warned else 0)


def test_the_types_mirror_the_shipped_schema() -> None:
    entry_schema, index_schema = load_schema(ENTRY_SCHEMA), load_schema(INDEX_SCHEMA)
    metadata_schema = entry_schema["properties"]["metadata"]
    for typed, schema in [
        (schema_types.ParsedEntry, entry_schema),
        (schema_types.ParsedMetadata, metadata_schema),
        (schema_types.ParsedIndex, index_schema),
    ]:
        assert set(get_type_hints(typed)) == set(schema["properties"])
        hints = get_type_hints(typed, include_extras=True)
        required = {key for key, hint in hints.items() if get_origin(hint) is Required}
        assert required == set(schema["required"])
        assert schema["additionalProperties"] is False  # else dropped keys would be lost
    assert set(entry_schema["properties"]["type"]["enum"]) == set(ENTRY_TYPES)


@given(st.from_regex(schema_types.PLAIN_DATE_PATTERN, fullmatch=True))
def test_every_plain_date_is_a_valid_expiry(value: str) -> None:
    assert is_valid_date(value)


_DATE_LIKE = st.builds(
    "{}-{}-{}{}".format,
    st.sampled_from(["0000", "0999", "1000", "1900", "2000", "2024", "2100", "8999", "9999"]),
    st.sampled_from(["00", "01", "02", "04", "12", "13"]),
    st.sampled_from(["00", "01", "28", "29", "30", "31", "32"]),
    st.sampled_from(
        [
            "",
            "T00:00:00Z",
            "t23:59:59z",
            "T24:00:00Z",
            "T10:00:60Z",
            "T10:00:00+23:59",
            "T10:00:00+24:00",
            "T10:00:00.5Z",
            "T10:00:00.Z",
            "\n",
            " ",
        ]
    ),
)


@given(st.one_of(_DATE_LIKE, st.text(alphabet=string.digits + "-:TZ+.", max_size=30)))
def test_pythons_and_the_validators_regex_agree(value: str) -> None:
    python = re.fullmatch(schema_types.PLAIN_DATE_PATTERN[1:-1], value) is not None
    rust = schema_types.remaining_checks().is_valid([{"expiresAt": value}])
    assert python == rust
    if python:
        assert is_valid_date(value)


_TEXT = st.text(max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)
_DATES = st.sampled_from(["2026-01-01", "2028-02-29", "2027-02-29", "1.5", "9999-12-31"])
# One way each to break an entry the schema's way; most drawn entries are valid.
_BREAKS: dict[str, Any] = {
    "id": st.sampled_from(["", 7, None]),
    "type": st.sampled_from(["unknown", 1]),
    "status": st.sampled_from(["gone", None]),
    "content": st.integers(),
    "extra": _JSON,
    "metadata.phase": st.just("nowhere"),
    "metadata.tags": st.just(["t", "t"]),
    "metadata.confidence": st.sampled_from([2, -0.1, True, "1"]),
    "metadata.author": st.none(),
    "metadata.unknown": _JSON,
    "context": st.lists(_JSON, max_size=1),
}


@st.composite
def _entries(draw: st.DrawFn) -> dict[str, Any]:
    metadata: dict[str, Any] = {"createdAt": draw(_TEXT | _DATES), "author": draw(_TEXT)}
    for key, value in [
        ("phase", st.sampled_from(["upstream", "midstream", "downstream"])),
        ("tags", st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True)),
        ("relatedFiles", st.lists(_TEXT, max_size=2, unique=True)),
        ("confidence", st.sampled_from([0, 1, 0.5, 1.0, 0.25])),
        ("links", st.lists(_TEXT, max_size=1)),
        ("summary", _TEXT),
    ]:
        if draw(st.booleans()):
            metadata[key] = draw(value)
    entry: dict[str, Any] = {
        "id": draw(st.text(min_size=1, max_size=8)),
        "type": draw(st.sampled_from(ENTRY_TYPES)),
        "content": draw(_TEXT),
        "metadata": metadata,
    }
    for key, value in [
        ("title", _TEXT),
        ("status", st.sampled_from(["active", "archived", "superseded"])),
        ("expiresAt", _DATES),
        (
            "context",
            st.dictionaries(_TEXT, _JSON, max_size=3)
            | st.fixed_dictionaries({"expiresAt": _DATES | _JSON}),
        ),
        ("supersededBy", _TEXT),
    ]:
        if draw(st.booleans()):
            entry[key] = draw(value)
    if draw(st.integers(0, 5)) == 0:
        where = draw(st.sampled_from(sorted(_BREAKS)))
        holder, _, key = where.rpartition(".")
        (entry[holder] if holder else entry)[key] = draw(_BREAKS[where])
    return entry


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    entries=st.lists(_entries(), min_size=1, max_size=5),
    writer=st.sampled_from(["riverbed", "orjson", "json"]),
    cut=st.integers(0, 40),
)
def test_random_documents_read_the_same_either_way(
    tmp_path: Path, entries: list[dict[str, Any]], writer: str, cut: int
) -> None:
    document = _index(entries)
    try:
        data = {
            "riverbed": dumps_js,
            "orjson": _canonical,
            "json": lambda d: json.dumps(d, indent=2, ensure_ascii=False).encode() + b"\n",
        }[writer](document)
    except (TypeError, ValueError, orjson.JSONEncodeError):
        return  # NaN, integers beyond 64 bits: nothing to write
    if cut % 7 == 0:  # a damaged copy: a byte taken out
        data = data[:cut] + data[cut + 1 :]
    same_either_way(_write(tmp_path, data))


def test_an_empty_expiry_warns_on_either_read(tmp_path: Path) -> None:
    """Found by the property above on CI: an expiry of '' is unparseable, not absent."""
    entry = {
        "id": "1",
        "type": "adr",
        "content": "",
        "metadata": {"createdAt": "", "author": ""},
        "context": {"expiresAt": ""},
    }
    kind, _, warned = same_either_way(_write(tmp_path, dumps_js(_index([entry]))))
    assert kind == "index" and len(warned) == 1 and "unparseable expiry ''" in warned[0]
