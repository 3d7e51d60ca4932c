"""Pull request, issue, review, comment and reaction shapes served by the GitHub stand-in."""

from __future__ import annotations

from typing import Any

from riverbed.testing.github.objects import JSON, Site, fake_sha, node_id, timestamp


def _stamp_or(moment: Any, default: str | None) -> str | None:
    """A stored moment as GitHub writes it, or `default` when there is none."""
    return timestamp(moment) if moment is not None else default


# long: GitHub's pull-request object, one key per documented field
def pull_json(  # noqa: PLR0917 - one value per part of the object
    site: Site,
    pull: JSON,
    user: JSON,
    repository: JSON,
    counts: JSON,
    head_repository: JSON | None = None,
) -> JSON:
    """A `pull-request` from the stand-in's stored pull (a fork when the head repo differs)."""
    number = pull["number"]
    api = f"{site.repo_api}/pulls/{number}"
    issue_api = f"{site.repo_api}/issues/{number}"
    web = f"{site.repo_web}/pull/{number}"
    stamp = timestamp(pull["created_at"])
    files = pull["files"]

    def ref(name: str, sha: str, repo: JSON) -> JSON:
        return {
            "label": f"{repo['owner']['login']}:{name}",
            "ref": name,
            "sha": sha,
            "user": repo["owner"],
            "repo": repo,
        }

    def link(href: str) -> JSON:
        return {"href": href}

    return {
        "url": api,
        "id": pull["id"],
        "node_id": node_id("PR", pull["id"]),
        "html_url": web,
        "diff_url": f"{web}.diff",
        "patch_url": f"{web}.patch",
        "issue_url": issue_api,
        "commits_url": f"{api}/commits",
        "review_comments_url": f"{api}/comments",
        "review_comment_url": f"{site.repo_api}/pulls/comments{{/number}}",
        "comments_url": f"{issue_api}/comments",
        "statuses_url": f"{site.repo_api}/statuses/{pull['head_sha']}",
        "number": number,
        "state": pull.get("state", "open"),
        "locked": False,
        "title": pull["title"],
        "user": user,
        "body": pull["body"],
        "labels": [],
        "milestone": None,
        "active_lock_reason": None,
        "created_at": stamp,
        "updated_at": _stamp_or(pull.get("updated_at"), stamp),
        "closed_at": _stamp_or(pull.get("closed_at"), None),
        "merged_at": _stamp_or(pull.get("merged_at"), None),
        "merge_commit_sha": pull.get("merge_commit_sha"),
        "assignee": None,
        "assignees": [],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": ref(pull["head_ref"], pull["head_sha"], head_repository or repository),
        "base": ref(pull["base_ref"], pull["base_sha"], repository),
        "_links": {
            "self": link(api),
            "html": link(web),
            "issue": link(issue_api),
            "comments": link(f"{issue_api}/comments"),
            "review_comments": link(f"{api}/comments"),
            "review_comment": link(f"{site.repo_api}/pulls/comments{{/number}}"),
            "commits": link(f"{api}/commits"),
            "statuses": link(f"{site.repo_api}/statuses/{pull['head_sha']}"),
        },
        "author_association": "CONTRIBUTOR",
        "auto_merge": None,
        "draft": False,
        "merged": pull.get("merged_at") is not None,
        "mergeable": True,
        "rebaseable": True,
        "mergeable_state": "clean",
        "merged_by": None,
        "comments": counts["comments"],
        "review_comments": counts["review_comments"],
        "maintainer_can_modify": False,
        "commits": 1,
        "additions": sum(int(f.get("additions", 0)) for f in files),
        "deletions": sum(int(f.get("deletions", 0)) for f in files),
        "changed_files": len(files),
    }


def diff_entry_json(site: Site, pull: JSON, item: JSON) -> JSON:
    """A `diff-entry` (one changed file of a pull) from a stored file record."""
    filename = item["filename"]
    head = pull["head_sha"]
    additions = int(item.get("additions", 0))
    deletions = int(item.get("deletions", 0))
    data: JSON = {
        "sha": item.get("sha") or fake_sha(f"blob:{head}:{filename}"),
        "filename": filename,
        "status": item.get("status", "modified"),
        "additions": additions,
        "deletions": deletions,
        "changes": int(item.get("changes", additions + deletions)),
        "blob_url": f"{site.repo_web}/blob/{head}/{filename}",
        "raw_url": f"{site.repo_web}/raw/{head}/{filename}",
        "contents_url": f"{site.repo_api}/contents/{filename}?ref={head}",
    }
    if item.get("patch") is not None:
        data["patch"] = item["patch"]
    if item.get("previous_filename") is not None:
        data["previous_filename"] = item["previous_filename"]
    return data


def label_json(site: Site, name: str) -> JSON:
    """A `label` (ids are derived from the name, as stable as GitHub's)."""
    label_id = int(fake_sha(f"label:{name}")[:8], 16)
    return {
        "id": label_id,
        "node_id": node_id("LA", label_id),
        "url": f"{site.repo_api}/labels/{name}",
        "name": name,
        "description": None,
        "color": "ededed",
        "default": False,
    }


def issue_json(site: Site, issue: JSON, user: JSON, comment_count: int) -> JSON:
    """An `issue`; a pull request's issue carries the `pull_request` key."""
    number = issue["number"]
    api = f"{site.repo_api}/issues/{number}"
    stamp = timestamp(issue["created_at"])
    data: JSON = {
        "id": issue["id"],
        "node_id": node_id("I", issue["id"]),
        "url": api,
        "repository_url": site.repo_api,
        "labels_url": f"{api}/labels{{/name}}",
        "comments_url": f"{api}/comments",
        "events_url": f"{api}/events",
        "html_url": f"{site.repo_web}/{'pull' if issue['is_pull'] else 'issues'}/{number}",
        "number": number,
        "state": issue.get("state", "open"),
        "title": issue["title"],
        "body": issue["body"],
        "user": user,
        "labels": [label_json(site, name) for name in issue.get("labels", [])],
        "assignee": None,
        "assignees": [],
        "milestone": None,
        "locked": False,
        "active_lock_reason": None,
        "comments": comment_count,
        "closed_at": timestamp(issue["closed_at"]) if issue.get("closed_at") else None,
        "created_at": stamp,
        "updated_at": timestamp(issue.get("updated_at") or issue["created_at"]),
        "author_association": "CONTRIBUTOR",
    }
    if issue.get("state_reason"):
        # Open issues omit it: the description's enum has no null (OpenAPI 3.0 `nullable` quirk).
        data["state_reason"] = issue["state_reason"]
    if issue["is_pull"]:
        pull_web = f"{site.repo_web}/pull/{number}"
        data["pull_request"] = {
            "url": f"{site.repo_api}/pulls/{number}",
            "html_url": pull_web,
            "diff_url": f"{pull_web}.diff",
            "patch_url": f"{pull_web}.patch",
            "merged_at": None,
        }
    return data


def reaction_rollup(url: str, contents: list[str]) -> JSON:
    """A `reaction-rollup` counting `contents`."""
    rollup: JSON = {"url": url, "total_count": len(contents)}
    for kind in ("+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"):
        rollup[kind] = contents.count(kind)
    return rollup


def issue_comment_json(site: Site, comment: JSON, user: JSON, reactions: list[str]) -> JSON:
    """An `issue-comment` from a stored comment."""
    url = f"{site.repo_api}/issues/comments/{comment['id']}"
    stamp = timestamp(comment["created_at"])
    return {
        "id": comment["id"],
        "node_id": node_id("IC", comment["id"]),
        "url": url,
        "html_url": f"{site.repo_web}/issues/{comment['issue']}#issuecomment-{comment['id']}",
        "issue_url": f"{site.repo_api}/issues/{comment['issue']}",
        "body": comment["body"],
        "user": user,
        "created_at": stamp,
        "updated_at": timestamp(comment["updated_at"]),
        "author_association": comment["author_association"],
        "reactions": reaction_rollup(f"{url}/reactions", reactions),
    }


def review_comment_json(site: Site, comment: JSON, user: JSON, reactions: list[str]) -> JSON:
    """A `pull-request-review-comment` from a stored inline comment."""
    url = f"{site.repo_api}/pulls/comments/{comment['id']}"
    pull_api = f"{site.repo_api}/pulls/{comment['pull']}"
    web = f"{site.repo_web}/pull/{comment['pull']}#discussion_r{comment['id']}"
    data: JSON = {
        "url": url,
        "id": comment["id"],
        "node_id": node_id("PRRC", comment["id"]),
        "pull_request_review_id": comment["review_id"],
        "diff_hunk": comment["diff_hunk"],
        "path": comment["path"],
        "commit_id": comment["commit_id"],
        "original_commit_id": comment["commit_id"],
        "user": user,
        "body": comment["body"],
        "created_at": timestamp(comment["created_at"]),
        "updated_at": timestamp(comment["updated_at"]),
        "html_url": web,
        "pull_request_url": pull_api,
        "author_association": comment["author_association"],
        "_links": {
            "self": {"href": url},
            "html": {"href": web},
            "pull_request": {"href": pull_api},
        },
        "start_line": comment["start_line"],
        "original_start_line": comment["start_line"],
        "side": comment["side"],
        "subject_type": "line" if comment["line"] is not None else "file",
        "reactions": reaction_rollup(f"{url}/reactions", reactions),
    }
    for key in ("line", "position"):
        if comment[key] is not None:
            data[key] = comment[key]
            data[f"original_{key}"] = comment[key]
    if comment["start_side"] is not None:
        # GitHub sends null here, but its schema's enum has no null: leave the key out.
        data["start_side"] = comment["start_side"]
    if comment["in_reply_to"] is not None:
        data["in_reply_to_id"] = comment["in_reply_to"]
    return data


def review_json(site: Site, review: JSON, user: JSON) -> JSON:
    """A `pull-request-review` from a stored review."""
    pull_api = f"{site.repo_api}/pulls/{review['pull']}"
    web = f"{site.repo_web}/pull/{review['pull']}#pullrequestreview-{review['id']}"
    data: JSON = {
        "id": review["id"],
        "node_id": node_id("PRR", review["id"]),
        "user": user,
        "body": review["body"],
        "state": review["state"],
        "html_url": web,
        "pull_request_url": pull_api,
        "_links": {"html": {"href": web}, "pull_request": {"href": pull_api}},
        "commit_id": review["commit_id"],
        "author_association": "NONE" if user["type"] == "Bot" else "CONTRIBUTOR",
    }
    if review["state"] != "PENDING":
        data["submitted_at"] = timestamp(review["created_at"])
    return data


def reaction_json(reaction: JSON, user: JSON) -> JSON:
    """A `reaction`."""
    return {
        "id": reaction["id"],
        "node_id": node_id("REA", reaction["id"]),
        "user": user,
        "content": reaction["content"],
        "created_at": timestamp(reaction["created_at"]),
    }


ROLE_TO_PERMISSION = {
    "admin": "admin",
    "maintain": "write",
    "write": "write",
    "triage": "read",
    "read": "read",
    "none": "none",
}


def permission_json(user: JSON, role: str, *, base: str | None = None) -> JSON:
    """A `repository-collaborator-permission`: `permission` is the legacy level (admin,
    write, read, none) of the role's base; `role_name` keeps maintain/triage, or a custom
    role's own name, as GitHub does."""
    collaborator = dict(user)
    base = base or role
    level = ROLE_TO_PERMISSION[base]
    collaborator["role_name"] = role
    collaborator["permissions"] = {
        "admin": base == "admin",
        "maintain": base in {"admin", "maintain"},
        "push": level in {"admin", "write"},
        "triage": base in {"admin", "maintain", "write", "triage"},
        "pull": level != "none",
    }
    return {"permission": level, "role_name": role, "user": collaborator}
