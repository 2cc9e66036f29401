"""An old game without phase pins stops at its last activity (issue 14, item 9): after two phase
lengths of silence `status` says `stalled since T` and no later phase exists (no "D200")."""

import json
from datetime import datetime, timedelta, timezone

from forummod.cli import main
from forummod.engine.stall import stall
from forummod.engine.types import Phase, PhaseId

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)


def _game(tmp_path):
    write_posts(tmp_path, [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Eve[/b]")], T0)
    cfg = tmp_path / "forummod.toml"
    cfg.write_text(archive_config(tmp_path, players_toml(["Ann", "Bob", "Cat", "Dan", "Eve"], {"Ann": "mafia"})),
                   encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def _status(capsys, cfg, now, *extra):
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--now", now.isoformat(), *extra]) == 0
    return capsys.readouterr().out


def test_a_silent_game_is_stalled_and_stops_generating_phases(tmp_path, capsys):
    cfg = _game(tmp_path)
    last_post = T0 + 2 * H
    rep = json.loads(_status(capsys, cfg, T0 + timedelta(days=300), "--json"))
    assert rep["stalled_at"] == last_post.isoformat()
    day = int(rep["phase"][1:])
    assert rep["phase"][0] in "DN" and day <= 3  # two 48 h days of silence, not "D150"
    text = _status(capsys, cfg, T0 + timedelta(days=300))
    assert f"stalled since {last_post:%Y-%m-%d %H:%M} UTC" in text.splitlines()[0]  # readable, not ISO


def test_a_game_with_recent_posts_is_not_stalled(tmp_path, capsys):
    cfg = _game(tmp_path)
    rep = json.loads(_status(capsys, cfg, T0 + 30 * H, "--json"))
    assert rep["stalled_at"] is None and rep["phase"] == "D1"


def test_stall_is_two_of_the_longest_phase_lengths_after_the_last_activity():
    phases = (Phase(PhaseId(1, "day"), T0, T0 + 48 * H), Phase(PhaseId(1, "night"), T0 + 48 * H, T0 + 72 * H))
    assert stall(phases, T0, T0 + 96 * H) is None
    s = stall(phases, T0, T0 + 97 * H)
    assert (s.since, s.cutoff) == (T0, T0 + 96 * H)
    assert stall(phases, None, T0 + timedelta(days=99)) is None  # nothing posted yet: not stalled


def test_draft_all_of_a_stalled_game_drafts_no_far_future_day(tmp_path, capsys):
    cfg = _game(tmp_path)
    capsys.readouterr()
    assert main(["draft", "all", "--config", str(cfg), "--now", (T0 + timedelta(days=300)).isoformat()]) == 0
    out = capsys.readouterr().out
    phases = {w[1:] for w in out.split() if w[:1] in "DN" and w[1:].isdigit()}
    assert phases and max(int(n) for n in phases) <= 3, out
