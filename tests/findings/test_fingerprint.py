"""Fingerprint v1: the reference vectors and edge cases, byte-exact with the JavaScript."""

from __future__ import annotations

import json

import pytest
from review_helpers import FIXTURES

from riverbed import Finding, compute_fingerprint
from riverbed.findings.fingerprint import js_string, normalize_message

VECTORS = json.loads((FIXTURES / "fingerprint-v1-vectors.json").read_text(encoding="utf-8"))[
    "vectors"
]


def test_fixture_holds_every_reference_vector() -> None:
    assert len(VECTORS) == 13


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v["fingerprint"])
def test_reference_vectors(vector: dict) -> None:
    assert compute_fingerprint(vector["finding"]) == vector["fingerprint"]


# Expected values: the algorithm as DESIGN states it, run in node (String(), toLowerCase,
# replace(/\s+/g, " "), trim, slice(0, 60), sha256 of the UTF-8 string, first 16 hex).
EDGE_CASES = [
    # An emoji whose high surrogate is the 60th code unit: the cut leaves a lone surrogate.
    ({"ruleId": "E1", "file": "a.py", "message": "a" * 59 + "\U0001f600tail"}, "1dc3d2432e62ca26"),
    # The emoji fits exactly into code units 59-60.
    ({"ruleId": "E1", "file": "a.py", "message": "a" * 58 + "\U0001f600tail"}, "c99bec1ba2040334"),
    ({"ruleId": "E1", "file": "a.py", "message": "\ufeffHello BOM"}, "cf70721060df027d"),
    (
        {"ruleId": "E1", "file": "a.py", "message": "no\u00a0\u00a0break\u00a0space"},
        "ed9b4506aa750e81",
    ),
    # U+001C-U+001F are whitespace to Python's str.split but not to JavaScript's \s.
    (
        {"ruleId": "E1", "file": "a.py", "message": "sep\u001c\u001d\u001e\u001fchars"},
        "a1fe34635dca2ea7",
    ),
    ({"ruleId": "E1", "file": "a.py", "message": "sep \u001c x \u001f"}, "4a1ffb093df78c80"),
    ({"ruleId": "E1", "file": "a.py", "message": "next\u0085line"}, "bf3dc6958c86d22c"),
    ({"ruleId": "E1", "file": "a.py", "message": "mongolian\u180evowel"}, "8fc24e8858fd6198"),
    (
        {"ruleId": "E1", "file": "a.py", "message": "line\u2028separator\u2029para"},
        "5118a55703926b5d",
    ),
    (
        {"ruleId": "E1", "file": "a.py", "message": "\u3000\u2003ideographic\u205fspace\u3000"},
        "fe1bcebe0a4d0d47",
    ),
    # İ lower-cases to two code units (i + U+0307); the cut keeps only the i.
    ({"ruleId": "E1", "file": "a.py", "message": "x" * 59 + "\u0130stanbul"}, "e58d7c0d8e4aa9e2"),
    # `??` falls back only on null/undefined: an empty message does not use the title.
    (
        {"ruleId": "E1", "file": "a.py", "message": "", "title": "fallback not used"},
        "14623e65bbea9a47",
    ),
    ({"ruleId": "E1", "file": "a.py", "message": None, "title": "Title Used"}, "e3a6521705312de6"),
    ({"ruleId": None, "file": None, "message": 1.5}, "20fb198aaa2ef101"),
    ({"ruleId": "E1", "file": "a.py", "message": 1e21}, "9a77a4a7264c4338"),
    ({"ruleId": "E1", "file": "a.py", "message": 0.000001}, "6664ce5edf4db54f"),
    ({"ruleId": "E1", "file": "a.py", "message": 1e-7}, "8e30234db7e6f2bf"),
    ({"ruleId": "E1", "file": "a.py", "message": True}, "870171e68516c35a"),
    ({"ruleId": "E1", "file": "a.py", "message": 12345678901234567890}, "dfcda8d1b1d8b697"),
    # Lone surrogates anywhere hash as U+FFFD; a split pair hashes as the joined character.
    ({"ruleId": "E1", "file": "a\udc00.py", "message": "lone \ud800 high"}, "5ada78bfb2cd48a3"),
    ({"ruleId": "E1", "file": "a.py", "message": "pair \ud83d\ude00 ok"}, "4d2d7aa075dd8dad"),
    ({"ruleId": "E1", "file": "a.py", "message": "pair \U0001f600 ok"}, "4d2d7aa075dd8dad"),
]


@pytest.mark.parametrize(("finding", "expected"), EDGE_CASES)
def test_edge_cases(finding: dict, expected: str) -> None:
    assert compute_fingerprint(finding) == expected


def test_finding_and_dict_agree() -> None:
    finding = Finding(
        rule_id="no-unused-vars",
        file="src/app.js",
        message="'x' is assigned a value but never used.",
    )
    assert finding.fingerprint == compute_fingerprint(finding) == "0f92f0f44d6509b1"
    titled = Finding(rule_id="R1", file="a.ts", title="Title used when message is absent")
    assert titled.fingerprint == "6126ae592a20c871"
    assert Finding(rule_id=None, file="README.md", message="Typo").fingerprint == "5d61d92c59208742"


def test_normalization_steps() -> None:
    assert normalize_message("  A\t\tB  ") == "a b"
    assert normalize_message("x\u001cy") == "x\u001cy"
    assert len(normalize_message("é" * 100)) == 60
    assert normalize_message("a" * 59 + "\U0001f600") == "a" * 59 + "\ud83d"


def test_js_string() -> None:
    assert js_string([1, None, "a"]) == "1,,a"
    assert js_string({"a": 1}) == "[object Object]"
    assert js_string(float("nan")) == "NaN"
    assert js_string(-0.0) == "0"
    assert js_string(False) == "false"
