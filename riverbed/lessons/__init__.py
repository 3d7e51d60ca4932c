"""Lessons from what reviewers say: a model proposes, code decides (see docs/LESSONS.md)."""
