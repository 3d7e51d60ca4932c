"""Pure parts of the action: candidate selection, upcoming expiries, summary escaping."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from riverbed.action.memory_job import upcoming_expiries
from riverbed.action.restore import integrity_problem, select_candidates
from riverbed.action.runner import neutralize, output_value
from riverbed.github.artifacts import ArtifactInfo, artifact_from_json
from riverbed.text import code, inline

REPO_ID = 1001


def art(
    artifact_id: int,
    day: int,
    *,
    expired: bool = False,
    head: int | None = REPO_ID,
    repo: int | None = REPO_ID,
    run: int | None = 1,
) -> ArtifactInfo:
    return ArtifactInfo(
        id=artifact_id,
        name="riverbed-memory",
        expired=expired,
        created_at=datetime(2026, 1, day, tzinfo=UTC),
        size_in_bytes=10,
        digest=None,
        run_id=run,
        run_repository_id=repo,
        head_repository_id=head,
        head_branch="main",
    )


def test_candidates_are_newest_first_and_skips_are_counted() -> None:
    listing = [
        art(1, 1),
        art(2, 5, expired=True),
        art(3, 3),
        art(4, 9, head=2002),
        art(5, 8, run=None),
        art(6, 7, repo=3003),
    ]
    ordered, notes = select_candidates(listing, repository_id=REPO_ID)
    assert [a.id for a in ordered] == [3, 1]
    assert "skipped 1 expired artifact: 2" in notes
    assert any("ignored 3 artifacts" in n and "4, 5, 6" in n for n in notes)


def test_newer_than_keeps_only_later_artifacts() -> None:
    listing = [art(1, 1), art(2, 2), art(3, 3)]
    ordered, _ = select_candidates(listing, repository_id=REPO_ID, newer_than=listing[1])
    assert [a.id for a in ordered] == [3]


def test_same_timestamp_is_ordered_by_id() -> None:
    ordered, _ = select_candidates([art(7, 4), art(9, 4), art(8, 4)], repository_id=REPO_ID)
    assert [a.id for a in ordered] == [9, 8, 7]


def test_long_skip_lists_are_cut_with_a_count() -> None:
    listing = [art(n, 1, expired=True) for n in range(1, 21)]
    _, notes = select_candidates(listing, repository_id=REPO_ID)
    assert notes == ["skipped 20 expired artifacts: 1, 2, 3, 4, 5 and 15 more"]


def test_artifact_from_listing_json() -> None:
    info = artifact_from_json(
        {
            "id": 5,
            "name": "riverbed-memory",
            "expired": False,
            "created_at": "2026-03-01T10:00:00Z",
            "size_in_bytes": 321,
            "digest": "sha256:ab",
            "workflow_run": {"id": 9, "repository_id": 1, "head_repository_id": 2},
        }
    )
    assert (info.id, info.run_id, info.run_repository_id, info.head_repository_id) == (5, 9, 1, 2)
    assert info.created_at == datetime(2026, 3, 1, 10, tzinfo=UTC)
    assert info.digest == "sha256:ab"


def test_artifact_without_run_has_no_run_fields() -> None:
    info = artifact_from_json({"id": 5, "name": "x", "workflow_run": None})
    assert info.run_id is None and info.head_repository_id is None and not info.expired


def test_integrity_problem_names_digest_and_zip_failures() -> None:
    assert "not a complete zip" in str(integrity_problem(b"nope", None))
    assert "altered" in str(integrity_problem(b"nope", "sha256:" + "1" * 64))


def test_upcoming_expiries_sorted_and_only_active_future() -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)
    index = {
        "version": "1",
        "entries": [
            {"id": "late", "title": "Late", "expiresAt": "2027-01-01"},
            {"id": "soon", "title": "Soon", "expiresAt": "2026-06-02T00:00:00Z"},
            {"id": "past", "title": "Past", "expiresAt": "2026-01-01"},
            {"id": "gone", "title": "Gone", "expiresAt": "2026-09-01", "status": "archived"},
            {"id": "ctx", "title": "Ctx", "context": {"expiresAt": "2026-07-01"}},
            {"id": "bad", "title": "Bad", "expiresAt": "2026-02-30"},
        ],
    }
    assert [u.id for u in upcoming_expiries(index, now)] == ["soon", "ctx", "late"]


@given(st.text())
def test_summary_cells_escape_every_markup_character(text: str) -> None:
    escaped = inline(text, 10_000)
    assert "\n" not in escaped and "<" not in escaped and ">" not in escaped
    unescaped_pipe = escaped.replace("\\|", "")
    assert "|" not in unescaped_pipe


def test_summary_cell_examples() -> None:
    assert inline("a | b <script>*x*") == "a \\| b &lt;script&gt;\\*x\\*"
    assert inline("[link](http://x)") == "\\[link\\]\\(http\\://x\\)"
    assert code("a`b\nc") == "``a`b c``"


def test_neutralize_stops_workflow_commands_in_log_lines() -> None:
    text = "title\n::add-mask::x\n  ::set-output name=a::b"
    cleaned = neutralize(text)
    assert all(not line.lstrip().startswith("::") for line in cleaned.splitlines())
    assert neutralize("a :: b") == "a :: b"


def test_output_values() -> None:
    assert output_value(True) == "true" and output_value(False) == "false"
    assert output_value(3) == "3"
