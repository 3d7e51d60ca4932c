"""ActionContext: what every mode receives (config, runner, `now`, a lazy GitHub client)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from riverbed.action.config import ActionConfig
from riverbed.action.runner import Runner
from riverbed.errors import ActionConfigError
from riverbed.github.client import GitHubClient, GitHubSettings
from riverbed.index.jsonbytes import loads

#: The webhook payload is read once; anything bigger than this is not a GitHub event.
MAX_EVENT_BYTES = 25 * 1024 * 1024


@dataclass
class ActionContext:
    """One run of the action. Modes are `run(context) -> exit code` functions over this."""

    config: ActionConfig
    runner: Runner
    now: datetime
    settings: GitHubSettings = field(default_factory=GitHubSettings)
    _client: GitHubClient | None = None
    _event: dict[str, Any] | None = None

    def github(self) -> GitHubClient:
        """The GitHub client for this repository (created on first use)."""
        if self._client is None:
            self._client = GitHubClient(
                api_url=self.config.api_url,
                token=self.config.token,
                repository=self.config.repository,
                settings=self.settings,
            )
        return self._client

    def event(self) -> dict[str, Any]:
        """The webhook payload at GITHUB_EVENT_PATH ({} when there is none)."""
        if self._event is None:
            self._event = read_event(self.config)
        return self._event

    def close(self) -> None:
        """Release network connections."""
        if self._client is not None:
            self._client.close()


def read_event(config: ActionConfig) -> dict[str, Any]:
    """Read and parse the event payload file; ActionConfigError when it is unreadable."""
    path = config.event_path
    if path is None:
        return {}
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_EVENT_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ActionConfigError(
            f"GITHUB_EVENT_PATH {path}: cannot be read ({exc.strerror})"
        ) from None
    if len(data) > MAX_EVENT_BYTES:
        raise ActionConfigError(f"GITHUB_EVENT_PATH {path}: larger than {MAX_EVENT_BYTES} bytes")
    try:
        payload = loads(data)
    except ValueError as exc:
        raise ActionConfigError(f"GITHUB_EVENT_PATH {path}: not valid JSON ({exc})") from None
    if not isinstance(payload, dict):
        raise ActionConfigError(f"GITHUB_EVENT_PATH {path}: not a JSON object")
    return payload
