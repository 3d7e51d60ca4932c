"""Readable, unique entry ids such as `pattern-react-query-k3x9`."""

from __future__ import annotations

import re
import secrets
from collections.abc import Container

from riverbed.index.secrets import secret_kind

_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
_WORD = re.compile(r"[a-z0-9]+")


def slug(text: str, *, words: int = 3, max_len: int = 32) -> str:
    """Lower-case ASCII words of `text` joined by dashes (empty when it has none)."""
    parts = _WORD.findall(text.lower())[:words]
    return "-".join(parts)[:max_len].strip("-")


def new_entry_id(entry_type: str, title: str, taken: Container[str] = ()) -> str:
    """`{type}-{slug of title}-{4 random chars}`, retried until it is not in `taken`.

    A title holding a credential gives no slug: the id is printed, also in the refusal.
    """
    words = "" if secret_kind(title) else slug(title)
    stem = "-".join(p for p in (entry_type.replace("_", "-"), words) if p)
    while True:
        suffix = "".join(secrets.choice(_ALPHABET) for _ in range(4))
        candidate = f"{stem}-{suffix}"
        if candidate not in taken:
            return candidate


def unused_id(candidate: str, taken: Container[str]) -> str:
    """`candidate`, or `candidate-2`, `-3`… when an entry already has it.

    Ids stamped to the second repeat when the same content is recorded twice in one second
    (a finding set that came back, a re-run job); a repeated id would make the index invalid.
    """
    found, n = candidate, 1
    while found in taken:
        n += 1
        found = f"{candidate}-{n}"
    return found
