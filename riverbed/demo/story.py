"""The demo's story as data: numbered steps with facts, and how it reads as text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from riverbed.demo.terminal import for_terminal

#: Width of the frame drawn around a posted review or reply.
FRAME_WIDTH = 78


@dataclass(frozen=True)
class Step:
    """One step of the story: a title, one or two lines, the facts tests check, and a block."""

    key: str
    act: int
    title: str
    lines: tuple[str, ...]
    facts: dict[str, Any] = field(default_factory=dict)
    #: Text shown verbatim in a frame (a posted review body, a reply); None for most steps.
    block_title: str | None = None
    block: str | None = None

    def as_dict(self, number: int) -> dict[str, Any]:
        """JSON form."""
        out: dict[str, Any] = {
            "number": number,
            "key": self.key,
            "act": self.act,
            "title": self.title,
            "lines": list(self.lines),
            "facts": self.facts,
        }
        if self.block is not None:
            out["block"] = {"title": self.block_title, "text": self.block}
        return out


@dataclass(frozen=True)
class Failure:
    """The step that failed and why."""

    key: str
    title: str
    message: str


@dataclass(frozen=True)
class Story:
    """Everything the demo did, in order; `failure` is set when a step did not finish."""

    directory: str
    steps: tuple[Step, ...]
    seconds: float
    failure: Failure | None = None
    #: Warnings the library and the action gave, each once, in order of first sight.
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every step ran."""
        return self.failure is None

    def as_dict(self) -> dict[str, Any]:
        """JSON form (`riverbed demo --json`)."""
        return {
            "ok": self.ok,
            "directory": self.directory,
            "seconds": round(self.seconds, 2),
            "steps": [step.as_dict(n) for n, step in enumerate(self.steps, 1)],
            "warnings": list(self.warnings),
            "failure": None
            if self.failure is None
            else {
                "step": self.failure.key,
                "title": self.failure.title,
                "message": self.failure.message,
            },
        }


ACT_TITLES = {
    1: "Act 1: the memory, through the library",
    2: "Act 2: the GitHub Action itself, against a local GitHub stand-in",
    3: "Act 3: memory that learns",
}


def frame(title: str, text: str, width: int = FRAME_WIDTH) -> list[str]:
    """`text` inside a box headed by `title`; lines are kept whole (wide ones overhang)."""
    head = f"┌─ {title} "
    lines = [head + "─" * max(0, width - len(head))]
    lines += [f"│ {line}".rstrip() for line in text.rstrip("\n").split("\n")]
    lines.append("└" + "─" * (width - 1))
    return lines


def render_text(story: Story) -> str:
    """The story as a human reads it."""
    out = [f"riverbed demo — working in {story.directory}", ""]
    act = 0
    for number, step in enumerate(story.steps, 1):
        if step.act != act:
            act = step.act
            if number > 1:
                out.append("")
            out += [ACT_TITLES.get(act, f"Act {act}"), ""]
        out.append(f"{number:>2}. {step.title}")
        out += [f"    {line}" for line in step.lines]
        if step.block is not None:
            shown = for_terminal(step.block)
            out += ["    " + line for line in frame(step.block_title or "", shown)]
    out.append("")
    if story.warnings:
        out.append(f"Warnings along the way ({len(story.warnings)}, each shown once):")
        out += [f"  - {warning}" for warning in story.warnings]
        out.append("")
    if story.failure is not None:
        out.append(
            f"FAILED at step {len(story.steps) + 1} ({story.failure.title}): "
            f"{story.failure.message}"
        )
    else:
        out.append(
            f"Done in {story.seconds:.1f} s: no token, no network, no model. "
            "GitHub was a local stand-in (riverbed.testing.FakeGitHub on 127.0.0.1)."
        )
    return "\n".join(out) + "\n"
