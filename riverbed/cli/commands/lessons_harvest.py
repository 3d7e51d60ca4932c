"""`riverbed lessons harvest`: merged pull requests' comments by writers, visible text only."""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path
from typing import Any, Final

from riverbed.cli.output import Context, add_common_options, add_now_option, emit_json

#: Events whose jobs run for a pull request's author: a harvest never runs there.
REFUSED_EVENTS: Final = frozenset(
    {
        "pull_request",
        "pull_request_target",
        "pull_request_review",
        "pull_request_review_comment",
        "issue_comment",
    }
)


def refuse_in_pull_request_jobs(environ: dict[str, str] | os._Environ[str]) -> None:
    """UsageError inside a GitHub Actions job woken by a pull request or a comment."""
    from riverbed.errors import UsageError

    event = environ.get("GITHUB_EVENT_NAME", "")
    if environ.get("GITHUB_ACTIONS") == "true" and event in REFUSED_EVENTS:
        raise UsageError(
            f"riverbed lessons harvest does not run in a {event} job: a pull request or a "
            "comment could steer it there; run it in the scheduled job or from a "
            "maintainer's command line"
        )


def summary_lines(harvest: Any) -> list[str]:
    """What a harvest read, kept and refused (by reason), one fact a line."""
    prs = ", ".join(f"#{n}" for n in harvest.prs) or "none"
    lines = [
        f"read {harvest.comments_read} comments on {len(harvest.prs)} merged pull requests "
        f"({prs}); kept {len(harvest.utterances)} from writers",
    ]
    refused = sum(harvest.refused.values())
    lines.append(f"refused {refused}" + (":" if refused else ""))
    lines += [f"  {reason}: {count}" for reason, count in sorted(harvest.refused.items())]
    return lines


def memory_cursor(index_path: Path) -> str | None:
    """When the last full harvest ran, as the index's lessons state records it (or None)."""
    from riverbed.index.storage import read_index
    from riverbed.lessons.stored import read_state

    return read_state(read_index(index_path)["entries"]).cursor


def _cmd_harvest(args: argparse.Namespace, context: Context) -> int:
    import github  # noqa: F401 - its import sets the level this command then lowers

    from riverbed.cli.commands.store import parse_now
    from riverbed.errors import StoreWriteError, UsageError
    from riverbed.github.client import DEFAULT_API_URL, GitHubClient
    from riverbed.index.atomic_write import write_failure
    from riverbed.lessons.github_harvest import HarvestRequest, harvest, parse_since
    from riverbed.lessons.harvest_file import harvest_json, write_harvest
    from riverbed.text import terminal

    refuse_in_pull_request_jobs(os.environ)
    repository = args.repo or os.environ.get("GITHUB_REPOSITORY", "")
    if not repository:
        raise UsageError("which repository? give --repo OWNER/NAME (or set GITHUB_REPOSITORY)")
    if args.pr is not None and args.since is not None:
        raise UsageError("give --pr or --since, not both")
    if args.pr is not None and args.pr < 1:
        raise UsageError(f"--pr {args.pr} is not a pull request number")
    if args.since is not None:
        parse_since(args.since)  # a bad value is refused before any request
    token = os.environ.get("GITHUB_TOKEN", "")
    if not token:
        raise UsageError(
            "set GITHUB_TOKEN to a token that may read the repository's pull requests "
            "(`pull-requests: read`)"
        )
    api_url = args.api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL
    # PyGithub logs each refused request on stderr at INFO; the one-line error says it better.
    logging.getLogger("github").setLevel(logging.WARNING)
    client = GitHubClient(api_url=api_url, token=token, repository=repository)
    since, origin = args.since, "--since"
    if since is None and args.pr is None and context.index_path.exists():
        since, origin = memory_cursor(context.index_path), "the last harvest memory records"
    request = HarvestRequest(repository=repository, since=since, pr=args.pr)
    try:
        result = harvest(client, request, now=parse_now(args.now))
    finally:
        client.close()
    if args.out is not None:
        out = Path(args.out)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreWriteError(write_failure(out, exc, "the harvest file")) from None
        write_harvest(out, result)
    if context.as_json:
        emit_json(harvest_json(result) | {"written": args.out})
        return 0
    if since is not None:
        print(terminal(f"merged since {since} ({origin})"))
    for line in summary_lines(result):
        print(terminal(line))
    print(f"written to {terminal(args.out)}" if args.out else "nothing written (give --out FILE)")
    return 0


def register(verbs: Any) -> None:
    """Add `lessons harvest`."""
    p = verbs.add_parser(
        "harvest",
        help="read merged pull requests' comments by people with write access (no model)",
        description=(
            "Reads the review comments and conversation of merged pull requests (those "
            "merged since --since, else since the last harvest the index records, else in "
            "the last 90 days; or the one --pr) and keeps the "
            "visible words of people with write permission: no bots, no riverbed, no "
            "command lines, no quotes, code, HTML comments or hidden HTML, no invisible "
            "characters. Refusals (outsider, bot, secret, too long, …) are counted by "
            "reason. The token is read from $GITHUB_TOKEN. Refused inside pull request and "
            "comment jobs."
        ),
    )
    p.add_argument("--repo", metavar="OWNER/NAME", help="default: $GITHUB_REPOSITORY")
    p.add_argument("--pr", type=int, metavar="N", help="only this merged pull request")
    p.add_argument("--since", metavar="DATE", help="merged at or after this RFC 3339 instant")
    p.add_argument("--out", metavar="FILE", help="write the harvest (versioned JSON) here")
    p.add_argument(
        "--api-url",
        metavar="URL",
        help="GitHub's REST API (default: $GITHUB_API_URL, else https://api.github.com)",
    )
    add_now_option(p)
    p.set_defaults(handler=_cmd_harvest)
    add_common_options(p)
