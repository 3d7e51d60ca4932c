"""The index schema's structural rules as msgspec types, checked while the JSON is parsed.

`streamed_read` parses with these types, so a document they accept has the index schema's
structure (types, required keys, enums, bounds) without a separate validation pass. What
they cannot say is left to `remaining_checks`: unique `tags` and `relatedFiles`, plain
expiry dates, and how deep the free-form `context` nests (a C-speed walk; searching the
bytes for a deeply indented line took 17 ms of a 100k read, this about 2). Unknown
keys are dropped by msgspec rather than refused; the reader compares the bytes with their
re-serialization, so a dropped key (which `additionalProperties: false` refuses) shows as a
difference and the full read decides. tests/index/test_streamed_read.py holds these types
to the shipped schema, property by property and on random documents.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Required, TypedDict

import jsonschema_rs
import msgspec

from riverbed.index.jsonbytes import MAX_DEPTH
from riverbed.index.model import EntryType, Phase, Status

_Fraction = Annotated[int, msgspec.Meta(ge=0, le=1)] | Annotated[float, msgspec.Meta(ge=0, le=1)]


class ParsedMetadata(TypedDict, total=False):
    """riverbed-entry.schema.json `metadata` (formats are not structure: not checked here)."""

    createdAt: Required[str]
    author: Required[str]
    updatedAt: str
    phase: Phase
    tags: list[str]  # uniqueItems: `remaining_checks`
    relatedFiles: list[str]  # uniqueItems: `remaining_checks`
    links: list[str]
    # An integer stays an integer (a float type would read `1` as `1.0` and write it back so).
    confidence: _Fraction
    summary: str


class ParsedEntry(TypedDict, total=False):
    """riverbed-entry.schema.json; `context` is free-form, as the schema says."""

    id: Required[Annotated[str, msgspec.Meta(min_length=1)]]
    type: Required[EntryType]
    title: str
    content: Required[str]
    metadata: Required[ParsedMetadata]
    context: dict[str, Any]
    status: Status
    supersededBy: str
    expiresAt: str


class ParsedIndex(TypedDict, total=False):
    """riverbed-index.schema.json."""

    version: Required[Literal["1"]]
    generatedAt: str
    entries: Required[list[ParsedEntry]]


# An RFC 3339 date every reader accepts: years 1000-8999 (and 9200, 9600), real days of
# each month (the 29th of February in leap years only), hours to 23, no leap second, at most
# nine fractional digits, offsets to ±23:59. A subset of `dates.parse_expires_at`: a string
# it matches is a valid expiry; one it does not match is checked by `is_valid_date` instead.
_DAY = r"(?:0[1-9]|1[0-9]|2[0-8])"
_LEAP_YEAR = r"(?:[1-8][0-9](?:0[48]|[2468][048]|[13579][26])|(?:1[26]|[2468][048]|[3579][26])00)"
_DATE = (
    r"(?:[1-8][0-9]{3}-(?:(?:0[1-9]|1[0-2])-" + _DAY + r"|(?:0[13-9]|1[0-2])-(?:29|30)"
    r"|(?:0[13578]|1[02])-31)|" + _LEAP_YEAR + r"-02-29)"
)
_TIME = (
    r"[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,9})?"
    r"(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"
)
#: Anchored at both ends; the same text means the same thing to Python's `re` and to Rust's
#: `regex` (ASCII classes only, and `$` is the end of the text there).
PLAIN_DATE_PATTERN = "^" + _DATE + "(?:" + _TIME + ")?$"

_UNIQUE = {"uniqueItems": True}
_PLAIN_DATE = {"pattern": PLAIN_DATE_PATTERN}  # a pattern says nothing of non-strings


_SCALAR = {"type": ["string", "number", "boolean", "null"]}
#: `context` is free-form and an entry's level 4 (index, entries, entry, context): what it
#: holds may nest objects and arrays down to level MAX_DEPTH, one definition per level.
_LEVELS = {
    f"level{n}": _SCALAR
    if n > MAX_DEPTH
    else {
        "additionalProperties": {"$ref": f"#/$defs/level{n + 1}"},
        "items": {"$ref": f"#/$defs/level{n + 1}"},
    }
    for n in range(5, MAX_DEPTH + 2)
}


def _entries_schema(*, dated: bool) -> dict[str, Any]:
    """Over a list of entries: unique tags and relatedFiles, `context` within the nesting
    limit; with `dated`, every expiry a plain date too."""
    nested = {"$ref": "#/$defs/level5"}
    context: dict[str, Any] = {"additionalProperties": nested}
    entry: dict[str, Any] = {
        "metadata": {"properties": {"tags": _UNIQUE, "relatedFiles": _UNIQUE}},
        "context": context,
    }
    # `additionalProperties` skips keys named in `properties`: the expiry's own is nested too.
    context["properties"] = {"expiresAt": {"allOf": [nested, _PLAIN_DATE] if dated else [nested]}}
    if dated:
        entry["expiresAt"] = _PLAIN_DATE
    return {"type": "array", "items": {"properties": entry}, "$defs": _LEVELS}


@functools.cache
def remaining_checks() -> jsonschema_rs.Validator:
    """Over a list of entries: unique tags and relatedFiles, `context` nested within
    MAX_DEPTH, and every expiry a plain date."""
    return jsonschema_rs.validator_for(_entries_schema(dated=True))


@functools.cache
def undated_checks() -> jsonschema_rs.Validator:
    """`remaining_checks` without the dates: what the schema and the nesting limit ask."""
    return jsonschema_rs.validator_for(_entries_schema(dated=False))


@functools.cache
def entries_decoder() -> msgspec.json.Decoder[list[ParsedEntry]]:
    """A decoder of a JSON array of entries into dicts, refusing what the schema refuses."""
    return msgspec.json.Decoder(list[ParsedEntry])


@functools.cache
def index_decoder() -> msgspec.json.Decoder[ParsedIndex]:
    """A decoder of a whole index document into dicts, refusing what the schema refuses."""
    return msgspec.json.Decoder(ParsedIndex)
