"""The index bytes match `JSON.stringify(index, null, 2) + "\\n"` exactly."""

from __future__ import annotations

import json
import math

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.index.jsonbytes import (
    _NUMBER_LINE,
    _fix_number,
    dumps_js,
    js_number,
    js_numbers,
    loads,
    number_lines,
)

# Expected bytes were produced by Node.js's JSON.stringify(value, null, 2) + "\n".
EXPECTED = (
    "{\n"
    '  "a": "\\u0001\\u001f\x7f\u2028\\b\\f\\n\\r\\t\\"\\\\/ é 😀",\n'
    '  "empty": [],\n'
    '  "obj": {},\n'
    '  "n": [\n'
    "    1,\n"
    "    1.5,\n"
    "    0,\n"
    "    1e-7,\n"
    "    1e+21,\n"
    "    10000000000000000,\n"
    "    0.000001,\n"
    "    0.0000025,\n"
    "    123456789\n"
    "  ],\n"
    '  "nested": [\n'
    "    {\n"
    '      "x": [\n'
    "        true,\n"
    "        null\n"
    "      ]\n"
    "    }\n"
    "  ]\n"
    "}\n"
)


def test_matches_javascript_byte_for_byte() -> None:
    value = {
        "a": '\x01\x1f\x7f\u2028\b\f\n\r\t"\\/ é 😀',
        "empty": [],
        "obj": {},
        "n": [1.0, 1.5, -0.0, 1e-7, 1e21, 1e16, 1e-6, 2.5e-6, 123456789],
        "nested": [{"x": [True, None]}],
    }
    assert dumps_js(value) == EXPECTED.encode("utf-8")


def test_lone_surrogate_is_escaped_like_javascript() -> None:
    assert dumps_js({"s": "a\ud800b"}) == b'{\n  "s": "a\\ud800b"\n}\n'


def test_integral_float_in_key_value_position() -> None:
    assert dumps_js({'k"ey': 2.0, "e-5": 3e-5}) == b'{\n  "k\\"ey": 2,\n  "e-5": 0.00003\n}\n'


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.1, "0.1"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (5e-324, "5e-324"),
        (123e-20, "1.23e-18"),
        (1e20, "100000000000000000000"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
    ],
)
def test_js_number(value: float, text: str) -> None:
    assert js_number(value) == text


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_round_trip_preserves_value(value: object) -> None:
    again = loads(dumps_js(value))

    def same(a: object, b: object) -> bool:
        if isinstance(a, float) or isinstance(b, float):
            assert isinstance(a, int | float)
            assert isinstance(b, int | float)
            return math.isclose(a, b, rel_tol=0, abs_tol=0) or a == b
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
        if isinstance(a, dict) and isinstance(b, dict):
            return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
        return a == b

    assert same(value, again)


# Text full of what a number marker looks like: ids such as `baseline-5f…`, `e-5123`, `v1.0`.
MARKER_TEXT = st.text(alphabet='e-+56012.,\n"\\ab', max_size=14) | st.sampled_from(
    ["baseline-5f3a", "e-5123", "size e+10", "v1.0", "1.0", "2.0,", "e-6", "x.0\n", "e+2"]
)
NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | MARKER_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(MARKER_TEXT, inner, max_size=4),
    max_leaves=20,
)
ANY_FLOAT = st.floats(allow_nan=False, allow_infinity=False)
WITH_FLOATS = st.recursive(
    st.none() | st.integers(-(2**53), 2**53) | MARKER_TEXT | ANY_FLOAT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(MARKER_TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(NO_FLOATS)
def test_ids_and_text_never_send_a_line_to_the_number_repair(value: object) -> None:
    raw = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    assert number_lines(raw) == []
    assert dumps_js(value) == raw + b"\n"


@given(WITH_FLOATS)
def test_only_number_tokens_are_repaired_and_every_one_is(value: object) -> None:
    raw = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    # The exhaustive repair: every line's number token respelled, whatever it looks like.
    every_line = b"\n".join(_NUMBER_LINE.sub(_fix_number, line) for line in raw.split(b"\n"))
    assert js_numbers(raw) == every_line
    # The same numbers (JavaScript writes some floats as integers: read both as floats).
    assert json.loads(dumps_js(value), parse_int=float) == json.loads(raw, parse_int=float)
    for start in number_lines(raw):
        line = raw[start:].split(b"\n", 1)[0]
        assert _NUMBER_LINE.fullmatch(line), line
