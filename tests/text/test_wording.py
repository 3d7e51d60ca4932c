"""Plurals and articles: "1 entry applies", "an AWS access key id" (issue 28 §5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from riverbed.index.jsonbytes import dumps_js
from riverbed.index.model import empty_index
from riverbed.index.secrets import _PATTERNS
from riverbed.testing.cli_run import run_riverbed
from riverbed.text import article, plural, with_article


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (0, "entry", "0 entries"),
        (1, "entry", "1 entry"),
        (2, "entry", "2 entries"),
        (2, "day", "2 days"),
        (1, "match", "1 match"),
        (3, "match", "3 matches"),
        (2, "finding", "2 findings"),
        (2, "criterion", "2 criteria"),
    ],
)
def test_plural(count: int, noun: str, expected: str) -> None:
    many = "criteria" if noun == "criterion" else None
    assert plural(count, noun, many) == expected


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("AWS access key id", "an"),
        ("OpenAI API key", "an"),
        ("npm token", "an"),
        ("RSA key", "an"),
        ("hour", "an"),
        ("entry", "an"),
        ("GitHub token", "a"),
        ("private key block", "a"),
        ("URL", "a"),
        ("user", "a"),
        ("one-off", "a"),
        ("JSON web token", "a"),
        ("Slack token", "a"),
    ],
)
def test_article(phrase: str, expected: str) -> None:
    assert article(phrase) == expected


def test_every_secret_kind_reads_right() -> None:
    """Each credential kind riverbed names gets the article its sound takes."""
    vowel_sound = {"AWS", "OpenAI", "Anthropic", "npm"}
    for kind, _, _ in _PATTERNS:
        first = kind.split()[0]
        assert with_article(kind) == f"{'an' if first in vowel_sound else 'a'} {kind}"


def test_the_secret_refusal_uses_the_right_article(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    key = "AKIA" + "Q" * 16
    done = run_riverbed(
        "add", "--type", "decision", "--title", "keys", "--content", f"use {key}", "--index", index
    )
    assert done.returncode != 0
    assert "looks like an AWS access key id" in done.stderr, done.stderr
    assert json.loads(index.read_text(encoding="utf-8"))["entries"] == []


def test_one_entry_is_singular(tmp_path: Path) -> None:
    index = tmp_path / "index.json"
    index.write_bytes(dumps_js(empty_index()))
    assert run_riverbed("validate", "--index", index).stdout.endswith("valid (0 entries)\n")
    run_riverbed("add", "--type", "decision", "--title", "t", "--content", "c", "--index", index)
    assert run_riverbed("validate", "--index", index).stdout.endswith("valid (1 entry)\n")
