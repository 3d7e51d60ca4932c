"""The stateful store behind the GitHub test stand-in: identities, runs, artifacts, roles."""

from __future__ import annotations

import hashlib
import io
import itertools
import threading
import zipfile
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta

from riverbed.testing.github.git_routes import GitGraph
from riverbed.testing.github.objects import (
    JSON,
    Site,
    artifact_json,
    fake_sha,
    repository_json,
    user_json,
)
from riverbed.testing.github.pull_objects import ROLE_TO_PERMISSION

ARTIFACT_RETENTION = timedelta(days=90)
COMMENT_KINDS = ("issue_comment", "review_comment")


def _utc(value: datetime | str | None, default: datetime) -> datetime:
    if value is None:
        return default
    if isinstance(value, str):
        value = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError(f"created_at must be timezone-aware, got {value!r}")
    return value.astimezone(UTC).replace(microsecond=0)


def zip_files(files: Mapping[str, bytes | str]) -> bytes:
    """A deflated zip holding `files` (name -> content), as upload-artifact builds one."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            archive.writestr(name, data)
    return buffer.getvalue()


class FakeState:
    """Everything the stand-in knows; every method is thread-safe (one re-entrant lock).

    This class holds all records; `PullState` adds the pull/issue/comment methods.
    """

    def __init__(self, site: Site, *, bot_login: str, clock: Callable[[], datetime]) -> None:
        self.site = site
        self.bot_login = bot_login
        self.clock = clock
        self.lock = threading.RLock()
        self._ids = itertools.count(site.repository_id * 1000 + 1)
        self._user_ids: dict[str, int] = {}
        self._last_created = datetime(2000, 1, 1, tzinfo=UTC)
        self._created = clock().astimezone(UTC).replace(microsecond=0)
        self.runs: dict[int, JSON] = {}
        #: Commits, branches and tags (`add_run` puts a branch run's commit on its branch).
        self.git = GitGraph(site)
        self._workflow_ids: dict[str, int] = {}
        self.artifact_records: dict[int, JSON] = {}
        self.pulls: dict[int, JSON] = {}
        self.issues: dict[int, JSON] = {}
        self.review_records: dict[int, JSON] = {}
        self.review_comment_records: dict[int, JSON] = {}
        self.issue_comment_records: dict[int, JSON] = {}
        self.reaction_records: list[JSON] = []
        self.roles: dict[str, str | None] = {site.owner: "admin"}
        self.custom_roles: dict[str, str] = {}

    # ------------------------------------------------------------------ identities
    def new_id(self) -> int:
        """A fresh object id (one counter for every kind, so ids never collide)."""
        with self.lock:
            return next(self._ids)

    def user(self, login: str) -> JSON:
        """The `simple-user` for `login` (ids are stable per login)."""
        with self.lock:
            if login not in self._user_ids:
                self._user_ids[login] = 5000 + len(self._user_ids)
            return user_json(self.site, login, self._user_ids[login])

    def repository(self, repo_id: int | None = None) -> JSON:
        """The served repository, or a fork of it under another id."""
        site = self.site
        if repo_id is None or repo_id == site.repository_id:
            owner = self.user(site.owner)
            return repository_json(
                site, owner, site.repo, site.repository_id, fork=False, created=self._created
            )
        owner = self.user(f"fork-owner-{repo_id}")
        return repository_json(site, owner, site.repo, repo_id, fork=True, created=self._created)

    def association(self, login: str) -> str:
        """`author_association` for a comment by `login`."""
        if login == self.site.owner:
            return "OWNER"
        role = self.roles.get(login)
        base = self.custom_roles.get(role, role) if role else role
        return "COLLABORATOR" if base in {"admin", "maintain", "write", "triage"} else "NONE"

    def next_created(self, created_at: datetime | str | None) -> datetime:
        """`created_at` as UTC, or now (strictly after anything made earlier)."""
        with self.lock:
            default = max(self.clock().astimezone(UTC), self._last_created + timedelta(seconds=1))
            moment = _utc(created_at, default.replace(microsecond=0))
            self._last_created = max(self._last_created, moment)
            return moment

    # ------------------------------------------------------------------ runs and artifacts
    def add_run(
        self,
        event: str = "push",
        head_repository_id: int | None = None,
        head_branch: str | None = "main",
        created_at: datetime | str | None = None,
        *,
        head_sha: str | None = None,
        status: str = "completed",
        conclusion: str | None = "success",
        name: str = "riverbed",
        path: str = ".github/workflows/riverbed.yml",
    ) -> int:
        """Record a workflow run of workflow file `path`; returns its id.

        Without `head_sha`, a run of this repository's code gets a new commit on top of
        `head_branch` (as a push makes one); a fork's run gets a commit unknown here.
        """
        with self.lock:
            run_id = self.new_id()
            own = head_repository_id in (None, self.site.repository_id)
            if head_sha is None and head_branch and own:
                head_sha = self.git.advance(head_branch)
            workflow_id = self._workflow_ids.setdefault(path, 4242 + len(self._workflow_ids))
            self.runs[run_id] = {
                "id": run_id,
                "event": event,
                "head_repository_id": head_repository_id or self.site.repository_id,
                "head_branch": head_branch,
                "head_sha": head_sha or fake_sha(f"run:{run_id}"),
                "created_at": self.next_created(created_at),
                "status": status,
                "conclusion": conclusion,
                "name": name,
                "path": path,
                "workflow_id": workflow_id,
                "run_number": len(self.runs) + 1,
            }
            return run_id

    def add_tag(self, name: str, sha: str | None = None) -> str:
        """Tag `sha` as `name` (without it, a new commit off `main` that is not on `main`)."""
        with self.lock:
            if sha is None:
                tip = self.git.refs.get("heads/main")
                sha = self.git.commit((tip,) if tip else ())
            self.git.set_ref(f"tags/{name}", sha)
            return sha

    def knows_workflow(self, workflow: str) -> bool:
        """Whether a run of workflow `workflow` (an id or a file name) was ever recorded."""
        with self.lock:
            return any(
                workflow in (str(number), path.rsplit("/", 1)[-1])
                for path, number in self._workflow_ids.items()
            )

    def workflow_runs(self, workflow: str, query: Mapping[str, str]) -> list[JSON]:
        """Runs of one workflow (its id, or its file name), newest first, filtered as GitHub
        documents `branch` (the run's head_branch), `event`, `status` (a status or a
        conclusion) and `head_sha`; at most 1,000 when any of those filters is given."""
        with self.lock:
            runs = sorted(self.runs.values(), key=lambda r: r["id"], reverse=True)
        kept = [
            r
            for r in runs
            if workflow in (str(r["workflow_id"]), r["path"].rsplit("/", 1)[-1])
            and query.get("branch", r["head_branch"]) == r["head_branch"]
            and query.get("event", r["event"]) == r["event"]
            and query.get("status", r["status"]) in (r["status"], r["conclusion"])
            and query.get("head_sha", r["head_sha"]) == r["head_sha"]
        ]
        filters = {"actor", "branch", "check_suite_id", "created", "event", "head_sha", "status"}
        return kept[:1000] if filters & set(query) else kept

    def add_artifact_zip(  # noqa: PLR0917 - positional order is the agreed interface
        self,
        name: str = "riverbed-memory",
        run_id: int | None = None,
        zip_bytes: bytes = b"",
        digest: str | None = None,
        expired: bool = False,
        created_at: datetime | str | None = None,
    ) -> int:
        """Record an artifact whose download serves `zip_bytes` as given; returns its id.

        `digest="auto"` is the real `sha256:<hex>` of the bytes, `None` leaves it out.
        Without `run_id` a trusted push run of this repository is created for it.
        """
        with self.lock:
            if run_id is None:
                run_id = self.add_run()
            if run_id not in self.runs:
                raise KeyError(f"add_artifact: no run {run_id}; create it with add_run() first")
            created = self.next_created(created_at)
            now = self.clock().astimezone(UTC).replace(microsecond=0)
            expires = created + ARTIFACT_RETENTION
            if expired:
                expires = min(expires, now)
            elif expires <= now:  # an artifact not yet expired expires in the future
                expires = now + timedelta(days=1)
            art_id = self.new_id()
            if digest == "auto":
                digest = "sha256:" + hashlib.sha256(zip_bytes).hexdigest()
            self.artifact_records[art_id] = {
                "id": art_id,
                "name": name,
                "run": self.runs[run_id],
                "zip": zip_bytes,
                "digest": digest,
                "expired": expired,
                "created_at": created,
                "expires_at": expires,
            }
            return art_id

    def add_artifact(  # noqa: PLR0917 - positional order is the agreed interface
        self,
        name: str = "riverbed-memory",
        run_id: int | None = None,
        files: Mapping[str, bytes | str] | None = None,
        expired: bool = False,
        created_at: datetime | str | None = None,
        digest: str | None = "auto",
    ) -> int:
        """Record an artifact holding `files` (zipped here); returns its id."""
        return self.add_artifact_zip(
            name=name,
            run_id=run_id,
            zip_bytes=zip_files(files or {}),
            digest=digest,
            expired=expired,
            created_at=created_at,
        )

    def expire_artifact(self, artifact_id: int) -> None:
        """Mark an artifact expired: listed with `expired: true`, its download answers 410."""
        with self.lock:
            record = self.artifact_records[artifact_id]
            record["expired"] = True
            now = self.clock().astimezone(UTC).replace(microsecond=0)
            record["expires_at"] = min(record["expires_at"], now)

    def sorted_artifacts(self, name: str | None = None, run_id: int | None = None) -> list[JSON]:
        """Artifact records, newest first (as GitHub lists them), optionally filtered."""
        with self.lock:
            records = [
                r
                for r in self.artifact_records.values()
                if (name is None or r["name"] == name)
                and (run_id is None or r["run"]["id"] == run_id)
            ]
        return sorted(records, key=lambda r: (r["created_at"], r["id"]), reverse=True)

    @property
    def artifacts(self) -> list[JSON]:
        """Every artifact as the API serves it, newest first."""
        return [artifact_json(self.site, r) for r in self.sorted_artifacts()]

    # ------------------------------------------------------------------ permissions
    def add_custom_role(self, name: str, base_role: str) -> None:
        """Define an organization's custom repository role inheriting `base_role` (read,
        triage, write or maintain, as GitHub allows); `set_permission` can then give it."""
        if base_role not in {"read", "triage", "write", "maintain"}:
            raise ValueError(f"add_custom_role: base role {base_role!r} is not one GitHub allows")
        if name in ROLE_TO_PERMISSION:
            raise ValueError(f"add_custom_role: {name!r} is a built-in role")
        with self.lock:
            self.custom_roles[name] = base_role

    def base_role(self, role: str) -> str:
        """The built-in role a role stands on: itself, or a custom role's base role."""
        with self.lock:
            return self.custom_roles.get(role, role)

    def set_permission(self, login: str, role: str | None) -> None:
        """Give `login` a repository role (admin|maintain|write|triage|read|none or a custom
        role from `add_custom_role`), or `None` to make the permission endpoint answer 404."""
        if role is not None and role not in ROLE_TO_PERMISSION and role not in self.custom_roles:
            raise ValueError(f"set_permission: unknown role {role!r}")
        with self.lock:
            self.roles[login] = role

    def role(self, login: str) -> str | None:
        """The role of `login`: as set, else `read` (anyone may read a public repo)."""
        with self.lock:
            return self.roles.get(login, "read")
