"""`forummod drafts` lists the drafts in the order of the console and the preview page, the
README's "what you do next" (issue 28, items 8 and 11)."""

from __future__ import annotations

from tests.cli.test_live_game import HAMMER, H, T0, at, cli, cli_json, make_game


def test_drafts_lists_what_to_send_now_first_in_the_consoles_order(tmp_path, capsys):
    """Issue 28, items 8 and 11: `drafts` lists as the console and the preview show them: at night
    the closing post of the day just ended is on top (never folded as "earlier"), the day's
    count of the past after it, with why."""
    cfg = make_game(tmp_path, HAMMER)
    c = ("--config", cfg)
    assert cli(capsys, "draft", *c, "votecount", "--phase", "D1", "--now", at(T0 + 5 * H))[0] == 0
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    assert cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--now", at(T0 + 7 * H))[0] == 0
    rows = cli_json(capsys, "drafts", *c)["drafts"]
    assert [(r["kind"], r["phase"], r["past"]) for r in rows] == [
        ("day_end", "D1", None), ("votecount", "D1", "of D1; the game is in N1 now")]
    text = cli(capsys, "drafts", *c)[1]
    assert text.index("day_end") < text.index("votecount") and "earlier: of D1; the game is in N1 now" in text
