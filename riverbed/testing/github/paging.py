"""Responses and GitHub-style pagination (`per_page`, `page`, `Link`) for the stand-in."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

DEFAULT_PER_PAGE = 30
MAX_PER_PAGE = 100


@dataclass
class Response:
    """What one request gets back."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def json_body(self) -> Any:
        """The body parsed as JSON (None when empty)."""
        return json.loads(self.body) if self.body else None


def json_response(status: int, data: Any, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON response with GitHub's content type."""
    body = json.dumps(data, ensure_ascii=False).encode()
    merged = {"Content-Type": "application/json; charset=utf-8", **(headers or {})}
    return Response(status, body, merged)


def _int_param(query: Mapping[str, str], name: str, default: int) -> int:
    raw = query.get(name, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


def page_window(query: Mapping[str, str]) -> tuple[int, int]:
    """(`page`, `per_page`) from a query: per_page defaults to 30 and is capped at 100;
    garbage or non-positive values fall back to the defaults, as GitHub does."""
    per_page = min(_int_param(query, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE)
    return _int_param(query, "page", 1), per_page


def link_header(base_url: str, path: str, query: Mapping[str, str], page: int, last: int) -> str:
    """GitHub's `Link` header: `<url>; rel="prev"`, `next`, `last`, `first` as they apply.

    The first page carries exactly `<url>; rel="next", <url>; rel="last"`.
    """

    def url(number: int) -> str:
        params = {**query, "page": str(number)}
        return f"<{base_url}{path}?{urlencode(params)}>"

    parts = []
    if page > 1:
        parts.append(f'{url(min(page - 1, last))}; rel="prev"')
    if page < last:
        parts.append(f'{url(page + 1)}; rel="next"')
        parts.append(f'{url(last)}; rel="last"')
    if page > 1:
        parts.append(f'{url(1)}; rel="first"')
    return ", ".join(parts)


def paginate(
    items: Sequence[Any],
    base_url: str,
    path: str,
    query: Mapping[str, str],
    *,
    list_key: str | None = None,
) -> Response:
    """One page of `items` with a `Link` header when there is more than one page.

    With `list_key` the page is wrapped as `{"total_count": n, list_key: [...]}` (the
    artifacts endpoints); otherwise it is a bare JSON array.
    """
    page, per_page = page_window(query)
    last = max(1, math.ceil(len(items) / per_page))
    chunk = list(items[(page - 1) * per_page : page * per_page])
    headers = {}
    if last > 1:
        headers["Link"] = link_header(base_url, path, query, page, last)
    data: Any = {"total_count": len(items), list_key: chunk} if list_key else chunk
    return json_response(200, data, headers)
