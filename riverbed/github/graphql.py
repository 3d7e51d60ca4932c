"""GitHub's GraphQL API through the one client: review threads listed and resolved.

Every document riverbed sends is in `DOCUMENTS`; tests check each against GitHub's
published schema (octokit/graphql-schema). GitHub answers GraphQL errors with HTTP 200 and
an `errors` list; a read-only token's mutation is `FORBIDDEN` ("Resource not accessible by
integration"), which becomes a `GitHubError` with status 403 so `read_only_token` says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from riverbed.errors import GitHubError
from riverbed.pr_review.threads import ReviewThread, ThreadComment

if TYPE_CHECKING:
    from riverbed.github.client import GitHubClient

REVIEW_THREADS: Final = """\
query RiverbedReviewThreads($owner: String!, $name: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          comments(first: 100) {
            totalCount
            nodes { fullDatabaseId body author { login __typename } }
          }
        }
      }
    }
  }
}
"""
RESOLVE_THREAD: Final = """\
mutation RiverbedResolveThread($threadId: ID!) {
  resolveReviewThread(input: {threadId: $threadId}) { thread { id isResolved } }
}
"""
#: Every GraphQL document riverbed sends.
DOCUMENTS: Final = (REVIEW_THREADS, RESOLVE_THREAD)
#: Pages of 100 threads read at most (GitHub has no cap; a PR with more is very rare).
MAX_THREAD_PAGES: Final = 30
_STATUS: Final = {"FORBIDDEN": 403, "NOT_FOUND": 404, "RATE_LIMITED": 403}


def graphql(client: GitHubClient, document: str, variables: dict[str, Any], *, what: str) -> Any:
    """POST one document to `/graphql`; its `data`, or a GitHubError naming the first error."""
    requester = client.requester
    with client.calling(what):
        _headers, answer = requester.requestJsonAndCheck(
            "POST", requester.graphql_url, input={"query": document, "variables": variables}
        )
    if not isinstance(answer, dict):
        raise GitHubError(f"{what}: GitHub's GraphQL API answered {type(answer).__name__}")
    errors = answer.get("errors")
    if isinstance(errors, list) and errors:
        first = errors[0] if isinstance(errors[0], dict) else {}
        kind = first.get("type")
        message = str(first.get("message") or "no message")[:300]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise GitHubError(
            f"{what}: GitHub's GraphQL API at {client.api_url} answered "
            f"{kind or 'an error'}: {message}{more}",
            status=_STATUS.get(str(kind)),
            reason=message,
        )
    data = answer.get("data")
    if not isinstance(data, dict):
        raise GitHubError(f"{what}: GitHub's GraphQL answer has no `data`")
    return data


def _comment(raw: Any) -> ThreadComment | None:
    if not isinstance(raw, dict):
        return None
    author = raw.get("author")  # null for a deleted account ("ghost")
    login = author.get("login") if isinstance(author, dict) else None
    kind = author.get("__typename") if isinstance(author, dict) else None
    # `fullDatabaseId` is a BigInt, which GraphQL sends as a string of digits.
    ident, body = raw.get("fullDatabaseId"), raw.get("body")
    return ThreadComment(
        int(ident) if isinstance(ident, str) and ident.isascii() and ident.isdigit() else None,
        body if isinstance(body, str) else "",
        login if isinstance(login, str) else "",
        kind == "Bot",
    )


def _thread(raw: Any) -> ReviewThread | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        return None
    connection = raw.get("comments")
    connection = connection if isinstance(connection, dict) else {}
    nodes = connection.get("nodes")
    found = [c for c in map(_comment, nodes if isinstance(nodes, list) else []) if c]
    total = connection.get("totalCount")
    complete = not isinstance(total, int) or total <= len(found)
    return ReviewThread(raw["id"], raw.get("isResolved") is True, tuple(found), complete)


def review_threads(client: GitHubClient, number: int) -> tuple[list[ReviewThread], bool]:
    """The pull request's review threads, oldest first; True when more pages were left unread."""
    owner, name = client.repository.split("/", 1)
    what = f"listing the review threads of pull request #{number}"
    threads: list[ReviewThread] = []
    after: str | None = None
    for _page in range(MAX_THREAD_PAGES):
        variables = {"owner": owner, "name": name, "number": number, "after": after}
        data = graphql(client, REVIEW_THREADS, variables, what=what)
        pull = (data.get("repository") or {}).get("pullRequest") or {}
        connection = pull.get("reviewThreads") if isinstance(pull, dict) else None
        if not isinstance(connection, dict):
            raise GitHubError(f"{what}: GitHub's answer has no `reviewThreads`")
        nodes = connection.get("nodes")
        threads += [t for t in map(_thread, nodes if isinstance(nodes, list) else []) if t]
        info = connection.get("pageInfo") or {}
        after = info.get("endCursor") if isinstance(info, dict) else None
        if not (isinstance(info, dict) and info.get("hasNextPage") and isinstance(after, str)):
            return threads, False
    return threads, True


def resolve_thread(client: GitHubClient, thread_id: str) -> bool:
    """Resolve one review thread; whether GitHub now reports it resolved."""
    data = graphql(
        client, RESOLVE_THREAD, {"threadId": thread_id}, what=f"resolving review thread {thread_id}"
    )
    payload = data.get("resolveReviewThread")
    thread = payload.get("thread") if isinstance(payload, dict) else None
    return isinstance(thread, dict) and thread.get("isResolved") is True
