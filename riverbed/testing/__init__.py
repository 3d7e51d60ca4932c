"""Testing utilities shipped with riverbed: a local GitHub REST stand-in and webhook payloads.

Nothing here talks to the real GitHub. `FakeGitHub` is a test double that imitates the
documented behaviour of the endpoints riverbed uses; see docs/TESTING.md.
"""

from __future__ import annotations

from riverbed.testing.github.http_server import RecordedRequest
from riverbed.testing.github.server import FakeGitHub

__all__ = ["FakeGitHub", "RecordedRequest"]
