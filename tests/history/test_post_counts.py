"""Post counts per phase (issue 32, item 3): in `status` (text and JSON) and, when the game asks
for them, in the vote count post; off by default, so every other draft stays as it was."""

from __future__ import annotations

import json

from forummod.checks.context import CheckContext
from forummod.checks.phase_posts import posts_per_phase
from forummod.cli import main
from forummod.drafting import draft_now
from forummod.service import analyse_game

from tests.render.game import at, day_one


def game_over_two_phases(tmp_path, options: str = ""):
    """D1 (hours 0-48) with the day-one votes, then N1 (48-60) with two posts of Bob, and a post of
    Bob and Cat at hour 61 (D2)."""
    g = day_one(tmp_path)
    g.options = options
    g.post("Bob", 50, "a night post").post("Bob", 51, "another").post("Bob", 61, "day two").post("Cat", 61.5, "hi")
    g.now = at(62)
    return g


def test_posts_are_counted_in_the_phase_their_time_falls_in(tmp_path):
    ws = game_over_two_phases(tmp_path).workspace()
    a = analyse_game(ws, "g", now=at(62), approve_all=True)
    t = posts_per_phase(CheckContext.from_analysis(a))
    assert t.phases == ("D1", "N1", "D2")
    bob, cat = t.of("Bob"), t.of("Cat")
    assert (bob.counts, bob.total) == ((1, 2, 1), 4)
    assert (cat.counts, cat.total) == ((1, 0, 1), 2)
    assert t.of("Mod") is None  # the GM is not a seat
    ws.close()


def test_status_prints_the_grid_and_its_json_holds_every_phase(tmp_path, capsys):
    g = game_over_two_phases(tmp_path)
    g.workspace().close()
    cfg = str(tmp_path / "forummod.toml")
    capsys.readouterr()
    assert main(["status", "--config", cfg, "--now", at(62).isoformat(), "--approve-all"]) == 0
    text = capsys.readouterr().out
    assert "  posts per phase:" in text
    bob = next(line for line in text.splitlines() if line.strip().startswith("Bob "))
    assert bob.split() == ["Bob", "1", "2", "1", "4"]
    assert main(["status", "--config", cfg, "--now", at(62).isoformat(), "--approve-all", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["posts_per_phase"]["players"]
    assert next(r for r in rows if r["player"] == "Bob")["per_phase"] == {"D1": 1, "N1": 2, "D2": 1}


def test_the_vote_count_lists_post_counts_only_when_the_game_asks(tmp_path):
    (tmp_path / "plain").mkdir()
    plain = day_one(tmp_path / "plain")
    plain.now = at(6)
    ws = plain.workspace()
    body = draft_now(ws, "g", "votecount", store=False)[0][2]
    assert "Posts in" not in body
    ws.close()
    (tmp_path / "on").mkdir()
    on = day_one(tmp_path / "on")
    on.options = "[games.g.drafts]\npost_counts = true\n"
    on.now = at(6)
    ws = on.workspace()
    body = draft_now(ws, "g", "votecount", store=False)[0][2]
    line = next(x for x in body.splitlines() if x.startswith("[b]Posts in"))
    assert line.startswith("[b]Posts in Day 1 (in the game):[/b] Ann 0 (0), Bob 1 (1), Cat 1 (1)")
    ws.close()
