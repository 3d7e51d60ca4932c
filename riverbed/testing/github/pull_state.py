"""Pull requests, issues, comments and reactions in the GitHub stand-in's state."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from riverbed.testing.github.diff import place_comment
from riverbed.testing.github.objects import JSON, fake_sha, node_id
from riverbed.testing.github.pull_objects import (
    issue_comment_json,
    review_comment_json,
    review_json,
)
from riverbed.testing.github.state import FakeState


class PullState(FakeState):
    """The stand-in's state with pull requests, issues and their conversations."""

    # ------------------------------------------------------------------ pulls and issues
    def add_pull(  # noqa: PLR0917 - positional order is the agreed interface
        self,
        number: int,
        head_sha: str,
        base_ref: str = "main",
        head_ref: str = "feature",
        files: list[dict[str, Any]] | None = None,
        user: str = "alice",
        *,
        title: str | None = None,
        body: str | None = None,
        base_sha: str | None = None,
    ) -> None:
        """Record an open pull request (and its issue) with its changed `files`."""
        with self.lock:
            if number in self.issues:
                raise ValueError(f"add_pull: #{number} already exists")
            created = self.next_created(None)
            self.pulls[number] = {
                "number": number,
                "id": self.new_id(),
                "head_sha": head_sha,
                "base_sha": base_sha or fake_sha(f"base:{number}"),
                "base_ref": base_ref,
                "head_ref": head_ref,
                "files": [dict(f) for f in files or []],
                "user": user,
                "title": title or f"Pull request #{number}",
                "body": body,
                "created_at": created,
            }
            self._add_issue_record(number, title or f"Pull request #{number}", body, user, True)

    def add_issue(
        self, number: int, title: str | None = None, body: str | None = None, user: str = "alice"
    ) -> None:
        """Record a plain issue (not a pull request)."""
        with self.lock:
            if number in self.issues:
                raise ValueError(f"add_issue: #{number} already exists")
            self._add_issue_record(number, title or f"Issue #{number}", body, user, False)

    def _add_issue_record(
        self, number: int, title: str, body: str | None, user: str, is_pull: bool
    ) -> None:
        self.issues[number] = {
            "number": number,
            "id": self.new_id(),
            "title": title,
            "body": body,
            "user": user,
            "is_pull": is_pull,
            "created_at": self.next_created(None),
        }

    def merge_pull(self, number: int, merged_at: datetime | str | None = None) -> None:
        """Close pull `number` as merged (at `merged_at`, else now); `closed_at` is the same."""
        self._close_pull(number, merged_at, merged=True)

    def close_pull(self, number: int, closed_at: datetime | str | None = None) -> None:
        """Close pull `number` without merging it."""
        self._close_pull(number, closed_at, merged=False)

    def _close_pull(self, number: int, moment: datetime | str | None, *, merged: bool) -> None:
        with self.lock:
            record = self.pulls[number]
            if record.get("state") == "closed":
                raise ValueError(f"pull #{number} is already closed")
            closed = self.next_created(moment)
            record |= {"state": "closed", "closed_at": closed, "updated_at": closed}
            if merged:
                record |= {"merged_at": closed, "merge_commit_sha": fake_sha(f"merge:{number}")}

    def pull_file(self, number: int, path: str) -> JSON | None:
        """The changed-file record `path` of pull `number`, if the pull changes it."""
        for item in self.pulls[number]["files"]:
            if item["filename"] == path:
                return dict(item)
        return None

    # ------------------------------------------------------------------ comments
    def add_issue_comment(self, issue: int, body: str, user: str = "alice") -> int:
        """Record a comment on issue or pull request `issue`; returns its id."""
        with self.lock:
            if issue not in self.issues:
                raise KeyError(f"add_issue_comment: no issue or pull #{issue}")
            comment_id = self.new_id()
            now = self.next_created(None)
            self.issue_comment_records[comment_id] = {
                "id": comment_id,
                "issue": issue,
                "body": body,
                "user": user,
                "created_at": now,
                "updated_at": now,
                "author_association": self.association(user),
            }
            return comment_id

    def _placed(
        self, pull: int, path: str | None, line: int | None, *, side: str, start_line: int | None
    ) -> JSON:
        """Where a new inline comment sits in the pull's diff (ValueError off the diff)."""
        if path is None or line is None:
            raise ValueError("add_review_comment: path and line are required")
        file_record = self.pull_file(pull, path)
        if file_record is None:
            raise ValueError(f"add_review_comment: {path} is not changed in #{pull}")
        spot = place_comment(
            file_record.get("patch"),
            {"line": line, "side": side, "start_line": start_line},
        )
        if isinstance(spot, str):
            raise ValueError(f"add_review_comment: {path}:{line}: {spot}")
        return {
            "path": path,
            "line": spot.line,
            "side": spot.side,
            "start_line": spot.start_line,
            "start_side": spot.start_side,
            "position": spot.position,
            "diff_hunk": spot.diff_hunk,
        }

    def add_review_comment(  # noqa: PLR0917 - positional order is the agreed interface
        self,
        pull: int,
        body: str,
        path: str | None = None,
        line: int | None = None,
        user: str | None = None,
        in_reply_to: int | None = None,
        *,
        side: str = "RIGHT",
        start_line: int | None = None,
        review_id: int | None = None,
    ) -> int:
        """Record an inline comment (or a reply to one); lines must be in the pull's diff."""
        with self.lock:
            if pull not in self.pulls:
                raise KeyError(f"add_review_comment: no pull #{pull}")
            login = user or self.bot_login
            if in_reply_to is not None:
                parent = self.review_comment_records[in_reply_to]
                root = parent["in_reply_to"] or parent["id"]
                placed = {k: parent[k] for k in ("path", "line", "side", "start_line")}
                placed |= {k: parent[k] for k in ("start_side", "position", "diff_hunk")}
            else:
                root = None
                placed = self._placed(pull, path, line, side=side, start_line=start_line)
            comment_id = self.new_id()
            now = self.next_created(None)
            self.review_comment_records[comment_id] = {
                "id": comment_id,
                "pull": pull,
                "review_id": review_id,
                "body": body,
                "user": login,
                "commit_id": self.pulls[pull]["head_sha"],
                "in_reply_to": root,
                "created_at": now,
                "updated_at": now,
                "author_association": self.association(login),
                **placed,
            }
            return comment_id

    # ------------------------------------------------------------------ review threads
    def thread_roots(self, pull: int) -> list[JSON]:
        """The root comments of pull `pull`'s review threads, oldest first."""
        with self.lock:
            records = self.review_comment_records.values()
            return [r for r in records if r["pull"] == pull and r["in_reply_to"] is None]

    def thread_comments(self, root_id: int) -> list[JSON]:
        """A thread's comments: its root, then its replies, oldest first."""
        with self.lock:
            records = self.review_comment_records.values()
            return [r for r in records if root_id in (r["id"], r["in_reply_to"])]

    def thread_node_id(self, root_id: int) -> str:
        """The GraphQL node id of the thread rooted at comment `root_id`."""
        return node_id("PRRT", root_id)

    def thread_by_node_id(self, thread_id: str) -> JSON | None:
        """The root comment of the thread with GraphQL id `thread_id`, if there is one."""
        with self.lock:
            for record in self.review_comment_records.values():
                if record["in_reply_to"] is None and self.thread_node_id(record["id"]) == thread_id:
                    return record
        return None

    def set_thread_resolved(self, root_id: int, resolved: bool = True) -> None:
        """Resolve (or unresolve) the thread rooted at `root_id`, as a person or riverbed."""
        with self.lock:
            self.review_comment_records[root_id]["thread_resolved"] = resolved

    @property
    def resolved_threads(self) -> set[int]:
        """Root comment ids of the resolved review threads."""
        with self.lock:
            records = self.review_comment_records.values()
            return {r["id"] for r in records if r.get("thread_resolved")}

    def reactions_for(self, kind: str, comment_id: int) -> list[str]:
        """Reaction contents on one comment, oldest first."""
        with self.lock:
            return [
                r["content"]
                for r in self.reaction_records
                if r["kind"] == kind and r["comment_id"] == comment_id
            ]

    def render_issue_comment(self, record: JSON) -> JSON:
        """An issue comment as served."""
        reactions = self.reactions_for("issue_comment", record["id"])
        return issue_comment_json(self.site, record, self.user(record["user"]), reactions)

    def render_review_comment(self, record: JSON) -> JSON:
        """A review comment as served."""
        reactions = self.reactions_for("review_comment", record["id"])
        return review_comment_json(self.site, record, self.user(record["user"]), reactions)

    def render_review(self, record: JSON) -> JSON:
        """A review as served."""
        return review_json(self.site, record, self.user(record["user"]))

    @property
    def reviews(self) -> dict[int, list[JSON]]:
        """Pull number -> reviews as served, oldest first."""
        with self.lock:
            out: dict[int, list[JSON]] = {n: [] for n in self.pulls}
            for record in self.review_records.values():
                out[record["pull"]].append(self.render_review(record))
            return out

    @property
    def review_comments(self) -> dict[int, list[JSON]]:
        """Pull number -> inline comments as served (from reviews, replies, setup)."""
        with self.lock:
            out: dict[int, list[JSON]] = {n: [] for n in self.pulls}
            for record in self.review_comment_records.values():
                out[record["pull"]].append(self.render_review_comment(record))
            return out

    @property
    def issue_comments(self) -> dict[int, list[JSON]]:
        """Issue or pull number -> its issue comments as served."""
        with self.lock:
            out: dict[int, list[JSON]] = {n: [] for n in self.issues}
            for record in self.issue_comment_records.values():
                out[record["issue"]].append(self.render_issue_comment(record))
            return out

    @property
    def reactions(self) -> dict[tuple[str, int], list[str]]:
        """(`issue_comment`|`review_comment`, comment id) -> reaction contents."""
        with self.lock:
            out: dict[tuple[str, int], list[str]] = {}
            for r in self.reaction_records:
                out.setdefault((r["kind"], r["comment_id"]), []).append(r["content"])
            return out
