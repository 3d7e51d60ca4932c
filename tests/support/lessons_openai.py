"""Fixtures for the OpenAI stand-in: import `openai_description` and `openai` into a test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from riverbed.testing.openai.openapi import OpenAIDescription
from riverbed.testing.openai.server import FakeOpenAI

SUBSET = Path(__file__).resolve().parents[1] / "fixtures" / "openai-chat-subset.json"


@pytest.fixture(scope="session")
def openai_description() -> OpenAIDescription:
    """OpenAI's chat API description (the trimmed copy in tests/fixtures)."""
    return OpenAIDescription.from_file(SUBSET)


@pytest.fixture
def openai(openai_description: OpenAIDescription) -> Iterator[FakeOpenAI]:
    """A running stand-in checking every exchange; it must not crash and must be used up."""
    with FakeOpenAI(openapi=openai_description) as fake:
        yield fake
    assert fake.server_errors == []
