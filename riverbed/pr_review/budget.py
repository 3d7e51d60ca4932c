"""Fit sections of items into a character budget, cutting whole items and saying how many."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: GitHub's limit for a review or comment body.
GITHUB_BODY_LIMIT = 65_536


def text_length(text: str) -> int:
    """Length as GitHub's limit counts it, conservatively: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Section:
    """A titled list; `head`/`tail` wrap the items (a table header, `<details>` tags)."""

    head: str
    items: tuple[str, ...]
    noun: str
    tail: str = ""
    priority: int = 0  # lower is kept first when the budget is short


def cut_note(count: int, noun: str, limit: int) -> str:
    """The line that replaces cut items."""
    return f"\n… {count} more {noun} cut to keep this under {limit:,} characters.\n"


def fit_sections(
    fixed: int, sections: Sequence[Section], limit: int
) -> tuple[list[tuple[Section, int]], int]:
    """How many items of each section fit: [(section, kept count)] in input order, total cut."""
    budget = limit - fixed
    for section in sections:
        budget -= text_length(section.head) + text_length(section.tail)
        budget -= text_length(cut_note(10**9, section.noun, limit))
    kept = dict.fromkeys(range(len(sections)), 0)
    order = sorted(range(len(sections)), key=lambda i: sections[i].priority)
    for i in order:
        for item in sections[i].items:
            size = text_length(item)
            if size > budget:
                break
            budget -= size
            kept[i] += 1
        else:
            continue
        # Once one item does not fit, lower-priority sections get nothing more either,
        # so what is shown is always a prefix by importance.
        budget = -1
    cut = sum(len(s.items) - kept[i] for i, s in enumerate(sections))
    return [(s, kept[i]) for i, s in enumerate(sections)], cut


def render_sections(fitted: Sequence[tuple[Section, int]], limit: int) -> str:
    """The sections as text, each with a cut note when items were left out."""
    parts: list[str] = []
    for section, count in fitted:
        parts.append(section.head)
        parts.extend(section.items[:count])
        if count < len(section.items):
            parts.append(cut_note(len(section.items) - count, section.noun, limit))
        parts.append(section.tail)
    return "".join(parts)
