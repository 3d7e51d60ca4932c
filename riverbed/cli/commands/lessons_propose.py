"""`riverbed lessons propose`: a proposer reads a harvest, code checks and weighs, maybe writes.

The openai and ollama backends live in `riverbed.lessons.openai_backend`, imported only
when asked for (`make_proposer`; the key is read from the variable named, never passed on
the command line).
"""

from __future__ import annotations

import argparse
import importlib
import os
from pathlib import Path
from typing import Any

from riverbed.cli.output import Context, add_common_options, add_now_option, at_least_one, emit_json
from riverbed.errors import OptionalDependencyError, UsageError

BACKENDS = ("stub", "openai", "ollama")
OPENAI_BACKEND_MODULE = "riverbed.lessons.openai_backend"


def make_proposer(args: argparse.Namespace) -> Any:
    """The proposer the flags ask for: the stub, or an OpenAI-compatible endpoint."""
    if args.backend == "stub":
        if args.base_url or args.model or args.api_key_env:
            raise UsageError("--base-url, --model and --api-key-env need --backend openai|ollama")
        from riverbed.lessons.stub import StubProposer

        return StubProposer()
    try:
        module = importlib.import_module(OPENAI_BACKEND_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != OPENAI_BACKEND_MODULE:
            raise
        raise OptionalDependencyError(
            f"--backend {args.backend}: this riverbed has no OpenAI-compatible backend "
            f"({OPENAI_BACKEND_MODULE} is missing); use --backend stub"
        ) from None
    factory = getattr(module, "make_proposer", None)
    if factory is None:
        raise OptionalDependencyError(
            f"--backend {args.backend}: {OPENAI_BACKEND_MODULE} has no make_proposer"
        )
    return factory(
        args.backend,
        base_url=args.base_url,
        model=args.model,
        api_key_env=args.api_key_env,
        environ=os.environ,
    )


def refuse_writing_in_pull_request_jobs(write: bool) -> None:
    """`--write` inside a job a pull request or comment woke: its harvest file is not to be
    trusted there (the pull request's own code could have written it)."""
    from riverbed.cli.commands.lessons_harvest import REFUSED_EVENTS

    event = os.environ.get("GITHUB_EVENT_NAME", "")
    if write and os.environ.get("GITHUB_ACTIONS") == "true" and event in REFUSED_EVENTS:
        raise UsageError(
            f"riverbed lessons propose --write does not run in a {event} job: a pull request "
            "could have written its harvest file; run it in the scheduled job or from a "
            "maintainer's command line"
        )


def _cmd_propose(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.store import load, parse_now
    from riverbed.lessons.harvest_file import read_harvest
    from riverbed.lessons.pipeline import LessonsSettings, learn
    from riverbed.lessons.record_lessons import write_lessons
    from riverbed.lessons.render import report_text

    refuse_writing_in_pull_request_jobs(args.write)
    now = parse_now(args.now)
    harvest = read_harvest(Path(args.harvest))
    proposer = make_proposer(args)
    settings = LessonsSettings(min_prs=args.min_prs, min_authors=args.min_authors)
    try:
        if args.write:
            report = write_lessons(
                context.index_path, harvest, proposer, now=now, settings=settings
            )
        else:
            report = learn(harvest, proposer, load(context)["entries"], now, settings)
    finally:
        if callable(close := getattr(proposer, "close", None)):
            close()
    if context.as_json:
        emit_json({"path": str(context.index_path), "wrote": bool(args.write), **report.as_dict()})
        return 0
    print(report_text(report))
    if args.write:
        written = report.plan.as_dict()
        print(
            f"\nwrote {len(written['written'])} lesson candidate(s) to {context.index_path}"
            + ("; the harvest state updated" if written["stateWritten"] else "")
        )
    else:
        print("\nnothing written (add --write to record the candidates and the harvest state)")
    return 0


def register(verbs: Any) -> None:
    """Add `lessons propose`."""
    p = verbs.add_parser(
        "propose",
        help="propose lessons from a harvest file; code checks, weighs and (--write) offers them",
        description="A proposer (the stub, or an OpenAI-compatible model) proposes lessons for "
        "each harvested comment; code checks every quote against what was written, weighs "
        "lessons by distinct pull requests and people, and offers the ones that reach the "
        "threshold as promotion candidates (see docs/LESSONS.md).",
    )
    p.add_argument("--harvest", required=True, metavar="FILE", help="from `lessons harvest`")
    p.add_argument("--backend", choices=BACKENDS, default="stub", help="default stub (no model)")
    p.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (openai, ollama)")
    p.add_argument("--model", metavar="NAME", help="the model to ask (openai, ollama)")
    p.add_argument(
        "--api-key-env", metavar="NAME", help="the variable holding the API key (never the key)"
    )
    p.add_argument("--write", action="store_true", help="write candidates and the harvest state")
    p.add_argument(
        "--min-prs",
        type=at_least_one,
        default=2,
        metavar="N",
        help="pull requests a pattern or unscoped lesson needs (default 2)",
    )
    p.add_argument(
        "--min-authors",
        type=at_least_one,
        default=2,
        metavar="N",
        help="people a pattern or unscoped lesson needs (default 2)",
    )
    add_now_option(p)
    p.set_defaults(handler=_cmd_propose)
    add_common_options(p)
