"""The stand-in's commit graph: branches, tags, `git/get-ref` and the compare endpoint.

A commit is a sha and its parents; a ref (`heads/main`, `tags/main`) names a commit. The
compare answer follows GitHub's `commit-comparison`: `status` is `identical`, `ahead`
(head has commits base lacks), `behind` (base has commits head lacks: head is contained
in base) or `diverged`, with `ahead_by`, `behind_by` and head's own commits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from riverbed.testing.github.objects import JSON, Site, fake_sha, node_id
from riverbed.testing.github.paging import Response, json_response

_NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}


class GitGraph:
    """Commits (sha → parents) and refs (`heads/x`, `tags/x` → sha); thread-safe."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.lock = threading.RLock()
        self.parents: dict[str, tuple[str, ...]] = {}
        self.refs: dict[str, str] = {}
        self._count = 0

    def commit(self, parents: tuple[str, ...] = (), *, seed: str | None = None) -> str:
        """A new commit on `parents` (none: a root commit); returns its sha."""
        with self.lock:
            self._count += 1
            sha = fake_sha(seed or f"commit:{self.site.repository_id}:{self._count}")
            unknown = [p for p in parents if p not in self.parents]
            if unknown:
                raise KeyError(f"commit: unknown parent {unknown[0]}")
            self.parents[sha] = parents
            return sha

    def advance(self, branch: str) -> str:
        """A new commit on top of `branch` (the branch is made when missing); its sha."""
        with self.lock:
            tip = self.refs.get(f"heads/{branch}")
            sha = self.commit((tip,) if tip else ())
            self.refs[f"heads/{branch}"] = sha
            return sha

    def set_ref(self, ref: str, sha: str) -> None:
        """Point `heads/x` or `tags/x` at a known commit."""
        if not ref.startswith(("heads/", "tags/")):
            raise ValueError(f"set_ref: {ref!r} is neither heads/… nor tags/…")
        with self.lock:
            if sha not in self.parents:
                raise KeyError(f"set_ref: unknown commit {sha}")
            self.refs[ref] = sha

    def routes(self) -> list[tuple[str, str, Callable[..., Response]]]:
        """The stand-in's route rows serving this graph (`git/ref`, `compare`)."""
        return GitRoutes(self).table()

    def branch_at(self, sha: str) -> str | None:
        """The branch whose tip is commit `sha` (None when no branch points there)."""
        with self.lock:
            return next(
                (
                    ref[len("heads/") :]
                    for ref, tip in self.refs.items()
                    if ref.startswith("heads/") and tip == sha
                ),
                None,
            )

    def ancestors(self, sha: str) -> set[str]:
        """`sha` and every commit reachable from it."""
        with self.lock:
            seen: set[str] = set()
            pending = [sha]
            while pending:
                current = pending.pop()
                if current not in seen:
                    seen.add(current)
                    pending.extend(self.parents.get(current, ()))
            return seen

    def resolve(self, name: str) -> str | None:
        """A sha of the graph, else a branch name, else a tag name (as git resolves refs)."""
        with self.lock:
            if name in self.parents:
                return name
            for prefix in ("", "refs/"):
                for kind in ("heads/", "tags/"):
                    if name.startswith(prefix + kind) and name[len(prefix) :] in self.refs:
                        return self.refs[name[len(prefix) :]]
            return self.refs.get(f"heads/{name}") or self.refs.get(f"tags/{name}")


def _git_user() -> JSON:
    return {"name": "Stand In", "email": "stand-in@example.invalid", "date": "2026-01-01T00:00:00Z"}


def commit_json(site: Site, sha: str, parents: tuple[str, ...]) -> JSON:
    """A `commit` as the compare endpoint lists it."""
    api = f"{site.repo_api}/commits/{sha}"
    return {
        "url": api,
        "sha": sha,
        "node_id": node_id("C", int(sha[:7], 16)),
        "html_url": f"{site.repo_web}/commit/{sha}",
        "comments_url": f"{api}/comments",
        "commit": {
            "url": f"{site.repo_api}/git/commits/{sha}",
            "author": _git_user(),
            "committer": _git_user(),
            "message": "A commit in the stand-in",
            "comment_count": 0,
            "tree": {"sha": fake_sha("tree:" + sha), "url": f"{site.repo_api}/git/trees/{sha}"},
        },
        # No GitHub account for the stand-in's author: GitHub sends an empty object then.
        "author": {},
        "committer": {},
        "parents": [
            {
                "sha": p,
                "url": f"{site.repo_api}/commits/{p}",
                "html_url": f"{site.repo_web}/commit/{p}",
            }
            for p in parents
        ],
    }


class GitRoutes:
    """`GET /git/ref/{ref}` and `GET /compare/{basehead}` over a `GitGraph`."""

    def __init__(self, graph: GitGraph) -> None:
        self.graph = graph
        self.site = graph.site

    def table(self) -> list[tuple[str, str, Callable[..., Response]]]:
        """The stand-in's route rows for these endpoints."""
        return [
            ("GET", "/git/ref/{+ref}", self.get_ref),
            ("GET", "/compare/{basehead}", self.compare),
        ]

    def get_ref(self, path: str, query: Mapping[str, str], ref: str) -> Response:
        """GET /repos/{o}/{r}/git/ref/{ref}: `heads/main` → its commit, else 404."""
        sha = self.graph.refs.get(ref)
        if sha is None:
            return json_response(404, {**_NOT_FOUND, "status": "404"})
        return json_response(
            200,
            {
                "ref": f"refs/{ref}",
                "node_id": node_id("REF", int(sha[:7], 16)),
                "url": f"{self.site.repo_api}/git/refs/{ref}",
                "object": {
                    "type": "commit",
                    "sha": sha,
                    "url": f"{self.site.repo_api}/git/commits/{sha}",
                },
            },
        )

    def compare(self, path: str, query: Mapping[str, str], basehead: str) -> Response:
        """GET /repos/{o}/{r}/compare/{base}...{head}: how head stands against base."""
        base_name, sep, head_name = basehead.partition("...")
        base = self.graph.resolve(base_name) if sep else None
        head = self.graph.resolve(head_name) if sep else None
        if base is None or head is None:
            return json_response(404, {**_NOT_FOUND, "status": "404"})
        base_side, head_side = self.graph.ancestors(base), self.graph.ancestors(head)
        ahead = sorted(head_side - base_side)
        behind = len(base_side - head_side)
        common = sorted(base_side & head_side)
        if not common:  # unrelated histories: GitHub finds nothing to compare
            return json_response(404, {**_NOT_FOUND, "status": "404"})
        status = (
            "identical"
            if not ahead and not behind
            else "ahead"
            if not behind
            else "behind"
            if not ahead
            else "diverged"
        )
        site, parents = self.site, self.graph.parents
        merge_base = next(
            c for c in common if not any(c in self.graph.ancestors(o) - {o} for o in common)
        )
        compare_url = f"{site.repo_api}/compare/{basehead}"
        body: JSON = {
            "url": compare_url,
            "html_url": f"{site.repo_web}/compare/{basehead}",
            "permalink_url": f"{site.repo_web}/compare/{base}...{head}",
            "diff_url": f"{site.repo_web}/compare/{basehead}.diff",
            "patch_url": f"{site.repo_web}/compare/{basehead}.patch",
            "base_commit": commit_json(site, base, parents[base]),
            "merge_base_commit": commit_json(site, merge_base, parents[merge_base]),
            "status": status,
            "ahead_by": len(ahead),
            "behind_by": behind,
            "total_commits": len(ahead),
            "commits": [commit_json(site, sha, parents[sha]) for sha in ahead[:250]],
            "files": [],
        }
        return json_response(200, body)
