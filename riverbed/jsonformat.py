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
# when its exponent is -5, -6 or +16…+20 (JavaScript spells those out), so only lines holding
# one of these markers need a second look; finding them is a fast substring search.
_MARKERS = (b".0\n", b".0,\n", b"e-5", b"e-6", b"e+1", b"e+2")


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
    return _fix_numbers(raw) + b"\n"


def _fix_numbers(raw: bytes) -> bytes:
    line_starts: set[int] = set()
    for marker in _MARKERS:
        position = raw.find(marker)
        while position != -1:
            line_starts.add(raw.rfind(b"\n", 0, position) + 1)
            position = raw.find(marker, position + 1)
    if not line_starts:
        return raw
    pieces: list[bytes] = []
    done = 0
    for start in sorted(line_starts):
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
