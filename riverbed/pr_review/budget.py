"""Fit sections of items into a character budget, cutting whole items and saying how many."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: GitHub's limit for a review or comment body.
GITHUB_BODY_LIMIT = 65_536
#: GitHub's limit for one step's job summary: 1 MiB (of UTF-8), a little kept for the status.
SUMMARY_LIMIT = 1024 * 1024 - 4096
#: How a budget counts text.
Measure = Callable[[str], int]


def text_length(text: str) -> int:
    """Length as GitHub's limit counts it, conservatively: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def utf8_length(text: str) -> int:
    """Length in UTF-8 bytes (the job summary's limit is in bytes)."""
    return len(text.encode("utf-8"))


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
    fixed: int, sections: Sequence[Section], limit: int, *, measure: Measure = text_length
) -> tuple[list[tuple[Section, int]], int]:
    """How many items of each section fit: [(section, kept count)] in input order, total cut."""
    budget = limit - fixed
    for section in sections:
        budget -= measure(section.head) + measure(section.tail)
        budget -= measure(cut_note(10**9, section.noun, limit))
    kept = dict.fromkeys(range(len(sections)), 0)
    order = sorted(range(len(sections)), key=lambda i: sections[i].priority)
    for i in order:
        for item in sections[i].items:
            size = measure(item)
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
    """The sections as text, each with a cut note; a section cut whole keeps only its note."""
    parts: list[str] = []
    for section, count in fitted:
        if count == 0 and section.items:
            # Never a heading over nothing: say what was cut instead.
            parts.append(cut_note(len(section.items), section.noun, limit))
            continue
        parts.append(section.head)
        parts.extend(section.items[:count])
        if count < len(section.items):
            parts.append(cut_note(len(section.items) - count, section.noun, limit))
        parts.append(section.tail)
    return "".join(parts)
