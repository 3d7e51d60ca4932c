"""Verbs over the store's entries: init, add, query, show, supersede, archive, expire."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from riverbed.cli.output import (
    Context,
    add_author_option,
    add_common_options,
    add_now_option,
    at_least_one,
    emit_json,
    table,
)
from riverbed.errors import UsageError
from riverbed.index.dates import format_timestamp
from riverbed.index.model import (
    ENTRY_TYPES,
    PHASES,
    Entry,
    Index,
    entry_phase,
    entry_status,
    entry_title,
)
from riverbed.text import plural


def default_author() -> str:
    """$RIVERBED_AUTHOR, else the login name."""
    try:
        return os.environ.get("RIVERBED_AUTHOR") or getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def parse_now(value: str | None) -> Any:
    """`--now` through the one date rule (or the current time)."""
    from riverbed.index.dates import parse_expires_at, utc_now

    return parse_expires_at(value) if value else utc_now()


def load(context: Context, *, include_archive: bool = False) -> Index:
    """Load the index (and, when asked, its cold archive), printing its warnings."""
    from riverbed.index.store import load_memory

    index = load_memory(context.index_path, on_warning=context.warn)
    if not include_archive:
        return index
    from riverbed.merging.cold_archive import archive_path_for, read_archive
    from riverbed.merging.compaction import with_archive

    return with_archive(index, read_archive(archive_path_for(context.index_path)))


def _cmd_init(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.gitmerge import say_merge_setup, setup_merge
    from riverbed.index.gitignore import ensure_gitignore
    from riverbed.index.model import empty_index
    from riverbed.index.storage import locked, read_index, write_index_atomic

    path = context.index_path
    with locked(path):
        # The .gitignore and .gitattributes first: a refusal there leaves no new index behind.
        ignored = ensure_gitignore(path)
        merging = setup_merge(path, configure=args.merge_driver)
        existing = path.exists()
        if existing:
            index = read_index(path)
        else:
            index = empty_index()
            write_index_atomic(path, index)
    gitignore = path.parent / ".gitignore"
    if context.as_json:
        emit_json(
            {
                "path": str(path),
                "created": not existing,
                "entries": len(index["entries"]),
                "gitignore": str(gitignore),
                "gitignore_changed": ignored,
                "gitattributes": str(merging.attributes) if merging.attributes else None,
                "gitattributes_changed": merging.changed,
                "merge_driver_configured": merging.configured,
                "merge_driver_config": merging.config_line,
            }
        )
        return 0
    if existing:
        print(f"{path} already exists with {plural(len(index['entries']), 'entry')}; left as is")
    else:
        print(f"created {path} (empty index)")
    if ignored:
        print(f"wrote {gitignore}: keeps the lock file and interrupted writes out of git")
    say_merge_setup(merging)
    return 0


def _content(args: argparse.Namespace) -> str:
    if args.content_file is not None:
        if args.content is not None:
            raise UsageError("give --content or --content-file, not both")
        if args.content_file == "-":
            return sys.stdin.read()
        try:
            return Path(args.content_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read --content-file {args.content_file}: {exc}") from None
    if args.content is None:
        raise UsageError("an entry needs --content TEXT or --content-file FILE (- for stdin)")
    return str(args.content)


def _cmd_add(args: argparse.Namespace, context: Context) -> int:
    from riverbed.cli.commands.suppress import typed_names  # the one rule for typed paths
    from riverbed.index.build import build_entry
    from riverbed.index.dates import utc_now
    from riverbed.index.store import append_entries

    index = load(context)
    taken = {e["id"] for e in index["entries"]}
    entry = build_entry(
        type=args.type,
        title=args.title or "",
        content=_content(args),
        author=args.author or default_author(),
        now=utc_now(),
        phase=args.phase,
        tags=args.tag,
        files=typed_names(args.file, "--file", context),
        links=args.link,
        expires=args.expires,
        summary=args.summary,
        entry_id=args.id,
        taken_ids=taken,
    )
    report = append_entries(context.index_path, [entry])
    if context.as_json:
        emit_json({"entry": entry, "appended": bool(report.appended)})
    elif report.appended:
        print(f"added {entry['id']} ({entry['type']}) to {context.index_path}")
    else:
        print(f"{entry['id']} was already in {context.index_path} unchanged; nothing written")
    return 0


def entry_rows(entries: list[Entry], states: list[Any]) -> list[list[object]]:
    """Table rows: id, type, effective state (revoked, expired, …), phase, title."""
    return [
        [e["id"], e.get("type"), state.state, entry_phase(e) or "-", entry_title(e)]
        for e, state in zip(entries, states, strict=True)
    ]


def _cmd_query(args: argparse.Namespace, context: Context) -> int:
    from collections import Counter

    from riverbed.index.effective import effective_state, revocation_records, with_state
    from riverbed.index.query import query_memory

    index = load(context, include_archive=args.include_archive)
    found = query_memory(
        index,
        type=args.type,
        tags=args.tag or None,
        phase=args.phase,
        text=args.text,
        include_inactive=args.all,
    )
    shown = found[: args.limit] if args.limit is not None else found
    revocations = revocation_records(index["entries"])
    now = parse_now(args.now)
    states = [effective_state(e, revocations, now) for e in shown]
    if context.as_json:
        entries = [with_state(e, state) for e, state in zip(shown, states, strict=True)]
        emit_json({"count": len(found), "shown": len(shown), "entries": entries})
        return 0
    if not found:
        scope = "entries" if args.all else "active entries (add --all for every status)"
        print(f"no matching {scope} in {context.index_path}")
        return 0
    print(table(["id", "type", "state", "phase", "title"], entry_rows(shown, states)))
    left = len(found) - len(shown)
    tail = f"; {left} more left out by --limit {args.limit}" if left else ""
    print(f"\n{plural(len(found), 'entry')} matched{tail}")
    stale = [s for e, s in zip(shown, states, strict=True) if s.state != entry_status(e)]
    if stale:
        kinds = ", ".join(f"{n} {k}" for k, n in Counter(s.state for s in stale).items())
        print(
            f"{plural(len(stale), 'entry')} stored as active "
            f"{'no longer applies' if len(stale) == 1 else 'no longer apply'} ({kinds}); "
            "`riverbed show ID` says by what and when"
        )
    return 0


def _find(index: Index, entry_id: str) -> Entry:
    from riverbed.errors import EntryNotFoundError

    for entry in index["entries"]:
        if entry["id"] == entry_id:
            found: Entry = entry
            return found
    raise EntryNotFoundError(
        f"no entry with id {entry_id!r} in {plural(len(index['entries']), 'entry')} "
        "(list ids with `riverbed query --all`)"
    )


def _find_anywhere(index: Index, entry_id: str, context: Context) -> tuple[Entry, str]:
    """The entry in the live index, else in its cold archive (and which of the two)."""
    from riverbed.errors import EntryNotFoundError
    from riverbed.merging.cold_archive import archive_path_for, read_archive

    try:
        return _find(index, entry_id), "live index"
    except EntryNotFoundError:
        archive = read_archive(archive_path_for(context.index_path))
        try:
            return _find(archive, entry_id), "cold archive"
        except EntryNotFoundError:
            raise EntryNotFoundError(
                f"no entry with id {entry_id!r} in {len(index['entries'])} live and "
                f"{len(archive['entries'])} archived entries "
                "(list ids with `riverbed query --all --include-archive`)"
            ) from None


def _cmd_show(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.dates import effective_expiry
    from riverbed.index.effective import effective_state, revocation_records, with_state

    index = load(context)
    entry, where = _find_anywhere(index, args.id, context)
    state = effective_state(entry, revocation_records(index["entries"]), parse_now(args.now))
    if context.as_json:
        emit_json({**with_state(entry, state), "storedIn": where})
        return 0
    meta = entry.get("metadata", {})
    stored = entry_status(entry)
    fields = [
        ("id", entry["id"]),
        ("stored in", where),
        ("type", entry.get("type")),
        ("status", state.detail + (f" (stored: {stored})" if state.state != stored else "")),
        ("title", entry.get("title")),
        ("phase", meta.get("phase")),
        ("author", meta.get("author")),
        ("created", meta.get("createdAt")),
        ("updated", meta.get("updatedAt")),
        ("expires", effective_expiry(entry)),
        ("superseded by", entry.get("supersededBy")),
        ("tags", ", ".join(meta.get("tags", []))),
        ("files", ", ".join(meta.get("relatedFiles", []))),
        ("links", ", ".join(meta.get("links", []))),
    ]
    for name, value in fields:
        if value:
            print(f"{name + ':':<15}{value}")
    print()
    print(entry.get("content", ""))
    if entry.get("context"):
        import json

        print("\ncontext (as stored):", json.dumps(entry["context"], ensure_ascii=False, indent=2))
    return 0


def _cmd_supersede(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.store import supersede

    entry = supersede(context.index_path, args.old, args.new)
    if context.as_json:
        emit_json(entry)
    else:
        print(f"{args.old} is superseded by {args.new}")
    return 0


def _cmd_archive(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.store import archive_entry

    entry = archive_entry(context.index_path, args.id, reason=args.reason)
    if context.as_json:
        emit_json(entry)
    else:
        print(f"{args.id} is archived ({args.reason})")
    return 0


def _cmd_expire(args: argparse.Namespace, context: Context) -> int:
    from riverbed.index.lifecycle import expire
    from riverbed.index.store import expire_entries

    now = parse_now(args.now)
    if not context.index_path.exists():
        # Nothing to expire; taking the lock would create the directory and a lock file.
        if context.as_json:
            emit_json({"dryRun": args.dry_run, "archived": [], "warnings": [], "index": None})
        else:
            print(f"no index at {context.index_path}; nothing to expire, nothing written")
        return 0
    if args.dry_run:
        _, report = expire(load(context), now)
    else:
        report = expire_entries(context.index_path, now=now)
        for warning in report.warnings:
            context.warn(warning)
    if context.as_json:
        emit_json(
            {
                "dryRun": args.dry_run,
                "archived": list(report.archived),
                "warnings": list(report.warnings),
            }
        )
        return 0
    verb = "would archive" if args.dry_run else "archived"
    if not report.archived:
        print(f"nothing expired at {format_timestamp(now)}; {context.index_path} unchanged")
        return 0
    print(f"{verb} {plural(len(report.archived), 'entry')}:")
    print(table(["id", "title"], list(zip(report.archived, report.titles, strict=True))))
    return 0


# long: an argparse table, one block per verb
def register(subparsers: Any) -> None:
    """Add the store verbs."""
    p = subparsers.add_parser("init", help="create an empty index if there is none")
    p.add_argument(
        "--merge-driver",
        action="store_true",
        help="also set git's merge driver for the index in this clone (git config)",
    )
    p.set_defaults(handler=_cmd_init)
    add_common_options(p)

    p = subparsers.add_parser("add", help="append one entry")
    p.add_argument("--type", required=True, choices=ENTRY_TYPES)
    p.add_argument("--title", help="one-line title")
    p.add_argument("--content", help="the entry's text")
    p.add_argument("--content-file", metavar="FILE", help="read the text from FILE (- = stdin)")
    p.add_argument("--summary", help="short summary for previews")
    p.add_argument("--phase", choices=PHASES)
    p.add_argument("--tag", action="append", default=[], help="tag (repeatable)")
    p.add_argument("--file", action="append", default=[], help="related file or glob (repeatable)")
    p.add_argument("--link", action="append", default=[], help="URL (repeatable)")
    p.add_argument("--expires", metavar="DATE", help="RFC 3339 date or date-time")
    p.add_argument("--id", help="entry id (default: generated from type and title)")
    add_author_option(p)
    p.set_defaults(handler=_cmd_add)
    add_common_options(p)

    p = subparsers.add_parser("query", help="list entries matching filters")
    p.add_argument("--type", choices=ENTRY_TYPES)
    p.add_argument("--tag", action="append", default=[], help="all given tags must match")
    p.add_argument("--phase", choices=PHASES)
    p.add_argument("--text", help="case-insensitive text in title, content or summary")
    p.add_argument("--all", action="store_true", help="include superseded and archived entries")
    p.add_argument(
        "--include-archive",
        action="store_true",
        help="also read the cold archive beside the index (entries `compact` moved out)",
    )
    p.add_argument("--limit", type=at_least_one, metavar="N", help="show at most N entries")
    add_now_option(p)
    p.set_defaults(handler=_cmd_query)
    add_common_options(p)

    p = subparsers.add_parser("show", help="print one entry")
    p.add_argument("id")
    add_now_option(p)
    p.set_defaults(handler=_cmd_show)
    add_common_options(p)

    p = subparsers.add_parser("supersede", help="mark OLD superseded by NEW")
    p.add_argument("old")
    p.add_argument("new")
    p.set_defaults(handler=_cmd_supersede)
    add_common_options(p)

    p = subparsers.add_parser("archive", help="archive an entry (terminal)")
    p.add_argument("id")
    p.add_argument("--reason", required=True)
    p.set_defaults(handler=_cmd_archive)
    add_common_options(p)

    p = subparsers.add_parser("expire", help="archive entries whose expiry has passed")
    add_now_option(p)
    p.add_argument("--dry-run", action="store_true", help="show what would be archived")
    p.set_defaults(handler=_cmd_expire)
    add_common_options(p)
