"""Posted Markdown rendered for the demo's terminal: what GitHub shows, not what was sent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from riverbed.demo.terminal import for_terminal
from riverbed.text import escape_markdown


def test_escapes_entities_and_markers_are_undone() -> None:
    posted = (
        '<!-- riverbed:reply {"comment": 7} -->\n'
        "**riverbed** — 1 of 1 command done for @&#8203;maria.\n\n"
        "| 1 | `suppress` | ✅ suppressed \\`shop\\.signals\\` \\(F401\\) |\n\n"
        '<sub>reply <code>/riverbed suppress &lt;fingerprint&gt; --reason "…"</code></sub>'
    )
    assert for_terminal(posted) == (
        "**riverbed** — 1 of 1 command done for @maria.\n\n"
        "| 1 | `suppress` | ✅ suppressed `shop.signals` (F401) |\n\n"
        'reply `/riverbed suppress <fingerprint> --reason "…"`'
    )


def test_code_spans_stay_literal() -> None:
    assert for_terminal("run `a\\.b &amp; c` now\\.") == "run `a\\.b &amp; c` now."


@given(
    st.text(
        alphabet=st.characters(codec="ascii", exclude_categories=("Cc",)) | st.sampled_from("éß→…")
    )
)
def test_rendering_undoes_riverbeds_own_escaping(text: str) -> None:
    assert for_terminal(escape_markdown(text)) == text.strip("\n")
