"""The GitHub boundary: one PyGithub client and the REST calls riverbed makes through it."""

from __future__ import annotations

from riverbed.github.artifacts import (
    ArtifactInfo,
    Download,
    RunInfo,
    artifact_from_json,
    download_artifact,
    get_run,
    list_artifacts,
    repository_id,
)
from riverbed.github.client import GitHubClient, GitHubSettings

__all__ = [
    "ArtifactInfo",
    "Download",
    "GitHubClient",
    "GitHubSettings",
    "RunInfo",
    "artifact_from_json",
    "download_artifact",
    "get_run",
    "list_artifacts",
    "repository_id",
]
