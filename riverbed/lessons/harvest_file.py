"""A harvest as a versioned JSON file: a strict reader (errors name file and path), atomic write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from riverbed.errors import InputFormatError, StoreWriteError
from riverbed.index.atomic_write import write_bytes_atomic, write_failure
from riverbed.jsoninput import Walker, json_type
from riverbed.lessons.model import Harvest, Utterance

KIND: Final = "riverbed-lessons-harvest"
VERSION: Final = 1
#: The largest harvest file read (a harvest keeps short visible texts only).
MAX_BYTES: Final = 64 * 1024 * 1024


def harvest_json(harvest: Harvest) -> dict[str, Any]:
    """The harvest as the JSON document `write_harvest` writes."""
    return {
        "kind": KIND,
        "version": VERSION,
        "repository": harvest.repository,
        "harvestedAt": harvest.harvested_at,
        "since": harvest.since,
        "prs": list(harvest.prs),
        "commentsRead": harvest.comments_read,
        "refused": dict(sorted(harvest.refused.items())),
        "utterances": [
            {
                "id": u.id,
                "pr": u.pr,
                "commentId": u.comment_id,
                "author": u.author,
                "url": u.url,
                "createdAt": u.created_at,
                "path": u.path,
                "prFiles": list(u.pr_files),
                "text": u.text,
            }
            for u in harvest.utterances
        ],
    }


def dump_harvest(harvest: Harvest) -> bytes:
    """The file's bytes (2-space indent, non-ASCII kept, a final newline)."""
    return (json.dumps(harvest_json(harvest), indent=2, ensure_ascii=False) + "\n").encode()


def write_harvest(path: Path, harvest: Harvest) -> None:
    """Write atomically: a reader sees the old file or the new one, never half of one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreWriteError(write_failure(path, exc, "the harvest")) from None
    write_bytes_atomic(path, dump_harvest(harvest), what="the harvest")


def _required_str(walk: Walker, parent: dict[str, Any], key: str, path: str) -> str:
    value = walk.string(parent.get(key), f"{path}.{key}")
    if value is None:
        walk.fail(f"{path}.{key}", "missing; expected a string")
    return value


def _positive(walk: Walker, value: Any, path: str) -> int:
    if walk.count(value, path) < 1:
        walk.fail(path, "expected a positive integer, found 0")
    return int(value)


def _strings(walk: Walker, value: Any, path: str) -> tuple[str, ...]:
    out: list[str] = []
    for n, item in enumerate(walk.array(value, path, optional=True)):
        if not isinstance(item, str):
            walk.fail(f"{path}[{n}]", f"expected a string, found {json_type(item)}")
        out.append(item)
    return tuple(out)


def _utterance(walk: Walker, raw: Any, path: str) -> Utterance:
    item = walk.obj(raw, path)
    utterance = Utterance(
        id=_required_str(walk, item, "id", path),
        pr=_positive(walk, item.get("pr"), f"{path}.pr"),
        comment_id=_positive(walk, item.get("commentId"), f"{path}.commentId"),
        author=_required_str(walk, item, "author", path),
        url=_required_str(walk, item, "url", path),
        text=_required_str(walk, item, "text", path),
        created_at=_required_str(walk, item, "createdAt", path),
        pr_files=_strings(walk, item.get("prFiles"), f"{path}.prFiles"),
        path=walk.opt_str(item, "path", path),
    )
    kind = utterance.id.split(":")
    if len(kind) != 3 or kind[0] != str(utterance.pr) or kind[2] != str(utterance.comment_id):
        walk.fail(f"{path}.id", f"{utterance.id!r} is not '<pr>:<kind>:<comment id>'")
    return utterance


def parse_harvest(data: Any, source: str) -> Harvest:
    """A parsed harvest document, checked field by field (InputFormatError names the path)."""
    walk = Walker(source, "lessons harvest", "write it with `riverbed lessons harvest --out`")
    top = walk.obj(data, "$")
    if top.get("kind") != KIND:
        walk.fail("$.kind", f"expected {KIND!r}, found {top.get('kind')!r}")
    if top.get("version") != VERSION:
        walk.fail("$.version", f"expected {VERSION}, found {top.get('version')!r}")
    refused = walk.obj(top.get("refused", {}), "$.refused")
    return Harvest(
        repository=_required_str(walk, top, "repository", "$"),
        harvested_at=_required_str(walk, top, "harvestedAt", "$"),
        since=walk.opt_str(top, "since", "$"),
        utterances=tuple(
            _utterance(walk, raw, f"$.utterances[{n}]")
            for n, raw in enumerate(walk.array(top.get("utterances"), "$.utterances"))
        ),
        refused={k: walk.count(v, f"$.refused.{k}") for k, v in refused.items()},
        comments_read=walk.count(top.get("commentsRead"), "$.commentsRead"),
        prs=tuple(
            _positive(walk, pr, f"$.prs[{n}]")
            for n, pr in enumerate(walk.array(top.get("prs"), "$.prs", optional=True))
        ),
    )


def read_harvest(path: Path) -> Harvest:
    """Read a harvest file; a missing, unreadable or malformed one is one InputFormatError."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputFormatError(f"{path}: cannot read the harvest: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise InputFormatError(f"{path}: the harvest is over {MAX_BYTES // 2**20} MiB; refused")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"{path}: not UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise InputFormatError(
            f"{path}: not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise InputFormatError(f"{path}: not a harvest: nested too deeply") from None
    return parse_harvest(data, str(path))
