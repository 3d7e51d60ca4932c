"""Credential-shaped text is refused on append wherever it hides in an entry; nothing is written.

The token values are assembled at run time (no literal credential sits in this file) and are
random, so no real secret is used. Each shape goes through the library, the CLI, a comment
command and the MCP `deposit` tool.
"""

from __future__ import annotations

import json
import random
import re
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import reliability_support as support
from hypothesis import event, given, settings
from hypothesis import strategies as st

from riverbed import InvalidEntryError, SecretInEntryError, append_entries, append_entry
from riverbed.index import secrets, write_checks
from riverbed.index.jsonbytes import MAX_DEPTH

_rng = random.Random(20261130)


def _chars(alphabet: str, count: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(count))


ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
# kind → a random credential of that shape
TOKENS: dict[str, str] = {
    "GitHub token": "gh" + "p_" + _chars(ALNUM, 36),
    "GitHub app token": "gh" + "s_" + _chars(ALNUM, 36),
    "GitHub fine-grained token": "github" + "_pat_" + _chars(ALNUM + "_", 82),
    "AWS access key id": "AK" + "IA" + _chars(UPPER, 16),
    "AWS secret access key": "aws_secret_access_key = " + _chars(ALNUM + "/+", 40),
    "private key block": "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIE" + _chars(ALNUM, 60),
    "Slack token": "xo" + "xb-" + _chars(string.digits, 12) + "-" + _chars(ALNUM, 24),
    "Google API key": "AI" + "za" + _chars(ALNUM + "_-", 35),
    "Stripe secret key": "sk" + "_live_" + _chars(ALNUM, 24),
    "OpenAI API key": "sk" + "-proj-" + _chars(ALNUM, 48),
    "Anthropic API key": "sk" + "-ant-api03-" + _chars(ALNUM, 40),
    "npm token": "np" + "m_" + _chars(ALNUM, 36),
    "password in a URL": "postgres://app:" + _chars(ALNUM, 12) + "@db.internal/app",
    "JSON web token": "ey"
    + "J"
    + _chars(ALNUM, 20)
    + ".eyJ"
    + _chars(ALNUM, 30)
    + "."
    + _chars(ALNUM, 20),
}
# How a token sits in ordinary text.
WRAPPINGS: dict[str, Callable[[str], str]] = {
    "bare": lambda t: t,
    "env assignment": lambda t: f"export GH_TOKEN={t}",
    "bearer header": lambda t: f"Authorization: Bearer {t}",
    "in a URL": lambda t: f"https://x-access-token:{t}@github.com/o/r.git",
    "in a code span": lambda t: f"the key was `{t}` until rotated",
    "quoted JSON": lambda t: f'{{"token": "{t}"}}',
}
# Where a string sits in an entry: a function that puts `text` there.
PLACES: dict[str, Callable[[dict[str, Any], str], str]] = {
    "title": lambda e, t: e.__setitem__("title", t) or "$.title",
    "content": lambda e, t: e.__setitem__("content", "notes:\n" + t) or "$.content",
    "summary": lambda e, t: e["metadata"].__setitem__("summary", t) or "$.metadata.summary",
    "tag": lambda e, t: e["metadata"].__setitem__("tags", ["ok", t]) or "$.metadata.tags[1]",
    "context value": lambda e, t: (
        e.__setitem__("context", {"deep": {"list": [1, t]}}) or "$.context.deep.list[1]"
    ),
    "context key": lambda e, t: e.__setitem__("context", {t: "value"}) or "$.context",
}


def _entry_with(place: str, text: str) -> tuple[dict[str, Any], str]:
    entry = support.make_entry("secret-carrier")
    field = PLACES[place](entry, text)
    return entry, field


@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("kind", sorted(TOKENS))
def test_library_refuses_every_shape_in_every_place(
    index_path: Path, kind: str, place: str
) -> None:
    append_entry(index_path, support.make_entry("already-there"))
    before = index_path.read_bytes()
    for wrapping, wrap in WRAPPINGS.items():
        entry, field = _entry_with(place, wrap(TOKENS[kind]))
        with pytest.raises(SecretInEntryError) as caught:
            append_entries(index_path, [support.make_entry("innocent"), entry])
        message = str(caught.value)
        assert field in message, (wrapping, message)
        assert "secret-carrier" in message
        assert TOKENS[kind] not in message, "the refusal must not echo the credential"
        assert index_path.read_bytes() == before, "a refused batch writes nothing at all"
        support.count("secret appends refused (library)")


def test_near_misses_are_not_refused(index_path: Path) -> None:
    """Prose about credentials is fine; only credential-shaped strings are refused."""
    texts = [
        "GitHub tokens start with ghp_ followed by 36 characters",
        "set AWS_SECRET_ACCESS_KEY in the CI settings, never in code",
        "-----BEGIN CERTIFICATE----- is public, a PRIVATE KEY block is not",
        "sk-short is not a key",
        "clone https://github.com/o/r or ssh://git@github.com:22/o/r.git",
        "connect to postgres://app@db.internal/app with the password from the vault",
    ]
    for number, text in enumerate(texts):
        append_entry(index_path, support.make_entry(f"prose-{number}", content=text))
    support.count("secret near-misses accepted")


def test_cli_add_refuses_a_token(index_path: Path) -> None:
    for kind in ("GitHub token", "AWS access key id", "private key block"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "riverbed",
                "--index",
                str(index_path),
                "add",
                "--type",
                "decision",
                "--title",
                "rotate keys",
                "--content",
                WRAPPINGS["env assignment"](TOKENS[kind]),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 2, result.stderr
        assert "$.content" in result.stderr and kind in result.stderr
        assert TOKENS[kind] not in result.stderr + result.stdout
        assert not index_path.exists()
        support.count("secret appends refused (CLI)")


def test_mcp_deposit_refuses_a_token(index_path: Path) -> None:
    pytest.importorskip("mcp")
    import os

    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    append_entry(index_path, support.make_entry("already-there"))
    before = index_path.read_bytes()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "riverbed", "mcp", "--index", str(index_path)],
        env={
            "PYTHONPATH": os.environ.get("PYTHONPATH", os.pathsep.join(sys.path)),
        },
    )

    async def deposit_all() -> list[tuple[str, bool, str]]:
        outcomes = []
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            for kind, token in TOKENS.items():
                for field in ("title", "content"):
                    arguments = {"type": "decision", "title": "t", "content": "c"}
                    arguments[field] = f"use {token} for now"
                    result = await client.call_tool("deposit", arguments)
                    text = "".join(getattr(b, "text", "") for b in result.content)
                    outcomes.append((f"{kind} in {field}", result.is_error, text))
        return outcomes

    outcomes = anyio.run(deposit_all)
    for what, is_error, text in outcomes:
        assert is_error, what
        assert "looks like a" in text, (what, text)
        support.count("secret deposits refused (MCP)")
    assert index_path.read_bytes() == before


# The scan's prefilter (one search over an entry's JSON text, then the per-string scan only on
# a hit) against the scan as it was: one anchor search per string. Never a miss allowed.
OLD_ANCHORS = re.compile(
    "|".join(
        [
            r"gh[pousr]_",
            r"github_pat_",
            r"A[KS]IA|ABIA|ACCA",
            r"[Aa][Ww][Ss]",
            r"-----BEGIN ",
            r"xox",
            r"xapp-",
            r"hooks\.slack\.com",
            r"glpat-",
            r"AIza",
            r"_live_",
            r"sk-",
            r"sk-ant-",
            r"npm_",
            r"eyJ",
            r"://",
        ]
    )
)


def old_secret_kind(text: str) -> str | None:
    if not OLD_ANCHORS.search(text):
        return None
    for kind, shape in secrets._compiled()[1]:
        if shape.search(text):
            return kind
    return None


def old_strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield f"{path} (a key)", str(key)
            yield from old_strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from old_strings(item, f"{path}[{position}]")


def old_find_secret(entry: Any) -> tuple[str, str] | None:
    for path, text in old_strings(entry, "$"):
        kind = old_secret_kind(text)
        if kind:
            return path, kind
    return None


#: Pieces that make anchors, near-anchors and whole tokens likely, with what JSON escapes.
FRAGMENTS = [
    *("gh", "p_", "o_", "github_", "pat_", "AK", "IA", "AS", "ACCA", "ABIA", "AI", "za"),
    *("aw", "AW", "s", "S", "-----", "BEGIN ", "xo", "x", "app-", "hooks.", "slack.com"),
    *("gl", "pat-", "_live_", "sk", "-", "ant-", "npm", "_", "ey", "J", "eyJ", "."),
    *('"', "\\", "\n", "\u0000", "\u2028", "é", "🦀", " ", "=", "key"),
    *TOKENS.values(),
]
TEXTS = st.lists(
    st.sampled_from(FRAGMENTS) | st.text(st.characters(exclude_categories=("Cs",)), max_size=3),
    max_size=8,
).map("".join)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats(allow_nan=False) | TEXTS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=support.scale(1500, 20000), deadline=None, database=None)
@given(value=VALUES)
def test_the_prefilter_never_misses_what_the_per_string_scan_finds(value: Any) -> None:
    found = old_find_secret(value)
    event("a credential" if found else "an anchor" if secrets.may_hold_secret(value) else "none")
    if found is not None:
        assert secrets.may_hold_secret(value)
        assert write_checks._clear([value]) is False
    assert secrets.find_secret(value) == found
    for _, text in old_strings(value, "$"):
        assert bool(secrets._compiled()[0].search(text)) == bool(OLD_ANCHORS.search(text))
        assert secrets.secret_kind(text) == old_secret_kind(text)


def test_every_anchor_is_seen_in_every_spot_of_json_text() -> None:
    anchors = [a for _, listed, _ in secrets._PATTERNS for a in listed]
    assert len(anchors) == 30
    for anchor in anchors:
        assert OLD_ANCHORS.fullmatch(anchor), anchor  # the same language as before
        for text in (anchor, f'"{anchor}\\', f"\n{anchor}\u0000", f"é{anchor}🦀"):
            for value in (text, [1, text], {text: None}, {"k": {"deep": [text]}}):
                assert secrets.may_hold_secret(value), (anchor, value)
                assert secrets.json_may_hold_secret(json.dumps(value).encode())


def nested_around(levels: int, inner: Any) -> Any:
    for _ in range(levels):
        inner = [inner]
    return inner


@st.composite
def new_entries(draw: st.DrawFn) -> dict[str, Any]:
    """Entry-shaped values: maybe a credential anywhere, maybe nesting about the limit."""
    entry = {"id": draw(TEXTS), "content": draw(VALUES), "context": {draw(TEXTS): draw(VALUES)}}
    if draw(st.integers(0, 4)) == 0:
        inner = draw(st.sampled_from([1, [], {}, "x"]))
        entry["context"]["deep"] = nested_around(draw(st.integers(MAX_DEPTH - 8, MAX_DEPTH)), inner)
    return entry


def outcome(check: Callable[[], None]) -> tuple[str, str] | None:
    try:
        check()
    except InvalidEntryError as refused:
        return type(refused).__name__, str(refused)
    return None


@settings(max_examples=support.scale(400, 5000), deadline=None, database=None)
@given(entries=st.lists(new_entries(), max_size=9), chunk=st.integers(1, 4))
def test_checking_new_entries_together_refuses_as_one_by_one(
    entries: list[dict[str, Any]], chunk: int
) -> None:
    def one_by_one() -> None:
        for entry in entries:
            write_checks.check_entry_written(None, entry)

    with mock.patch.object(write_checks, "_CHUNK", chunk):
        together = outcome(lambda: write_checks.check_entries_written([(None, e) for e in entries]))
    event("refused" if together else "accepted")
    assert together == outcome(one_by_one)


def test_a_write_without_an_anchor_compiles_no_shape_and_one_with_a_credential_is_refused() -> None:
    # A fresh process: the shapes are compiled on the first string that holds an anchor, and
    # refuse it as they always did (a positive control after the lazy compile).
    probe = (
        "from riverbed.index import secrets, write_checks as w\n"
        "w.check_entries_written([(None, {'id': 'a', 'content': 'plain text'})])\n"
        "print(secrets._compiled.cache_info().currsize)\n"
        f"w.check_entries_written([(None, {{'id': 'b', 'content': {TOKENS['GitHub token']!r}}})])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.stdout.splitlines() == ["0"]
    assert "SecretInEntryError: entry 'b': $.content looks like a GitHub token" in done.stderr
