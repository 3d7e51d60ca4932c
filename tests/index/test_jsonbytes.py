"""The index bytes match `JSON.stringify(index, null, 2) + "\\n"` exactly."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverbed.index.jsonbytes import dumps_js, js_number, loads

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
