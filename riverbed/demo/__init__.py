"""`riverbed demo`: the whole story offline — memory, three pull requests, the action."""

from __future__ import annotations

from riverbed.demo.runner import run_demo
from riverbed.demo.story import Step, Story, render_text

__all__ = ["Step", "Story", "render_text", "run_demo"]
