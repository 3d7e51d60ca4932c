"""The README's command table names every verb, and every flag it shows exists."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from riverbed.cli.main import build_parser

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _rows() -> dict[str, str]:
    table = README.split("| verb | what it does |", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, str] = {}
    for line in table.splitlines()[2:]:
        usage = line.split(" | ", 1)[0].removeprefix("| ").strip("`")
        rows[usage.split()[0]] = usage
    return rows


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> str:
    """The parser's help and that of every nested subcommand (`eval persist`, …)."""
    return parser.format_help() + "".join(_helps(p) for p in _subparsers(parser).values())


def test_every_verb_is_in_the_table_and_every_flag_shown_exists() -> None:
    verbs = _subparsers(build_parser())
    rows = _rows()
    assert set(rows) == set(verbs)
    for verb, usage in rows.items():
        text = _helps(verbs[verb])
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]*", usage):
            assert flag in text, (verb, flag)


def test_exit_codes_sentence_matches_the_parser() -> None:
    epilog = build_parser().epilog or ""
    for code, words in (("0", "done"), ("1", "the check failed"), ("2", "bad usage or input")):
        assert f"{code} {words}" in epilog
        assert f"`{code}` {words}" in README
    assert "3 the index is unreadable or corrupt" in epilog
    assert "`3` the index is unreadable or corrupt" in README
