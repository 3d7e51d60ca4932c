"""JSON text exactly as JavaScript's `JSON.stringify(value, null, 2) + "\\n"` writes it."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import orjson

# With a 2-space indent every scalar sits on its own line, optionally after `"key": `; string
# values cannot span lines (newlines are escaped), so number tokens are found line by line.
_NUMBER_LINE = re.compile(
    rb'(?m)^( *(?:"(?:[^"\\\n]|\\.)*": )?)(-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)(,?)$'
)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# orjson and JavaScript write a float differently only when it is integral (`1.0` vs `1`), or
# when its exponent is -5, -6 or +16…+20 (JavaScript spells those out). Such a number ends
# its line (`.0`, or the exponent then digits), optionally before a comma; a string's line
# ends with a quote, so text holding one (`baseline-5f…`, `e-5123`) is never looked at.
_NUMBER_ENDS = (
    re.compile(rb"\.0,?(?:\n|\Z)"),
    # Each led by a literal (the exponent's sign, rare in text; `e` is in most words) that
    # `re` skips ahead to; the `e` before it is checked once there.
    re.compile(rb"-(?<=e-)[56][0-9]*,?(?:\n|\Z)"),
    re.compile(rb"\+(?<=e\+)[12][0-9]*,?(?:\n|\Z)"),
)
#: How deeply objects and arrays may nest in an index or an entry (the index object is level
#: 1, an entry level 3). orjson reads 1024 levels but writes only 254, and Python's json and
#: recursive walks fail near 1000, so anything deeper than this is refused when read.
MAX_DEPTH = 64


def js_number(value: float) -> str:
    """Format a float the way JavaScript's Number#toString does (shortest round-trip)."""
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    # value = 0.digits × 10^n, as the ECMAScript algorithm names it.
    n = exponent + len(digit_tuple)
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def _fix_number(match: re.Match[bytes]) -> bytes:
    token = match.group(2)
    if b"." not in token and b"e" not in token:
        return match.group(0)
    return match.group(1) + js_number(float(token)).encode() + match.group(3)


def _slow_dumps(value: Any) -> bytes:
    """Fallback for what orjson refuses (lone surrogates, integers beyond 64 bits)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    text = _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
    return text.encode("utf-8")


def dumps_js(value: Any) -> bytes:
    """Serialize like `JSON.stringify(value, null, 2) + "\\n"`, as UTF-8 bytes."""
    try:
        raw = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except (TypeError, orjson.JSONEncodeError):
        # Python's float repr differs from orjson's (`1e-07`), so every number line is checked.
        return _NUMBER_LINE.sub(_fix_number, _slow_dumps(value)) + b"\n"
    return js_numbers(raw) + b"\n"


def number_lines(raw: bytes) -> list[int]:
    """Where each line of orjson's indented output starts whose number JavaScript may spell
    otherwise (see _NUMBER_ENDS), in order; two searches with literal prefixes."""
    starts = {
        raw.rfind(b"\n", 0, found.start()) + 1
        for pattern in _NUMBER_ENDS
        for found in pattern.finditer(raw)
    }
    return sorted(starts)


def js_numbers(raw: bytes) -> bytes:
    """orjson's indented output with every number spelled as JavaScript does (`raw` if none
    differ)."""
    starts = number_lines(raw)
    if not starts:
        return raw
    pieces: list[bytes] = []
    done = 0
    for start in starts:
        end = raw.find(b"\n", start)
        end = len(raw) if end == -1 else end
        pieces.append(raw[done:start])
        pieces.append(_NUMBER_LINE.sub(_fix_number, raw[start:end]))
        done = end
    pieces.append(raw[done:])
    return b"".join(pieces)


def loads(data: bytes | str) -> Any:
    """Parse JSON text strictly (no NaN, valid UTF-8); raises ValueError with line and column."""
    return orjson.loads(data)


def too_deep(value: Any, *, named_steps: int, limit: int = MAX_DEPTH) -> str | None:
    """Where `value` first nests objects and arrays deeper than `limit`, or None.

    `value` itself is level 1 when it is an object or array. The answer is a JSON path of
    at most `named_steps` steps (the entry or field holding the nesting: deeper keys are
    data, and data is never echoed). The walk is iterative, so any depth is measured.
    """
    stack: list[tuple[Any, str, int]] = [(value, "$", 1)]
    while stack:
        item, where, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            continue
        if level > limit:
            return where
        for key, child in children:
            if isinstance(child, dict | list):
                step = f"[{key}]" if isinstance(key, int) else f".{key}"
                stack.append((child, where + step if level <= named_steps else where, level + 1))
    return None


def indented_too_deep(pretty: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether 2-space-indented JSON nests deeper than `limit` (read off the indentation).

    A line inside k containers is indented 2k, so a non-empty container at level limit+1
    shows as a line indented 2(limit+1); an empty one as `[]`/`{}` ending a line indented
    2·limit.
    """
    marker = b"\n" + b" " * (2 * limit)
    start = pretty.find(marker)
    if start == -1:  # the common case: one fast search (its last byte, a space, is rare)
        return False
    if b"\n" + b" " * (2 * limit + 2) in pretty:
        return True
    while start != -1:
        end = pretty.find(b"\n", start + 1)
        line = pretty[start + 1 : len(pretty) if end == -1 else end].rstrip(b",")
        if line[2 * limit : 2 * limit + 1] != b" " and line.endswith((b"[]", b"{}")):
            return True
        start = pretty.find(marker, start + 1)
    return False


class _Repeated(Exception):
    def __init__(self, key: str, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(key)
        self.key, self.pairs = key, pairs


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key, pairs)
            seen.add(key)
    return result


def repeated_key(data: bytes, pretty: bytes) -> tuple[str, dict[str, Any]] | None:
    """The first key some object of JSON text `data` repeats, with that object; else None.

    `pretty` is `orjson.dumps(loads(data), option=OPT_INDENT_2)`. orjson keeps the last of
    repeated keys silently, so two exact checks run first: `data` equal to its own
    re-serialization cannot repeat a key; and each `:` of JSON text either ends a key or
    sits inside a string, so, with no `\\u003a` escape, `data` holds exactly as many colons
    as the re-serialization of its parse unless a repetition dropped a member (and its
    colon). Only a file failing both is parsed again with a hook that sees every pair.
    """
    if len(data) == len(pretty) + 1 and data.startswith(pretty):
        return None
    escaped_colon = b"\\u003a" in data or b"\\u003A" in data
    if not escaped_colon and data.count(b":") == pretty.count(b":"):
        return None
    try:
        json.loads(
            data.decode("utf-8"),
            object_pairs_hook=_unique_pairs,
            parse_int=lambda _text: 0,
            parse_float=lambda _text: 0,
        )
    except _Repeated as repeated:
        return repeated.key, dict(repeated.pairs)
    return None


def json_error_place(exc: ValueError, data: bytes | str) -> str:
    """Where and what a JSON syntax error is, as a person reading the file would put it.

    orjson places a trailing comma just after the comma itself, which reads as one line early
    when the closing bracket sits on the next line: the message names the bracket's line
    and column, and the comma's line.
    """
    if not isinstance(exc, json.JSONDecodeError):
        return f"({exc})"
    if "trailing comma" in exc.msg:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        comma = text.rfind(",", 0, exc.pos + 1)
        closer = len(text) - len(text[comma + 1 :].lstrip())
        if comma != -1 and closer < len(text) and text[closer] in "]}":
            line = text.count("\n", 0, closer) + 1
            column = closer - (text.rfind("\n", 0, closer) + 1) + 1
            comma_line = text.count("\n", 0, comma) + 1
            return (
                f"at line {line}, column {column} (a trailing comma before {text[closer]!r}; "
                f"the comma is on line {comma_line})"
            )
    return f"at line {exc.lineno}, column {exc.colno} ({exc.msg})"


def nesting_or_repeated_key(data: bytes, document: Any) -> str | None:
    """What is wrong with JSON text `data` parsed as `document`: nesting deeper than allowed
    or an object repeating a key (the problem's words), else None."""
    # One C-speed re-serialization answers both. Bytes equal to it (plus the final newline)
    # cannot repeat a key: the parse keeps one member per key, so the bytes would differ.
    # Its indentation is the nesting depth. Only bytes that differ need the separate
    # repeated-key check (`repeated_key` begins with that comparison).
    try:
        pretty = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        # orjson writes at most 254 levels (and no integer past 64 bits): refused, in one line.
        pretty = b""
    if not pretty or indented_too_deep(pretty):
        where = too_deep(document, named_steps=2) or "$"
        return f"{where}: objects and arrays nest deeper than {MAX_DEPTH} levels"
    repeated = repeated_key(data, pretty)
    if repeated is None:
        return None
    key, holder = repeated
    return (
        f"{_holder(holder)} repeats the key {_shown(key)} (JSON readers disagree on which "
        "value counts: keep one)"
    )


def _shown(key: str) -> str:
    from riverbed.index.secrets import secret_kind  # a refusal's wording only

    if secret_kind(key):
        return "(a key that looks like a credential, not shown)"
    return repr(key) if len(key) <= 60 else repr(key[:60]) + "…"


def _holder(holder: dict[str, Any]) -> str:
    entry_id = holder.get("id")
    if isinstance(entry_id, str) and holder.get("metadata") is not None:
        return f"entry {_shown(entry_id)}"
    return "an object"
