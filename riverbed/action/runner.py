"""The one adapter for runner I/O (inputs, outputs, annotations, groups, summary, masking).

Built on `actions_toolkit.core`; its `github` module is never imported (it hard-codes the API
URL and edits `sys.path` on import).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from riverbed.errors import ActionConfigError
from riverbed.text import neutralize

#: GitHub refuses a step summary over 1 MiB; stay well below and say when cut.
MAX_SUMMARY_CHARS = 512 * 1024


def _core() -> Any:
    from actions_toolkit import core

    return core


def output_value(value: object) -> str:
    """How an output value is written: booleans as true/false, the rest as text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class Runner:
    """Runner I/O for the action; everything the action says to the runner goes through here."""

    def __init__(self) -> None:
        self.outputs: dict[str, str] = {}

    def get_input(self, name: str) -> str:
        """An input by its kebab-case name, read from `INPUT_<NAME>` (dashes → underscores)."""
        value: str = _core().get_input(name.replace("-", "_"))
        return value

    def set_output(self, name: str, value: object) -> None:
        """Write one step output (to $GITHUB_OUTPUT)."""
        text = output_value(value)
        self.outputs[name] = text
        try:
            _core().set_output(name, text)
        except Exception as exc:  # actions_toolkit raises bare Exception for a bad file path
            raise ActionConfigError(
                f"could not write output {name!r} to GITHUB_OUTPUT "
                f"({os.environ.get('GITHUB_OUTPUT')!r}): {exc}"
            ) from None

    def mask(self, secret: str) -> None:
        """Ask the runner to mask a secret in every later log line."""
        if secret:
            _core().set_secret(secret)

    def error(self, message: str) -> None:
        """An `::error::` annotation."""
        _core().error(message)

    def warning(self, message: str) -> None:
        """A `::warning::` annotation."""
        _core().warning(message)

    def notice(self, message: str) -> None:
        """A `::notice::` annotation."""
        _core().notice(message)

    def info(self, message: str) -> None:
        """A plain log line (untrusted text cannot smuggle workflow commands through it)."""
        _core().info(neutralize(message))

    @contextlib.contextmanager
    def group(self, title: str) -> Iterator[None]:
        """A foldable group in the log."""
        core = _core()
        core.start_group(neutralize(title).replace("\r", " ").replace("\n", " "))
        try:
            yield
        finally:
            core.end_group()

    def append_summary(self, markdown: str) -> bool:
        """Append Markdown to the job summary ($GITHUB_STEP_SUMMARY); False when there is none."""
        target = os.environ.get("GITHUB_STEP_SUMMARY", "").strip()
        if not target:
            self.info("GITHUB_STEP_SUMMARY is not set; job summary written to the log instead")
            self.info(markdown)
            return False
        if len(markdown) > MAX_SUMMARY_CHARS:
            cut = len(markdown) - MAX_SUMMARY_CHARS
            markdown = (
                markdown[:MAX_SUMMARY_CHARS]
                + f"\n\n*… summary cut: {cut} characters left out (GitHub's limit is 1 MiB).*\n"
            )
        try:
            with Path(target).open("a", encoding="utf-8") as handle:
                handle.write(markdown if markdown.endswith("\n") else markdown + "\n")
        except OSError as exc:
            self.warning(f"could not write the job summary to {target}: {exc.strerror}")
            return False
        return True

    def annotation(self, line: str) -> None:
        """Print one pre-escaped `::warning file=…,line=…::…` line (built by riverbed.pr_review)."""
        if "\n" in line or "\r" in line or not line.startswith(("::warning ", "::notice ")):
            raise ValueError("an annotation is one `::warning …::` or `::notice …::` line")
        import sys

        sys.stdout.write(line + "\n")
        sys.stdout.flush()
