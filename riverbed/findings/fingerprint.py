"""Fingerprint v1: the one definition, byte-exact with River Reviewer's JavaScript."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from typing import Any, Protocol

from riverbed.index.jsonbytes import js_number


class Fingerprinted(Protocol):
    """The fields fingerprint v1 reads (a Finding has them; this module needs no Finding)."""

    @property
    def rule_id(self) -> str | None: ...
    @property
    def file(self) -> str | None: ...
    @property
    def message(self) -> str | None: ...
    @property
    def title(self) -> str | None: ...


#: JavaScript's `\s` (WhiteSpace + LineTerminator); also what `String.prototype.trim` strips.
#: Deliberately not Python's `\s`: U+001C-U+001F and U+0085 are not in it, U+FEFF is.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_SPACE_RUN = re.compile("[" + re.escape(JS_WHITESPACE) + "]+")
_MESSAGE_UNITS = 60
_MAX_SAFE_INTEGER = 2**53


def _js_number(value: float) -> str:
    """`String(number)` as ECMAScript's Number::toString writes it."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return js_number(value)


def js_string(value: Any) -> str:
    """`String(value)` for JSON-shaped values, as JavaScript would write it."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        # A JSON integer beyond 2^53 is a rounded double in JavaScript.
        return str(value) if abs(value) < _MAX_SAFE_INTEGER else _js_number(float(value))
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, list | tuple):
        return ",".join("" if v is None else js_string(v) for v in value)
    return "[object Object]"


def _js_lower(text: str) -> str:
    # Python's str.lower() applies the same Unicode full lower-case mapping as
    # JavaScript's toLowerCase (İ → i̇, final sigma included).
    return text.lower()


def _utf16_prefix(text: str, units: int) -> str:
    """The first `units` UTF-16 code units of `text` (may end in a lone high surrogate)."""
    encoded = text.encode("utf-16-le", "surrogatepass")
    if len(encoded) <= units * 2:
        return text
    return encoded[: units * 2].decode("utf-16-le", "surrogatepass")


def normalize_message(value: Any) -> str:
    """Lower-case, collapse JS whitespace runs, trim, cut to 60 UTF-16 code units."""
    text = _JS_SPACE_RUN.sub(" ", _js_lower(js_string(value)))
    text = text.strip(JS_WHITESPACE)
    return _utf16_prefix(text, _MESSAGE_UNITS)


def _utf8_like_node(text: str) -> bytes:
    """UTF-8 of a JavaScript string: surrogate pairs joined, lone surrogates → U+FFFD."""
    units = text.encode("utf-16-le", "surrogatepass")
    return units.decode("utf-16-le", "replace").encode("utf-8")


def _fields(finding: Fingerprinted | Mapping[str, Any]) -> tuple[Any, Any, Any]:
    if isinstance(finding, Mapping):
        rule_id = finding.get("ruleId")
        file = finding.get("file")
        message = finding.get("message")
        if message is None:
            message = finding.get("title")
    else:
        rule_id, file = finding.rule_id, finding.file
        message = finding.message if finding.message is not None else finding.title
    return rule_id, file, message


def compute_fingerprint(finding: Fingerprinted | Mapping[str, Any]) -> str:
    """`sha256("{ruleId}::{file}::{msg}")[:16]`: DESIGN's fingerprint v1 of a finding."""
    rule_id, file, message = _fields(finding)
    rule_text = "unknown" if rule_id is None else js_string(rule_id)
    file_text = "" if file is None else js_string(file)
    message_text = normalize_message("" if message is None else message)
    payload = f"{rule_text}::{file_text}::{message_text}"
    return hashlib.sha256(_utf8_like_node(payload)).hexdigest()[:16]
