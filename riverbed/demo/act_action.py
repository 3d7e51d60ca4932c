"""Act 2: the action's own code path in persist, review, comment and expire modes.

GitHub is `riverbed.testing.FakeGitHub`, a local stand-in on 127.0.0.1; the staged index of
each run is added to it as the next run's artifact, as `actions/upload-artifact` would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from riverbed.demo.act_memory import IMPORTED_ID
from riverbed.demo.action_env import ActionRun, pin_identity, run_mode
from riverbed.demo.context import DemoState
from riverbed.demo.scenario import (
    AUTHOR,
    MAINTAINER,
    OWNER,
    REPO,
    REPO_ID,
    added_patch,
    pull,
    source_text,
)
from riverbed.demo.story import Step
from riverbed.demo.terminal import for_terminal
from riverbed.errors import RiverbedError
from riverbed.testing.github.server import FakeGitHub

if TYPE_CHECKING:
    from riverbed.testing.events import Where

HEAD_SHA = "c4" * 20
REPOSITORY = f"{OWNER}/{REPO}"
#: The login riverbed writes as in the demo: an app of its own, not the Actions bot.
APP_LOGIN = "riverbed-demo[bot]"


class DemoStepError(RiverbedError):
    """A demo step's action run did not do what the story needs."""


def _gh(state: DemoState) -> FakeGitHub:
    gh: FakeGitHub = state.carry["gh"]
    return gh


def _where(state: DemoState) -> Where:
    """The demo repository as the event builders' keywords, on the running stand-in."""
    return {"api_url": _gh(state).api_url, "owner": OWNER, "repo": REPO, "repository_id": REPO_ID}


def stand_in(state: DemoState) -> FakeGitHub:
    """Start the GitHub stand-in with the demo repository, PR #4 and its maintainer."""
    # riverbed posts with a GitHub App token of its own, as reactions need (issue 36 §6): the
    # first trusted comment run that writes memory records this login as its identity.
    gh = FakeGitHub(owner=OWNER, repo=REPO, repository_id=REPO_ID, bot_login=APP_LOGIN)
    demo_pull = pull(4)
    files = []
    for path in demo_pull.files:
        text = source_text(demo_pull, path)
        lines = text.rstrip("\n").count("\n") + 1
        files.append(
            {
                "filename": path,
                "status": "added",
                "patch": added_patch(text),
                "additions": lines,
                "deletions": 0,
            }
        )
    gh.add_pull(demo_pull.number, HEAD_SHA, files=files, user=AUTHOR, title=demo_pull.title)
    for path in demo_pull.files:
        # The head commit's files, as GitHub serves them: a tool's fix becomes a suggestion.
        gh.contents.add_file(path, source_text(demo_pull, path).encode("utf-8"), ref=HEAD_SHA)
    gh.set_permission(MAINTAINER, "write")
    state.carry["gh"] = gh
    pin_identity(state, APP_LOGIN)
    return gh


def _run(state: DemoState, name: str, **kwargs: Any) -> ActionRun:
    run = run_mode(
        _gh(state),
        run_dir=state.root / "runs" / name,
        repository=REPOSITORY,
        repository_id=REPO_ID,
        **kwargs,
    )
    for annotation in run.warnings():
        text = annotation.split("::", 2)[-1]
        # The action reads the same memory as act 1: a warning already shown is not repeated.
        state.warn(text if text in state.warnings else "the action: " + text)
    if run.code != 0:
        errors = "; ".join(run.errors()) or run.log.strip().splitlines()[-1:]
        raise DemoStepError(f"the action's {run.mode} run exited {run.code}: {errors}")
    return run


def _uploaded(run: ActionRun) -> str:
    if run.uploaded_artifact is None:
        return "nothing staged, nothing uploaded"
    return f"staged and uploaded as artifact #{run.uploaded_artifact}"


def action_persist(state: DemoState) -> Step:
    """persist (push to main): no artifact yet, so the checked-in index seeds the artifact."""
    from riverbed.testing.events import push_event

    run = _run(
        state,
        "1-persist",
        mode="persist",
        event_name="push",
        payload=push_event(**_where(state)),
        workspace=state.repo,
        now=state.timeline.day(43),
    )
    out = run.outputs
    return Step(
        key="action-persist",
        act=2,
        title=f"mode persist (push): restored from {out.get('restored-from')}, "
        f"{out.get('entries')} entries",
        lines=(
            f"archived {out.get('archived')}, appended {out.get('appended')}; {_uploaded(run)}.",
        ),
        facts={"outputs": out, "uploaded": run.uploaded_artifact},
    )


def _review(state: DemoState, name: str, day: int) -> tuple[ActionRun, dict[str, Any]]:
    from riverbed.testing.events import pull_request_event

    gh = _gh(state)
    demo_pull = pull(4)
    workspace = state.root / "runs" / name / "workspace"
    findings = state.findings_file(demo_pull, workspace)
    before = {review["id"] for review in gh.reviews[demo_pull.number]}
    run = _run(
        state,
        name,
        mode="review",
        event_name="pull_request",
        payload=pull_request_event(
            demo_pull.number,
            HEAD_SHA,
            **_where(state),
        ),
        workspace=workspace,
        inputs={"findings": findings.name, "phase": "midstream"},
        now=state.timeline.day(day),
    )
    posted = [r for r in gh.reviews[demo_pull.number] if r["id"] not in before]
    if len(posted) != 1:
        raise DemoStepError(f"expected the review run to post 1 review, found {len(posted)}")
    review = posted[0]
    inline = [
        c
        for c in gh.review_comments[demo_pull.number]
        if c.get("pull_request_review_id") == review["id"]
    ]
    return run, {"review": review, "inline": inline}


def _inline_line(comment: dict[str, Any]) -> str:
    """Where an inline comment sits and its first two paragraphs, as GitHub shows them."""
    paragraphs = [p.strip() for p in for_terminal(comment["body"]).split("\n\n") if p.strip()]
    return f"{comment['path']}:{comment['line']}: " + " — ".join(paragraphs[:2])


def action_review(state: DemoState) -> Step:
    """review (pull_request #4): memory applied to ruff's SARIF, one review posted."""
    run, posted = _review(state, "2-review", 44)
    inline = posted["inline"]
    f401 = [c for c in inline if "F401" in c["body"]]
    if not f401:
        raise DemoStepError("the review has no inline comment for F401 to reply to")
    state.carry["f401_comment"] = f401[0]
    out = run.outputs
    return Step(
        key="action-review",
        act=2,
        title=f"mode review (PR #4 “{pull(4).title}”): kept {out.get('findings-kept')}, "
        f"suppressed {out.get('findings-suppressed')}; review posted with "
        f"{len(inline)} inline comments",
        lines=tuple("inline: " + _inline_line(c) for c in inline),
        facts={
            "outputs": out,
            "reviewId": posted["review"]["id"],
            "inlineComments": len(inline),
            "body": posted["review"]["body"],
        },
        block_title="the review body as posted to PR #4 (GitHub stand-in)",
        block=posted["review"]["body"],
    )


def _marker_fingerprint(body: str) -> str:
    from riverbed.pr_review.markers import parse_finding_markers

    markers = parse_finding_markers(body)
    if not markers:
        raise DemoStepError("the F401 comment carries no riverbed finding marker")
    return markers[0].fingerprint


def _reply_in_thread(state: DemoState, body: str) -> str:
    """The suppress command as a reply in the F401 thread: refused; the refusal's body."""
    from riverbed.testing.events import review_comment_event

    gh = _gh(state)
    parent = state.carry["f401_comment"]
    comment_id = gh.add_review_comment(4, body, user=MAINTAINER, in_reply_to=parent["id"])
    payload = review_comment_event(
        4,
        comment_id,
        body,
        MAINTAINER,
        in_reply_to_id=parent["id"],
        path=parent["path"],
        line=parent["line"],
        head_sha=HEAD_SHA,
        **_where(state),
    )
    refused = _run(
        state,
        "3-comment-reply",
        mode="comment",
        event_name="pull_request_review_comment",
        payload=payload,
        workspace=state.root / "runs" / "3-comment-reply" / "workspace",
        now=state.timeline.day(44),
    )
    replies = [
        c
        for c in gh.review_comments[4]
        if c["user"]["type"] == "Bot" and c.get("in_reply_to_id") == parent["id"]
    ]
    if len(replies) != 1 or refused.outputs.get("upload") != "false":
        raise DemoStepError(f"expected 1 refusal in the F401 thread, found {len(replies)}")
    return str(replies[0]["body"])


def _post_in_conversation(state: DemoState, suggested: str) -> tuple[ActionRun, int]:
    """The suggested command posted in the conversation, and comment mode's run on it."""
    from riverbed.testing.events import issue_comment_event

    gh = _gh(state)
    conversation_id = gh.add_issue_comment(issue=4, body=suggested, user=MAINTAINER)
    run = _run(
        state,
        "3-comment",
        mode="comment",
        event_name="issue_comment",
        payload=issue_comment_event(
            4,
            conversation_id,
            suggested,
            MAINTAINER,
            **_where(state),
        ),
        workspace=state.root / "runs" / "3-comment" / "workspace",
        now=state.timeline.day(44),
    )
    return run, conversation_id


def action_comment(state: DemoState) -> Step:
    """comment (a reply to the F401 comment): `/riverbed suppress` from a maintainer."""
    gh = _gh(state)
    parent = state.carry["f401_comment"]
    body = (
        '/riverbed suppress --type accepted_risk --reason "imported for its side effect: '
        f'it connects the signal handlers" --expires {state.timeline.date(60)}'
    )
    refusal = _reply_in_thread(state, body)
    # The reply says why (the reply's run is not trusted) and what to post in the
    # conversation instead: the same command with the finding's fingerprint.
    suggested = _suggested_command(refusal)
    run, conversation_id = _post_in_conversation(state, suggested)
    answers = [c for c in gh.issue_comments.get(4, []) if c["user"]["type"] == "Bot"]
    reactions = gh.reactions.get(("issue_comment", conversation_id), [])
    staged = run.staged.read_text(encoding="utf-8") if run.staged.exists() else ""
    fingerprint = _marker_fingerprint(parent["body"])
    created = [i for i in staged_statuses(staged) if i.startswith(f"suppression-{fingerprint}-")]
    if not created or not answers:
        raise DemoStepError(f"the staged memory has no suppression of {fingerprint}")
    state.carry["comment_suppression"] = created[0]
    return Step(
        key="action-comment",
        act=2,
        title=f"mode comment: {MAINTAINER} replies to the F401 comment, then posts the "
        "suggested command in the conversation; reactions " + " ".join(reactions),
        lines=(
            f"> {body}",
            "the reply's run is not trusted (replies run the pull request's copy of the "
            "workflow), so riverbed changed nothing and suggested the conversation form:",
            f"> {suggested}",
            f"memory: {_uploaded(run)}.",
        ),
        facts={
            "outputs": run.outputs,
            "refusal": refusal,
            "suggested": suggested,
            "reply": answers[-1]["body"],
            "reactions": reactions,
            "uploaded": run.uploaded_artifact,
            "suppression": created[0],
        },
        block_title="the reply as posted in the conversation (GitHub stand-in)",
        block=answers[-1]["body"],
    )


def _suggested_command(reply: str) -> str:
    """The command in the fenced block of a refusal reply."""
    fence = reply.split("```text\n", 1)
    if len(fence) != 2:
        raise DemoStepError("the refusal in the F401 thread suggests no command")
    return fence[1].split("\n```", 1)[0]


def staged_statuses(staged_json: str) -> dict[str, str]:
    """Entry id → status in a staged index document (empty text: none)."""
    if not staged_json:
        return {}
    from riverbed.index.jsonbytes import loads
    from riverbed.index.model import entry_status

    document = loads(staged_json)
    return {str(e["id"]): entry_status(e) for e in document["entries"]}


def action_review_again(state: DemoState) -> Step:
    """review again (new push to PR #4): the suppressed finding is not raised again."""
    run, posted = _review(state, "4-review-again", 45)
    out = run.outputs
    suppression = state.carry["comment_suppression"]
    # The body escapes Markdown punctuation (`suppression\-…`); compare without the escapes.
    listed = suppression in posted["review"]["body"].replace("\\", "")
    return Step(
        key="action-review-again",
        act=2,
        title=f"mode review again: kept {out.get('findings-kept')}, suppressed "
        f"{out.get('findings-suppressed')}; {len(posted['inline'])} new inline comments",
        lines=(
            "F401 is hidden by the comment's suppression"
            + (f" ({suppression} is listed in the body)" if listed else "")
            + "; the E711 comment is already on the PR, so it is not repeated.",
        ),
        facts={
            "outputs": out,
            "inlineComments": len(posted["inline"]),
            "suppressionListed": listed,
            "body": posted["review"]["body"],
        },
    )


def action_expire(state: DemoState) -> Step:
    """expire (weekly schedule, day 70): the comment's suppression has lapsed."""
    from riverbed.testing.events import schedule_event

    run = _run(
        state,
        "5-expire",
        mode="expire",
        event_name="schedule",
        payload=schedule_event(**_where(state)),
        workspace=state.root / "runs" / "5-expire" / "workspace",
        now=state.timeline.day(70),
    )
    out = run.outputs
    # The summary escapes Markdown punctuation (`decision\-…`); compare without the escapes.
    warned = IMPORTED_ID in run.summary.replace("\\", "")
    statuses = staged_statuses(run.staged.read_text(encoding="utf-8"))
    lapsed = state.carry.get("comment_suppression", "")
    return Step(
        key="action-expire",
        act=2,
        title=f"mode expire (schedule, day 70): restored artifact #{out.get('restored-from')}, "
        f"archived {out.get('archived')}",
        lines=(
            f"the comment's suppression expired {state.timeline.date(60)}; {IMPORTED_ID} "
            f"{'warned about again and ' if warned else ''}kept.",
            f"{_uploaded(run)} (re-uploading also renews the artifact's retention).",
        ),
        facts={
            "outputs": out,
            "uploaded": run.uploaded_artifact,
            "unparseableWarned": warned,
            "commentSuppression": lapsed,
            "commentSuppressionStatus": statuses.get(lapsed),
            "importedStatus": statuses.get(IMPORTED_ID),
        },
    )


ACT_TWO = (action_persist, action_review, action_comment, action_review_again, action_expire)
