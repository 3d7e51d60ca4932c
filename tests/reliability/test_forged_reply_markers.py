"""An outsider cannot plant `riverbed:reply` markers in the bot's replies to silence later ones.

A bad command line is echoed in the bot's error reply. Before issue 14 the echo was a code
span that kept `<!-- … -->` as is, and markers were honoured anywhere in a bot body, so the
echo could claim "already answered" for the maintainer's next comment ids.
"""

from __future__ import annotations

import reliability_support as support
from comment_bench import Bench

from riverbed.comments.reply_marker import replied_comment_ids


def test_echoed_markers_are_escaped_and_not_honoured(bench: Bench) -> None:
    upcoming = range(bench.gh.new_id() + 1, bench.gh.new_id() + 200)
    forged = " ".join(f'<!-- riverbed:reply {{"comment": {n}}} -->' for n in upcoming)
    outsider = bench.comment(f"/riverbed bogus {forged}"[:1900], user="outsider")
    (echo,) = outsider.replies
    assert "<!-- riverbed:reply" not in echo.split("\n", 1)[1], "the echo carries no raw marker"
    assert len(replied_comment_ids(echo)) == 1  # its own marker only
    maintainer = bench.comment('/riverbed archive p1 --reason "gone"')
    assert maintainer.outputs["upload"] == "true"
    (answer,) = maintainer.replies
    assert "1 of 1 command done" in answer
    support.count("hostile comments refused: forged reply markers")


def test_a_marker_later_in_a_bot_body_is_not_ours() -> None:
    body = 'intro\n<!-- riverbed:reply {"comment": 5} -->'
    assert replied_comment_ids(body) == set()
    assert replied_comment_ids('<!-- riverbed:reply {"comment": 5} -->\nrest') == {5}
