"""The harvest file: what `lessons harvest` wrote, read back for `lessons propose` (file I/O).

Shape (JSON, UTF-8)::

    {"format": "riverbed-lessons-harvest", "version": 1, "repository": "o/r",
     "harvestedAt": "…", "since": null, "onlyPr": null, "prs": [12],
     "commentsRead": 9, "refused": {"outsider": 3},
     "utterances": [{"id": "12:review:345", "pr": 12, "commentId": 345, "author": "alice",
                     "url": "https://…", "text": "…", "createdAt": "…",
                     "prFiles": ["src/a.py"], "path": "src/a.py"}]}
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import orjson

from riverbed.errors import InputFormatError
from riverbed.index.atomic_write import write_bytes_atomic
from riverbed.jsoninput import Walker
from riverbed.lessons.model import Harvest, Utterance

FORMAT: Final = "riverbed-lessons-harvest"
VERSION: Final = 1
#: A harvest file larger than this is refused before it is parsed.
MAX_BYTES: Final = 64 * 1024 * 1024
#: The harvest refuses longer comments; a file holding one was not written by it.
MAX_TEXT: Final = 4000


def harvest_json(harvest: Harvest) -> dict[str, Any]:
    """The harvest as the file holds it."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "repository": harvest.repository,
        "harvestedAt": harvest.harvested_at,
        "since": harvest.since,
        "onlyPr": harvest.only_pr,
        "prs": list(harvest.prs),
        "commentsRead": harvest.comments_read,
        "refused": dict(harvest.refused),
        "utterances": [
            {
                "id": u.id,
                "pr": u.pr,
                "commentId": u.comment_id,
                "author": u.author,
                "url": u.url,
                "text": u.text,
                "createdAt": u.created_at,
                "prFiles": list(u.pr_files),
                "path": u.path,
            }
            for u in harvest.utterances
        ],
    }


def write_harvest(path: str | os.PathLike[str], harvest: Harvest) -> None:
    """Write the harvest file atomically (never half a file)."""
    data = orjson.dumps(harvest_json(harvest), option=orjson.OPT_INDENT_2) + b"\n"
    write_bytes_atomic(Path(path), data, what="the harvest file")


def _text(w: Walker, value: Any, path: str, *, limit: int | None = None) -> str:
    got = w.string(value, path)
    if got is None:
        w.fail(path, "expected a string, found null")
    if limit is not None and len(got) > limit:
        w.fail(path, f"longer than {limit} characters (the harvest refuses such comments)")
    return got


def _utterance(w: Walker, value: Any, path: str) -> Utterance:
    item = w.obj(value, path)
    files = w.array(item.get("prFiles"), f"{path}.prFiles", optional=True)
    return Utterance(
        id=_text(w, item.get("id"), f"{path}.id"),
        pr=w.count(item.get("pr"), f"{path}.pr"),
        comment_id=w.count(item.get("commentId"), f"{path}.commentId"),
        author=_text(w, item.get("author"), f"{path}.author"),
        url=_text(w, item.get("url"), f"{path}.url"),
        text=_text(w, item.get("text"), f"{path}.text", limit=MAX_TEXT),
        created_at=_text(w, item.get("createdAt"), f"{path}.createdAt"),
        pr_files=tuple(_text(w, f, f"{path}.prFiles[{n}]") for n, f in enumerate(files)),
        path=w.opt_str(item, "path", path),
    )


def parse_harvest(document: Any, source: str) -> Harvest:
    """The harvest a parsed JSON document holds; InputFormatError naming the JSON path."""
    w = Walker(source, "harvest file", "write it with `riverbed lessons harvest`")
    top = w.obj(document, "$")
    if top.get("format") != FORMAT or top.get("version") != VERSION:
        w.fail("$", f"expected format {FORMAT!r} version {VERSION}")
    refused = w.opt_obj(top, "refused", "$")
    utterances = tuple(
        _utterance(w, u, f"$.utterances[{n}]")
        for n, u in enumerate(w.array(top.get("utterances"), "$.utterances"))
    )
    ids = [u.id for u in utterances]
    if len(set(ids)) != len(ids):
        w.fail("$.utterances", "two utterances share one id")
    only = top.get("onlyPr")
    return Harvest(
        repository=_text(w, top.get("repository"), "$.repository"),
        harvested_at=_text(w, top.get("harvestedAt"), "$.harvestedAt"),
        since=w.opt_str(top, "since", "$"),
        utterances=utterances,
        refused={str(k): w.count(v, f"$.refused.{k}") for k, v in refused.items()},
        comments_read=w.count(top.get("commentsRead"), "$.commentsRead"),
        prs=tuple(
            w.count(n, f"$.prs[{i}]")
            for i, n in enumerate(w.array(top.get("prs"), "$.prs", optional=True))
        ),
        only_pr=None if only is None else w.count(only, "$.onlyPr"),
    )


def read_harvest(path: str | os.PathLike[str]) -> Harvest:
    """Read and check a harvest file; InputFormatError names the file and what is wrong."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputFormatError(f"{source}: cannot read the harvest file: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise InputFormatError(f"{source}: the harvest file is larger than {MAX_BYTES} bytes")
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InputFormatError(f"{source}: not JSON: {exc}") from None
    return parse_harvest(document, source)
