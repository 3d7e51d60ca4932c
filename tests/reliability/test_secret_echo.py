"""Secrets are refused before anything repeats them: new shapes, comment commands, and ids.

Token values are assembled at run time from random characters (no literal credential sits in
this file). A refusal must not echo the token, not even part of it through a generated id.
"""

from __future__ import annotations

import random
import string
import subprocess
import sys
from pathlib import Path

import pytest
import reliability_support as support
from comment_bench import Bench, no_write

from riverbed import SecretInEntryError, append_entry
from riverbed.comments.parser import parse_command
from riverbed.errors import CommandParseError

_rng = random.Random(14)
ALNUM = string.ascii_letters + string.digits


def _chars(alphabet: str, count: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(count))


NEW_SHAPES = {
    "Slack app token": "xa" + "pp-1-A" + _chars(string.digits, 10) + "-" + _chars(ALNUM, 32),
    "Slack webhook URL": "https://hooks.sl"
    + "ack.com/services/T"
    + _chars(string.ascii_uppercase, 8)
    + "/B"
    + _chars(string.ascii_uppercase, 8)
    + "/"
    + _chars(ALNUM, 24),
    "GitLab token": "gl" + "pat-" + _chars(ALNUM, 20),
}
GITHUB = "gh" + "p_" + _chars(ALNUM, 36)
EVERY = {**NEW_SHAPES, "GitHub token": GITHUB}


def _pieces(token: str, size: int = 8) -> list[str]:
    """Every lower-cased run of `size` characters of the token's random part."""
    tail = token.lower()[-20:]
    return [tail[i : i + size] for i in range(len(tail) - size + 1)]


@pytest.mark.parametrize("kind", sorted(NEW_SHAPES))
def test_new_shapes_are_refused_on_append(index_path: Path, kind: str) -> None:
    append_entry(index_path, support.make_entry("already-there"))
    before = index_path.read_bytes()
    entry = support.make_entry("carrier", content=f"configure it with {NEW_SHAPES[kind]} today")
    with pytest.raises(SecretInEntryError) as caught:
        append_entry(index_path, entry)
    assert kind in str(caught.value) and NEW_SHAPES[kind] not in str(caught.value)
    assert index_path.read_bytes() == before
    support.count("secret appends refused (new shapes)")


@pytest.mark.parametrize("kind", sorted(EVERY))
def test_cli_add_without_a_title_echoes_no_part_of_the_token(index_path: Path, kind: str) -> None:
    """The id is generated from the content when there is no title; it must carry no token."""
    argv = [sys.executable, "-m", "riverbed", "--index", str(index_path), "add"]
    argv += ["--type", "decision", "--content", f"token {EVERY[kind]}"]
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert result.returncode == 2, result.stderr
    said = (result.stdout + result.stderr).lower()
    assert "looks like a" in said and "traceback" not in said
    assert not [piece for piece in _pieces(EVERY[kind]) if piece in said], said
    assert not index_path.exists()
    support.count("secret appends refused (CLI, no echo through the id)")


@pytest.mark.parametrize(
    "template",
    [
        '/riverbed archive p1 --reason "rotated {t}"',
        '/riverbed suppress 0123456789abcdef --reason "{t}"',
        "/riverbed revoke {t}",
        '/riverbed pattern "keys"\nuse {t} in CI',
    ],
)
@pytest.mark.parametrize("kind", sorted(EVERY))
def test_comment_commands_carrying_a_secret_are_refused_unechoed(
    bench: Bench, kind: str, template: str
) -> None:
    token = EVERY[kind]
    outcome = bench.comment(template.format(t=token))
    no_write(outcome)
    (reply,) = outcome.replies
    assert "looks like a" in reply and "nothing was changed" in reply
    lowered = reply.lower()
    assert not [piece for piece in _pieces(token) if piece in lowered], reply
    support.count("hostile comments refused: secret in a command")


def test_the_one_line_parser_refuses_without_echo() -> None:
    with pytest.raises(CommandParseError) as caught:
        parse_command(f'/riverbed archive p1 --reason "{GITHUB}"')
    assert "GitHub token" in str(caught.value) and GITHUB not in str(caught.value)
