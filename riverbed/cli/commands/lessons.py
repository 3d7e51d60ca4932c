"""The `riverbed lessons` group: harvest, propose, eval (one module per verb registers it)."""

from __future__ import annotations

import importlib
from typing import Any

#: Modules that add a `lessons` verb; each has `register(lessons_subparsers)`.
LESSON_VERB_MODULES: tuple[str, ...] = (
    "riverbed.cli.commands.lessons_harvest",
    "riverbed.cli.commands.lessons_propose",
    "riverbed.cli.commands.lessons_eval",
)


def register(subparsers: Any) -> None:
    """Add `lessons` and its verbs."""
    p = subparsers.add_parser(
        "lessons",
        help="lessons from what reviewers wrote: harvest, propose (a model proposes, code "
        "decides), eval",
    )
    verbs = p.add_subparsers(dest="lessons_verb", metavar="VERB", required=True)
    for name in LESSON_VERB_MODULES:
        importlib.import_module(name).register(verbs)
