"""Pull-request review text and placement: diff lines, inline comments, body, summary, state."""

from __future__ import annotations

from riverbed.pr_review.annotations import Annotations, annotation_line, findings_annotations
from riverbed.pr_review.assemble import review_view
from riverbed.pr_review.body import (
    finding_line,
    inline_comment_body,
    render_job_summary,
    render_review_body,
)
from riverbed.pr_review.budget import GITHUB_BODY_LIMIT, text_length
from riverbed.pr_review.diff import (
    DiffIndex,
    FileDiff,
    Hunk,
    build_diff_index,
    diff_index,
    parse_patch,
)
from riverbed.pr_review.model import (
    GuardSkip,
    ResurfaceNote,
    ReviewFinding,
    ReviewView,
    SuppressedFinding,
    SuppressionInEffect,
)
from riverbed.pr_review.placement import InlineTarget, Placement, place_findings, target_for
from riverbed.pr_review.state import (
    PostedComment,
    ReviewState,
    format_review_marker,
    last_review_state,
    parse_review_marker,
    posted_findings,
    review_state,
    unchanged_since_last_review,
)
from riverbed.text import escape_markdown, inline, unescape_markdown

__all__ = [
    "GITHUB_BODY_LIMIT",
    "Annotations",
    "DiffIndex",
    "FileDiff",
    "GuardSkip",
    "Hunk",
    "InlineTarget",
    "Placement",
    "PostedComment",
    "ResurfaceNote",
    "ReviewFinding",
    "ReviewState",
    "ReviewView",
    "SuppressedFinding",
    "SuppressionInEffect",
    "annotation_line",
    "build_diff_index",
    "diff_index",
    "escape_markdown",
    "finding_line",
    "findings_annotations",
    "format_review_marker",
    "inline",
    "inline_comment_body",
    "last_review_state",
    "parse_patch",
    "parse_review_marker",
    "place_findings",
    "posted_findings",
    "render_job_summary",
    "render_review_body",
    "review_state",
    "review_view",
    "target_for",
    "text_length",
    "unchanged_since_last_review",
    "unescape_markdown",
]
