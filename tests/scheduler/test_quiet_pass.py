"""A pass with nothing new is answered from the last full pass's note (quiet_pass.py, issue 30),
in a fresh workspace each time as cron runs it, and is exactly what a full pass would report and
do: a full pass in its place changes nothing on the desk and reports the same. Anything new — a
post, the GM's edit of a draft, a GM event, a crossed deadline, a failed poll, another publish
choice — makes the next pass a full one."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

import forummod.service as service
from forummod.cli import main
from forummod.config import load_config
from forummod.pipeline import game_pass
from forummod.quiet_pass import KEY
from forummod.service import Workspace

from tests.scheduler.conftest import T0, write_archive, write_config

H = timedelta(hours=1)
POSTS = [("Mod", "Day 1 begins", T0), ("Bob", "[b]vote: Eve[/b]", T0 + H), ("Cat", "[b]vote: Eve[/b]", T0 + 2 * H)]


@pytest.fixture
def game(tmp_path, monkeypatch):
    write_archive(tmp_path, list(POSTS))
    cfg = write_config(tmp_path)
    recounts = []
    real = service._analyse_game
    monkeypatch.setattr(service, "_analyse_game", lambda *a, **kw: recounts.append(1) or real(*a, **kw))
    return cfg, recounts


def run(cfg, at: datetime, **kw):
    """One pass in a fresh workspace (a cron tick's process), at `at`."""
    with Workspace(load_config(cfg), clock=lambda: at) as ws:
        return game_pass(ws, "g1", log_line=False, **kw)


def desk(cfg) -> tuple:
    with Workspace(load_config(cfg)) as ws:
        s = ws.store
        return (s.desk_state("g1"), [(d.id, d.body) for d in s.drafts("g1")],
                sorted((k, v["state"]) for k, v in s.alert_deliveries("g1").items()))


def fields(r) -> tuple:
    return (r.phase, r.votes_changed, r.new_findings, r.findings, r.drafts_changed, r.published, r.pending,
            r.game_over, r.alerts, r.alert_failures, r.error)


def full(cfg, at: datetime, **kw):
    """The pass a full recount makes at `at` (the note set aside)."""
    with Workspace(load_config(cfg), clock=lambda: at) as ws:
        ws.store.remember("g1", KEY, None, at)
        return game_pass(ws, "g1", log_line=False, **kw)


def test_a_second_pass_with_nothing_new_recounts_nothing_and_equals_a_full_pass(game):
    cfg, recounts = game
    first = run(cfg, T0 + 3 * H)
    assert len(recounts) == 1 and first.drafts_changed  # the first pass drafts the count
    before = desk(cfg)
    quiet = run(cfg, T0 + 5 * H)
    assert len(recounts) == 1  # answered from the note: no recount
    assert quiet.findings == first.findings and quiet.phase == "D1" and quiet.drafts_changed == first.drafts_changed
    assert desk(cfg) == before
    again = full(cfg, T0 + 5 * H)
    assert len(recounts) == 2
    assert fields(again) == fields(quiet) and desk(cfg) == before  # the full pass did nothing more


def test_a_new_post_makes_a_full_pass(game):
    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    write_archive(cfg.parent, POSTS + [("Dan", "[b]vote: Eve[/b]", T0 + 4 * H)])
    r = run(cfg, T0 + 5 * H)
    assert len(recounts) == 2 and r.votes_changed and r.drafts_changed
    assert len(recounts) == 2 and run(cfg, T0 + 6 * H).votes_changed is False and len(recounts) == 2


def test_the_gms_edit_of_a_draft_makes_a_full_pass(game):
    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    with Workspace(load_config(cfg)) as ws:
        d = ws.store.drafts("g1", status="draft")[0]
        ws.store.edit_draft(d.id, d.body + "\nGood luck!", T0 + 3 * H)
    run(cfg, T0 + 4 * H)
    assert len(recounts) == 2
    run(cfg, T0 + 5 * H)
    assert len(recounts) == 2  # settled again


def test_a_gm_event_makes_a_full_pass(game):
    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    assert main(["gm", "--config", str(cfg), "--at", (T0 + 3 * H).isoformat(), "extend", "D1", "--until",
                 (T0 + 100 * H).isoformat()]) == 0
    run(cfg, T0 + 4 * H)
    assert len(recounts) == 2


def test_a_crossed_deadline_makes_a_full_pass_and_it_equals_the_one_made_there(game):
    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    later = run(cfg, T0 + 80 * H)  # day 1 closes at 72 h
    assert len(recounts) == 2 and later.phase == "N1" and later.pending == ("lynch:D1",)
    quiet = run(cfg, T0 + 81 * H)
    assert len(recounts) == 2 and fields(quiet)[:1] == ("N1",) and quiet.pending == ("lynch:D1",)


def test_a_failed_poll_is_never_answered_from_the_note(game):
    from forummod.quiet_pass import unchanged_since
    from forummod.service import PollReport

    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    with Workspace(load_config(cfg)) as ws:
        assert unchanged_since(ws, "g1", PollReport("g1"), T0 + 4 * H, publish=True) is not None
        assert unchanged_since(ws, "g1", PollReport("g1", error="HTTP 503"), T0 + 4 * H, publish=True) is None
    (cfg.parent / "posts.jsonl").write_text('{"id": 1, "author": "X"\n', encoding="utf-8")  # a broken archive
    r = run(cfg, T0 + 4 * H)
    assert not r.ok and "not valid JSON" in r.error


def test_another_publish_choice_makes_a_full_pass(game):
    cfg, recounts = game
    run(cfg, T0 + 3 * H)
    run(cfg, T0 + 4 * H, publish=False)
    assert len(recounts) == 2


def test_a_game_that_auto_publishes_its_count_leaves_no_note_while_a_draft_waits(tmp_path, monkeypatch):
    write_archive(tmp_path, list(POSTS))
    cfg = write_config(tmp_path, extra='[games.g1.publish]\nauto = ["votecount"]\n')
    with Workspace(load_config(cfg), clock=lambda: T0 + 3 * H) as ws:
        ws.store.remember("g1", KEY, None, T0)
        game_pass(ws, "g1", log_line=False, publish=False)  # drafted, not published: it waits
        assert ws.store.snapshot("g1", KEY) is None


def test_cron_ticks_in_fresh_processes_print_the_same_and_the_second_recounts_nothing(tmp_path, capsys, monkeypatch):
    start = datetime.now(timezone.utc) - 2 * H
    write_archive(tmp_path, [("Mod", "Day 1", start), ("Bob", "[b]vote: Eve[/b]", start + timedelta(minutes=5))])
    cfg = write_config(tmp_path, start=start)
    recounts = []
    real = service._analyse_game
    monkeypatch.setattr(service, "_analyse_game", lambda *a, **kw: recounts.append(1) or real(*a, **kw))

    def tick() -> dict:
        capsys.readouterr()
        assert main(["tick", "--config", str(cfg), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)["passes"][0]
        out.pop("seconds")
        return out

    first = tick()
    second = tick()
    assert len(recounts) == 1
    assert first.pop("poll")["new_posts"] == 2 and second.pop("poll")["new_posts"] == 0
    assert second == dict(first, needs_gm=False, votes_changed=False, new_findings=0, new=[])
