"""Counted fuzzing of every reader of outside input: findings (SARIF, River, rdjson), eval
results (promptfoo, River Reviewer, JUnit XML, minimal), comment commands, artifact zips.

Seeds are real documents (a real ruff SARIF log, the committed eval fixtures); hypothesis
mutates them as trees (a subtree replaced or dropped) and as bytes. Only RiverbedError
subclasses may escape, and each example is timed (see test_fuzz.fuzz_call's rule).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import reliability_support as support
from hypothesis import given
from hypothesis import strategies as st

from riverbed.comments.parser import parse_command, parse_comment
from riverbed.errors import RiverbedError
from riverbed.evals.formats import parse_eval_bytes
from riverbed.findings.formats import parse_findings
from riverbed.github.artifact_zip import ZipLimits, extract_index

SETTINGS = support.examples(300, 10_000)
SLOWEST_ALLOWED = 2.0
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def fuzz_call(target: str, func: Callable[[], Any]) -> Any:
    """Call `func`: a RiverbedError is a fine answer, any other exception fails the test."""
    started = time.perf_counter()
    try:
        return func()
    except RiverbedError as exc:
        assert str(exc)
        return None
    finally:
        elapsed = time.perf_counter() - started
        support.peak(f"fuzz slowest example ms: {target}", round(elapsed * 1000))
        assert elapsed < SLOWEST_ALLOWED, f"{target} took {elapsed:.2f}s on one bounded input"
        support.count(f"fuzz examples: {target}")


def _ruff_sarif() -> dict[str, Any]:
    """A real SARIF log: ruff run over a small module with known findings."""
    source = "import os\nimport sys\n\n\ndef f(x):\n    y = 1\n    return x == None\n"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "F,E",
            "--output-format",
            "sarif",
            "--stdin-filename",
            "mod.py",
            "-",
        ],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    document: dict[str, Any] = json.loads(result.stdout)
    assert document["runs"][0]["results"], "ruff found nothing to seed the fuzzer with"
    return document


FINDING_SEEDS: list[Any] = [
    _ruff_sarif(),
    {
        "issues": [
            {
                "ruleId": "r1",
                "title": "t",
                "message": "m",
                "file": "a.py",
                "line": 3,
                "severity": "major",
            }
        ]
    },
    {
        "diagnostics": [
            {
                "message": "m",
                "location": {"path": "a.py", "range": {"start": {"line": 1, "column": 2}}},
                "severity": "ERROR",
                "code": {"value": "X1"},
                "source": {"name": "lint"},
            }
        ]
    },
]
EVAL_SEEDS: list[Any] = [
    json.loads((FIXTURES / "evals" / "promptfoo-0.121.20.json").read_bytes()),
    json.loads((FIXTURES / "evals" / "river-reviewer-evaluate-all.json").read_bytes()),
    {"suite": "s", "scores": {"accuracy": 0.9, "latency_ms": 120}},
]
JUNIT_SEED = sorted((FIXTURES / "evals").glob("jest-junit*.xml"))[0].read_bytes()

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["", "error", "warning", "note", "none", "file:///a.py", "../x", "0"]),
)
json_tree = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


def _slots(value: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (container, key) in a JSON tree, so one can be replaced or removed."""
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((value, key))
            _slots(item, out)
    elif isinstance(value, list):
        for position, item in enumerate(value):
            out.append((value, position))
            _slots(item, out)
    return out


@st.composite
def mutated_tree(draw: st.DrawFn, seeds: list[Any]) -> bytes:
    """A seed document with 1–4 subtrees replaced or dropped, sometimes byte-damaged."""
    document = json.loads(json.dumps(draw(st.sampled_from(seeds))))
    for _ in range(draw(st.integers(1, 4))):
        slots = _slots(document, [])
        if not slots:
            break
        container, key = draw(st.sampled_from(slots))
        if draw(st.booleans()) and isinstance(container, dict):
            del container[key]
        else:
            container[key] = draw(json_tree)
    data = json.dumps(document).encode()
    if draw(st.integers(0, 5)) == 0:
        position = draw(st.integers(0, len(data)))
        data = data[:position] + draw(st.binary(max_size=6)) + data[position + 1 :]
    return data


findings_input = st.one_of(
    mutated_tree(FINDING_SEEDS),
    st.binary(max_size=500),
    # rdjsonl: one diagnostic per line (the mutated tree is one line of JSON text)
    st.lists(mutated_tree(FINDING_SEEDS[2:]), max_size=4).map(b"\n".join),
)


@SETTINGS
@given(findings_input, st.sampled_from(["auto", "sarif", "river", "rdjson"]))
def test_findings_readers_only_raise_riverbed_errors(data: bytes, fmt: str) -> None:
    fuzz_call(
        "findings readers",
        lambda: parse_findings(data, source="fuzz.sarif", format=fmt, on_warning=lambda _m: None),
    )


HOSTILE_XML = [
    b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
    b"<testsuites><testsuite name='&b;'/></testsuites>",
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    b"<testsuites>&e;</testsuites>",
    b"<testsuites>" + b"<testsuite>" * 2000 + b"</testsuite>" * 2000 + b"</testsuites>",
    b"<testsuites><testsuite tests='1e999' failures='-1' time='NaN'/></testsuites>",
    # found by the atheris harness: expat asks Python for the codec, which raises LookupError
    b'<?xml version="1.0" encoding="UTF-4"?><testsuites/>',
]


@st.composite
def mutated_junit(draw: st.DrawFn) -> bytes:
    data = bytearray(JUNIT_SEED)
    for _ in range(draw(st.integers(1, 6))):
        position = draw(st.integers(0, len(data)))
        data[position : position + draw(st.integers(0, 4))] = draw(
            st.sampled_from(
                [b"<", b">", b"&", b'"', b"</testcase>", b"<testcase name='x'>", b"\xff", b""]
            )
        )
    return bytes(data)


eval_input = st.one_of(
    mutated_tree(EVAL_SEEDS),
    mutated_junit(),
    st.sampled_from(HOSTILE_XML),
    st.binary(max_size=300),
)


@SETTINGS
@given(eval_input, st.sampled_from(["auto", "promptfoo", "river-reviewer", "junit", "minimal"]))
def test_eval_readers_only_raise_riverbed_errors(data: bytes, fmt: str) -> None:
    fuzz_call("eval readers", lambda: parse_eval_bytes(data, "fuzz-results", fmt))


PIECES = [
    "/riverbed",
    "/RIVERBED",
    " ",
    "\n",
    "\t",
    "> ",
    "```",
    "~~~",
    "    ",
    "<!--",
    "-->",
    "suppress",
    "revoke",
    "archive",
    "supersede",
    "show",
    "help",
    "wontfix",
    "decision",
    "adr",
    "pattern",
    "--reason",
    "--expires",
    "--type",
    "--rule",
    "--path",
    "--files",
    "--phase",
    "--scope",
    '"',
    "'",
    "\\",
    "0123456789abcdef",
    "2027-01-01",
    "2027-02-30",
    "accepted_risk",
    "p1",
    "**",
    "\u200b",
    "\uff0f",
    "\x00",
    "\r",
    "…",
    "-",
]
comment_text = st.one_of(
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=40).map("".join),
    st.text(max_size=300),
)


@SETTINGS
@given(comment_text)
def test_comment_parser_never_raises_and_commands_only_raise_parse_errors(text: str) -> None:
    parsed = fuzz_call("comment parser (parse_comment)", lambda: parse_comment(text))
    assert parsed is not None, "parse_comment must never raise for any text"
    for line in parsed.lines:
        assert (line.command is None) != (line.error is None)
    fuzz_call(
        "comment parser (parse_command)", lambda: parse_command(text.split("\n", maxsplit=1)[0])
    )


def _zip_of(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


zip_input = st.one_of(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["index.json", "../x", "a/index.json", "./", "/abs", "index.json\\..", "x" * 300]
            ),
            st.binary(max_size=200),
        ),
        max_size=4,
        unique_by=lambda m: m[0],
    ).map(_zip_of),
    st.tuples(st.binary(max_size=200), st.integers(0, 400), st.binary(max_size=4)).map(
        lambda t: (z := _zip_of([("index.json", t[0])]))[: t[1]] + t[2] + z[t[1] + 1 :]
    ),
    st.binary(max_size=300),
)


@SETTINGS
@given(zip_input)
def test_artifact_extraction_only_raises_riverbed_errors(data: bytes) -> None:
    fuzz_call(
        "artifact zip extraction",
        lambda: extract_index(
            data, limits=ZipLimits(max_uncompressed_bytes=64 * 1024), source="fuzz.zip"
        ),
    )


@pytest.mark.parametrize(
    "document", HOSTILE_XML, ids=["billion-laughs", "xxe", "deep", "nan", "unknown-encoding"]
)
def test_hostile_xml_is_refused_or_read_safely(document: bytes) -> None:
    fuzz_call("eval readers (hostile XML)", lambda: parse_eval_bytes(document, "x.xml", "junit"))


def test_promptfoo_prompt_index_of_any_json_type_is_read() -> None:
    """Regression (found by the eval fuzzer): a list as promptIdx raised TypeError."""
    document = json.loads(json.dumps(EVAL_SEEDS[0]))
    document["results"]["results"][0]["promptIdx"] = [1]
    fuzz_call(
        "eval readers (regressions)",
        lambda: parse_eval_bytes(json.dumps(document).encode(), "promptfoo.json", "promptfoo"),
    )
