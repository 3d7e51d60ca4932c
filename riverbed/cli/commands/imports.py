"""`riverbed import code-scanning`: GitHub code scanning dismissals become suppressions."""

from __future__ import annotations

import argparse
import os
from typing import Any

from riverbed.cli.output import (
    Context,
    add_author_option,
    add_common_options,
    add_now_option,
    emit_json,
    no_index_message,
)


def _cmd_code_scanning(args: argparse.Namespace, context: Context) -> int:
    import github  # noqa: F401 - its import sets the level this command then lowers

    from riverbed.cli.commands.store import default_author, parse_now
    from riverbed.errors import UsageError
    from riverbed.github.client import DEFAULT_API_URL, GitHubClient
    from riverbed.github.code_scanning import GitHubAlertSource
    from riverbed.memory.record_code_scanning import run_import, skipped_lines, summary_line
    from riverbed.text import terminal

    repository = args.repo or os.environ.get("GITHUB_REPOSITORY", "")
    if not repository:
        raise UsageError("which repository? give --repo OWNER/NAME (or set GITHUB_REPOSITORY)")
    token = os.environ.get("GITHUB_TOKEN", "")
    if not token:
        raise UsageError(
            "set GITHUB_TOKEN to a token that may read code scanning alerts "
            "(`security-events: read`, or the `security_events` scope)"
        )
    if not context.index_path.exists():
        raise UsageError(no_index_message(context.index_path))
    api_url = args.api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL
    now = parse_now(args.now)
    client = GitHubClient(api_url=api_url, token=token, repository=repository)
    try:
        report = run_import(
            context.index_path,
            GitHubAlertSource(client),
            repository=repository,
            author=args.author or default_author(),
            now=now,
            dry_run=args.dry_run,
        )
    finally:
        client.close()
    for line in skipped_lines(report):
        context.warn(terminal(line))
    if context.as_json:
        emit_json({**report.as_json(), "warnings": context.warnings})
    else:
        print(terminal(summary_line(report)))
    return 0


def register(subparsers: Any) -> None:
    """Add `import code-scanning`."""
    group = subparsers.add_parser(
        "import", help="import decisions made elsewhere as memory (code-scanning)"
    )
    group.set_defaults(handler=None)
    verbs = group.add_subparsers(dest="import_source", metavar="SOURCE", parser_class=type(group))
    about = (
        "GitHub code scanning alerts dismissed as false positive (false_positive), won't fix "
        "or used in tests (accepted_risk) become suppressions of their rule in their one "
        "file; a second import writes nothing; an alert open again revokes the suppression "
        "it had created. The token is read from $GITHUB_TOKEN (it needs security-events: "
        "read). Prints added, already present, revoked and skipped (each with why)."
    )
    p = verbs.add_parser(
        "code-scanning",
        help="dismissed GitHub code scanning alerts become suppressions; reopened ones revoke",
        description=about,
    )
    p.add_argument(
        "--repo",
        metavar="OWNER/NAME",
        help="the repository whose alerts are read (default: $GITHUB_REPOSITORY)",
    )
    p.add_argument(
        "--api-url",
        metavar="URL",
        help="GitHub's REST API (default: $GITHUB_API_URL, else https://api.github.com; "
        "for GitHub Enterprise Server, https://HOST/api/v3)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="say what would be added and revoked; write nothing"
    )
    add_author_option(p)
    add_now_option(p)
    p.set_defaults(handler=_cmd_code_scanning)
    add_common_options(p)
