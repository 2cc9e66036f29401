"""A mafia-majority game run live through the CLI on the archive engine (issue 14): the fold
opens and closes phases (a hammer ends the day at its post), the GM moves the clock (extend,
end, start, pause, resume, end-game, undo), replacements take effect at their post, proposal
keys stay valid, and history is queryable (`tally --at`, `--approve-all`, `replay --save`)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from forummod.cli import main

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROLES = {"Ann": "mafia", "Gus": "mafia", "Cat": "cop"}
# D1: Eve's vote (post 5, T0+4h) is the fourth on Ann: a majority of 7; Fay votes after the hammer
HAMMER = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Ann[/b]"), ("Cat", "[b]vote: Ann[/b]"),
          ("Dan", "[b]vote: Ann[/b]"), ("Eve", "[b]vote: Ann[/b]"), ("Fay", "[b]vote: Ann[/b]"),
          ("Gus", "[b]vote: Bob[/b]")]
# D1 without a majority: Ann 2, Bob 1 until Dan's post 8 (Quinn is nobody)
SLOW = [("Mod", "Day 1 begins"), ("Bob", "[b]vote: Ann[/b]"), ("Cat", "[b]vote: Ann[/b]"),
        ("Dan", "hmm"), ("Eve", "[b]vote: Bob[/b]"), ("Fay", "[b]vote: Quinn[/b]"), ("Gus", "hello"),
        ("Dan", "[b]vote: Bob[/b]")]


def make_game(tmp_path, posts, *, options: str = "", tables: str = "", players=None):
    write_posts(tmp_path, posts, T0)
    cfg = tmp_path / "forummod.toml"
    game_lines = f"options = {{ {options} }}" if options else ""
    cfg.write_text(archive_config(tmp_path, players or players_toml(PLAYERS, ROLES), game_lines=game_lines,
                                  tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n' + tables),
                   encoding="utf-8")
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def cli(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def cli_json(capsys, *argv):
    rc, out, err = cli(capsys, *argv[:1], "--json", *argv[1:])
    assert rc in (0, 1), err
    return json.loads(out)


def at(t: datetime) -> str:
    return t.isoformat()


# --------------------------------------------------------------------------- items 0 and 1: the hammer


def test_a_hammer_ends_the_day_at_its_post_and_the_night_counts_from_there(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    c = ("--config", cfg)
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 6 * H))
    assert st["phase"] == "N1" and [p["key"] for p in st["pending"]] == ["lynch:D1"]
    assert st["phase_start_at"] == at(T0 + 4 * H)  # the hammer post, not the 72 h deadline
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 7 * H))
    assert st["phase"] == "N1" and [d["player"] for d in st["dead"]] == ["Ann"]
    assert st["phase_end_at"] == at(T0 + 28 * H)  # the night's 24 h counted from its real start
    text = cli(capsys, "status", *c, "--now", at(T0 + 7 * H))[1]
    assert f"N1: from {T0 + 4 * H:%Y-%m-%d %H:%M} UTC to {T0 + 28 * H:%Y-%m-%d %H:%M} UTC" in text  # real start and end
    rep = cli_json(capsys, "tally", *c, "--now", at(T0 + 7 * H))
    assert [r["voter"] for r in rep["rejected_votes"]] == ["Fay", "Gus"]  # after the hammer
    # the day-end draft announces the night from the hammer, not days later
    rc, out, _ = cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--print", "--now", at(T0 + 7 * H))
    assert rc == 0 and "Hammer!" in out and "Mon Mar 2 at 13:00" in out
    # the next deadline the daemon waits for is the night's, from the real start
    from forummod.config import load_config
    from forummod.scheduler import plan_jobs
    from forummod.service import Workspace, analyse_game

    with Workspace(load_config(cfg)) as ws:
        a = analyse_game(ws, "g", now=T0 + 7 * H)
        jobs = [j for j in plan_jobs(ws.cfg, {"g": a}, T0 + 7 * H) if j.kind == "deadline"]
    assert min(j.at for j in jobs) - (T0 + 28 * H) < timedelta(seconds=1)
    assert all(j.at > T0 + 28 * H - timedelta(seconds=1) for j in jobs)


def test_with_hammer_ends_day_off_the_day_runs_to_its_deadline(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER, options="hammer_ends_day = false")
    c = ("--config", cfg)
    cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 30 * H))
    assert st["phase"] == "D1" and st["phase_end_at"] == at(T0 + 72 * H)
    assert [d["player"] for d in st["dead"]] == ["Ann"]
    assert cli_json(capsys, "status", *c, "--now", at(T0 + 73 * H))["phase_start_at"] == at(T0 + 72 * H)


# --------------------------------------------------------------------------- item 2: the GM moves phases


def test_pause_and_resume_keep_the_time_left_and_undo_takes_a_move_back(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "pause")[0] == 0
    rc, _, err = cli(capsys, "gm", *c, "--at", at(T0 + 11 * H), "pause")
    assert rc == 2 and "already paused" in err
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 100 * H))
    assert st["phase"] == "D1" and st["paused_at"] == at(T0 + 10 * H)  # no deadline passed
    assert "PAUSED since" in cli(capsys, "status", *c, "--now", at(T0 + 100 * H))[1]
    cli(capsys, "gm", *c, "--at", at(T0 + 34 * H), "resume")  # 24 h of pause
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 35 * H))
    assert st["paused_at"] is None and st["phase_end_at"] == at(T0 + 96 * H)
    assert [e["summary"] for e in st["gm_events"]] == ["pause", "resume"]
    resume = st["gm_events"][-1]["id"]
    rc, out, _ = cli(capsys, "gm", *c, "undo", resume)
    assert rc == 0
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 35 * H))
    assert st["paused_at"] == at(T0 + 10 * H) and st["gm_events"][1]["undone_by"] is not None
    rc, _, err = cli(capsys, "gm", *c, "undo", resume)
    assert rc == 2 and "already undone" in err


def test_extend_moves_the_vote_close_alone_or_the_end(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "extend", "D1", "--close", at(T0 + 80 * H))
    rep = cli_json(capsys, "tally", *c, "--now", at(T0 + 11 * H))
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 11 * H))
    assert rep["vote_close_at"] == at(T0 + 80 * H) and st["phase_end_at"] == at(T0 + 80 * H)  # the end follows
    cli(capsys, "gm", *c, "--at", at(T0 + 12 * H), "extend", "D1", "--until", at(T0 + 90 * H),
        "--close", at(T0 + 85 * H))
    rep = cli_json(capsys, "tally", *c, "--now", at(T0 + 13 * H))
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 13 * H))
    assert rep["vote_close_at"] == at(T0 + 85 * H) and st["phase_end_at"] == at(T0 + 90 * H)
    rc, _, err = cli(capsys, "gm", *c, "extend", "D1")
    assert rc == 2 and "--until" in err
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 86 * H))
    assert st["phase"] == "D1" and [p["key"] for p in st["pending"]] == ["lynch:D1"]


def test_end_a_day_at_a_post_then_start_the_next_day_at_a_time(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "end", "D1", "--post", 7)[0] == 0
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 8 * H))
    assert st["phase"] == "N1" and st["phase_start_at"] == at(T0 + 6 * H)  # post 7 is at T0+6h
    assert st["pending"][0]["key"] == "lynch:D1" and st["pending"][0]["summary"] == "lynch Ann"  # Dan's post 8 is late
    cli(capsys, "gm", *c, "--at", at(T0 + 8 * H), "approve", "lynch:D1")
    assert cli(capsys, "gm", *c, "start", "D2", "--at", at(T0 + 12 * H))[0] == 0  # the night is cut short
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 13 * H))
    assert st["phase"] == "D2" and st["phase_start_at"] == at(T0 + 12 * H) and st["phase_end_at"] == at(T0 + 84 * H)
    assert [p["key"] for p in st["pending"]] == ["night:N1"]  # resolved when the night ended
    assert [e["summary"].split()[0] for e in st["gm_events"]] == ["end", "approve", "start"]
    rc, out, _ = cli(capsys, "status", *c, "--now", at(T0 + 13 * H))
    assert "gm #3" in out and "start D2 at" in out


def test_end_game_by_ruling_a_draw_or_named_winners(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    rc, _, err = cli(capsys, "gm", *c, "end-game", "--winners", "Zed")
    assert rc == 2 and "not a player" in err
    cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "end-game", "--draw", "--note", "the forum closed")
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 11 * H))
    assert st["game_over"] and st["result"] == "draw" and st["winners"] == []
    assert st["win_reason"] == "the forum closed"
    cli(capsys, "gm", *c, "undo", st["gm_events"][-1]["id"])
    cli(capsys, "gm", *c, "--at", at(T0 + 12 * H), "end-game", "--winners", "Bob", "Cat", "--result", "town")
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 13 * H))
    assert st["result"] == "town" and st["winners"] == ["Bob", "Cat"]


def test_undo_of_a_published_day_end_proposes_a_correction(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    cli(capsys, "gm", *c, "end", "D1", "--post", 7)
    cli(capsys, "gm", *c, "--at", at(T0 + 7 * H), "approve", "lynch:D1")
    rc, out, _ = cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--now", at(T0 + 7 * H))
    did = int(out.split()[1].rstrip(":"))
    assert cli(capsys, "publish", *c, did)[0] == 0
    end = cli_json(capsys, "status", *c, "--now", at(T0 + 7 * H))["gm_events"][0]["id"]
    rep = cli_json(capsys, "gm", "--config", cfg, "--at", at(T0 + 7 * H), "undo", end)
    assert [(x["kind"], x["phase"], x["published"]) for x in rep["corrections"]] == [("day_end", "D1", did)]
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 8 * H))
    assert st["phase"] == "D1" and st["dead"] == []  # the day goes on; the approval finds no proposal
    from forummod.config import load_config
    from forummod.store import Store

    with Store(load_config(cfg).workspace.store_path()) as store:
        fix = [r for r in store.drafts("g") if r.title.startswith("Correction")]
    assert len(fix) == 1 and fix[0].status == "draft" and fix[0].kind == "day_end"


# --------------------------------------------------------------------------- item 3: replacements in time

REPL = SLOW + [("Mod", "Zed replaces Dan"), ("Zed", "[b]vote: Ann[/b]"), ("Eve", "[b]vote: Ann[/b]")]


def counts(rep) -> dict:
    return {c["name"]: [v["voter"] for v in c["voters"]] for c in rep["tally"]["candidates"]}


def test_gm_replace_at_a_post_equals_the_config_entry_and_keeps_earlier_counts(tmp_path, capsys):
    by_gm = make_game(tmp_path / "gm", REPL) if (tmp_path / "gm").mkdir() is None else None
    before = cli_json(capsys, "tally", "--config", by_gm, "--at", 9)
    assert counts(before) == {"Bob": ["Eve", "Dan"], "Ann": ["Bob", "Cat"]}
    assert cli(capsys, "gm", "--config", by_gm, "replace", "Dan", "Zed", "--post", 9)[0] == 0
    rc, _, err = cli(capsys, "gm", "--config", by_gm, "replace", "Dan", "Zed", "--post", 9)
    assert rc == 2 and "already replaced" in err
    assert cli_json(capsys, "tally", "--config", by_gm, "--at", 9) == before  # unchanged by a later replacement
    (tmp_path / "cfg").mkdir()
    seats = players_toml([p if p != "Dan" else "Zed" for p in PLAYERS], ROLES,
                         {"Zed": 'replaces = [{ name = "Dan", at_post = 9 }]'})
    by_cfg = make_game(tmp_path / "cfg", REPL, players=seats)
    for point in (5, 9, 10, 11):
        gm_rep = cli_json(capsys, "tally", "--config", by_gm, "--at", point)
        cfg_rep = cli_json(capsys, "tally", "--config", by_cfg, "--at", point)
        assert counts(gm_rep) == counts(cfg_rep) and gm_rep["tally"]["not_voting"] == cfg_rep["tally"]["not_voting"]
    after = cli_json(capsys, "tally", "--config", by_gm, "--at", 11)
    assert counts(after) == {"Ann": ["Bob", "Cat", "Zed"], "Bob": ["Eve"]}  # the seat's vote moved under Zed
    assert after["seats"] == [{"holder": "Zed", "replaced": ["Dan"]}] and before["seats"] == []
    assert "seat: Zed (replacing Dan)" in cli(capsys, "tally", "--config", by_gm, "--at", 11)[1]
    assert "Dan" in cli_json(capsys, "tally", "--config", by_gm, "--at", 8)["tally"]["not_voting"]
    assert cli_json(capsys, "status", "--config", by_gm)["alive"] == ["Ann", "Bob", "Cat", "Zed", "Eve", "Fay", "Gus"]
    # at a time: Rex takes Fay's seat at T0+9.5h, between post 10 (T0+9h) and post 11 (T0+10h)
    assert cli(capsys, "gm", "--config", by_gm, "replace", "Fay", "Rex", "--at", at(T0 + 9.5 * H))[0] == 0
    assert "Fay" in cli_json(capsys, "tally", "--config", by_gm, "--at", 10)["tally"]["not_voting"]
    later = cli_json(capsys, "tally", "--config", by_gm, "--at", 11)["tally"]["not_voting"]
    assert "Rex" in later and "Fay" not in later


# --------------------------------------------------------------------------- item 6: history without ceremony


def test_tally_at_a_post_uses_pins_on_later_posts_and_only_earlier_issues(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW, tables='[[games.g.phases]]\nname = "D1"\nend_post = 7\n')
    rep = cli_json(capsys, "tally", "--config", cfg, "--at", 5)
    assert rep["phase"] == "D1" and rep["vote_close_at"] == at(T0 + 6 * H)  # post 7, not the 72 h default
    assert not any("Quinn" in i["message"] for i in rep["issues"])  # post 6 comes later
    rep = cli_json(capsys, "tally", "--config", cfg, "--at", 7)
    assert rep["phase"] == "D1" and any("Quinn" in i["message"] for i in rep["issues"])


def test_tally_check_and_draft_take_approve_all(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    c = ("--config", cfg, "--now", at(T0 + 30 * H))
    rep = cli_json(capsys, "tally", *c, "--approve-all")
    assert rep["phase"] == "D2" and rep["tally"]["living"] == 6  # Ann's lynch approved
    assert cli_json(capsys, "tally", *c)["tally"]["living"] == 7  # not in the log: still waiting
    rc, out, _ = cli(capsys, "draft", "--config", cfg, "--now", at(T0 + 30 * H), "day_start", "--approve-all",
                     "--print")
    assert rc == 0 and "Day 2" in out
    assert cli(capsys, "check", *c, "--approve-all")[0] in (0, 1)


def test_replay_save_records_its_approvals_as_undoable_decisions(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    rc, out, _ = cli(capsys, "replay", cfg, "--approve-all", "--save", "--now", at(T0 + 30 * H))
    assert rc == 0 and "saved 2 approvals" in out
    st = cli_json(capsys, "status", "--config", cfg, "--now", at(T0 + 30 * H))
    assert st["phase"] == "D2" and st["pending"] == []
    assert [(e["actor"], e["summary"]) for e in st["gm_events"]] == [("replay", "approve lynch:D1"),
                                                                      ("replay", "approve night:N1")]
    cli(capsys, "gm", "--config", cfg, "undo", st["gm_events"][1]["id"])
    st = cli_json(capsys, "status", "--config", cfg, "--now", at(T0 + 30 * H))
    assert [p["key"] for p in st["pending"]] == ["night:N1"]
    rc, out, _ = cli(capsys, "replay", cfg, "--approve-all", "--save", "--now", at(T0 + 30 * H))
    assert "saved 1 approvals" in out  # only what the log does not decide already


# --------------------------------------------------------------------------- item 4: stable proposal keys


def test_a_key_status_prints_stays_valid_after_another_approval(tmp_path, capsys):
    """Village day powers are keyed by the event that raised them: approving the night before
    must not renumber the Confessor's pending proposal (it used to move from #N to #N+1)."""
    seats = [f"P{i}" for i in range(1, 9)]
    roles = {**{p: "villager" for p in seats}, "P5": "werewolf", "P6": "werewolf"}
    write_posts(tmp_path, [("Mod", "Night 1 falls"), ("P2", "hello"), ("P3", "hi")], T0)
    cfg = tmp_path / "forummod.toml"
    text = archive_config(tmp_path, players_toml(seats, roles, {"P1": 'building = "church"'}),
                          tables=f'[games.g.schedule]\nstart = "{T0.isoformat()}"\n')
    cfg.write_text(text.replace('ruleset = "mafia-majority"', 'ruleset = "village"'), encoding="utf-8")
    c = ("--config", cfg)
    assert main(["poll", *map(str, c)]) == 0
    cli(capsys, "gm", *c, "--at", at(T0 + 3 * H), "action", "P5", "kill", "P7")
    cli(capsys, "gm", *c, "--at", at(T0 + 31 * H), "action", "P1", "confess", "P6")
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 32 * H))
    key = next(p["key"] for p in st["pending"] if p["key"].startswith("confess:P1:"))
    # the GM records the night's approval at the time it was decided, before the confession
    assert cli(capsys, "gm", *c, "--at", at(T0 + 30 * H), "approve", "nightfall:N1")[0] == 0
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 32 * H))
    assert key in [p["key"] for p in st["pending"]]
    assert cli(capsys, "gm", *c, "--at", at(T0 + 32 * H), "approve", key)[0] == 0
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 33 * H))
    assert key in [d["key"] for d in st["decided"] if d["status"] == "approved"]


def test_an_extension_recorded_as_of_before_a_passed_deadline_reopens_the_vote(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW, tables='vote_close = "6h"\nday_end = "6h"\n')
    c = ("--config", cfg)
    # Dan's vote (post 8, T0+7h) came after the 6 h close
    assert cli_json(capsys, "tally", *c, "--now", at(T0 + 8 * H))["rejected_votes"][0]["voter"] == "Dan"
    cli(capsys, "gm", *c, "--at", at(T0 + 8 * H), "extend", "D1", "--until", at(T0 + 12 * H))
    assert cli_json(capsys, "status", *c, "--now", at(T0 + 9 * H))["phase"] == "N1"  # too late: the day is over
    undo = cli_json(capsys, "status", *c, "--now", at(T0 + 9 * H))["gm_events"][0]["id"]
    cli(capsys, "gm", *c, "undo", undo)
    cli(capsys, "gm", *c, "--at", at(T0 + 5 * H), "extend", "D1", "--until", at(T0 + 12 * H))
    rep = cli_json(capsys, "tally", *c, "--now", at(T0 + 9 * H))
    assert rep["phase"] == "D1" and rep["rejected_votes"] == [] and counts(rep)["Bob"] == ["Eve", "Dan"]


def test_tally_at_after_a_post_counts_it_also_after_the_last_post(tmp_path, capsys):
    """Issue 28, item 10: `--at N` is the count before post N; the count after the last post is
    asked as `--at after N`, `N+` or one past the last number."""
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    before_last = counts(cli_json(capsys, "tally", *c, "--at", 8))
    assert before_last == {"Ann": ["Bob", "Cat"], "Bob": ["Eve"]}
    after_last = {"Ann": ["Bob", "Cat"], "Bob": ["Eve", "Dan"]}  # Dan's vote in the last post, 8
    for spelled in ("after 8", "8+", "9", "AFTER:8"):
        assert counts(cli_json(capsys, "tally", *c, "--at", spelled)) == after_last, spelled
    assert counts(cli_json(capsys, "tally", *c, "--at", "after 7")) == before_last  # = before post 8
    rc, _, err = cli(capsys, "tally", *c, "--at", 10)
    assert rc == 2 and "the last is 8: '--at after 8' or '--at 9'" in err


# D2 after the D1 hammer on Ann (approved) and a night without actions: a hammer on Gus at post 12
D2_HAMMER = HAMMER + [("Mod", "Day 2 begins"), ("Bob", "[b]vote: Gus[/b]"), ("Cat", "[b]vote: Gus[/b]"),
                      ("Dan", "[b]vote: Gus[/b]"), ("Eve", "[b]vote: Gus[/b]")]


def test_after_a_rejected_d2_lynch_draft_day_end_never_remakes_d1_and_a_second_day_end_is_warned(tmp_path, capsys):
    """Issue 28, item 10: `draft day_end` after a rejected D2 lynch re-made D1's day-end, and
    nothing warned before a second day-end of a day."""
    cfg = make_game(tmp_path, D2_HAMMER)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    rc, out, err = cli(capsys, "draft", *c, "day_end", "--now", at(T0 + 6 * H))
    d1 = int(out.split()[1].rstrip(":"))
    assert rc == 0 and " D1 " in out and "warning" not in err
    assert cli(capsys, "publish", *c, d1)[0] == 0
    assert cli(capsys, "gm", *c, "start", "D2", "--post", 8)[0] == 0
    assert cli(capsys, "gm", *c, "--at", at(T0 + 8 * H), "approve", "night:N1")[0] == 0  # nobody died
    st = cli_json(capsys, "status", *c, "--now", at(T0 + 12 * H))
    assert [p["key"] for p in st["pending"]] == ["lynch:D2"]
    assert cli(capsys, "gm", *c, "--at", at(T0 + 12 * H), "reject", "lynch:D2")[0] == 0
    rc, out, err = cli(capsys, "draft", *c, "day_end", "--now", at(T0 + 13 * H))
    assert " D1 " not in out and "End of Day 1" not in out  # D2's, or nothing: never D1's again
    rc, out, err = cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--now", at(T0 + 13 * H))
    again = int(out.split()[1].rstrip(":"))
    assert f"a day_end of D1 was already published (draft {d1}" in err and f"forummod discard {again}" in err
    rc, _, err = cli(capsys, "publish", *c, again, "--dry-run")
    assert rc == 0 and "already published" in err


def test_a_replacements_role_pm_speaks_of_now_and_stays_fresh_while_nothing_changes(tmp_path, capsys):
    """Issue 28, item 10: a replacement's role PM spoke of the game's opening (Day 1 and its
    deadline, moved by the hammer), stale as soon as it was drafted; it names the seat's earlier
    holder and the phase the game is in."""
    cfg = make_game(tmp_path, HAMMER)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "replace", "Dan", "Zed", "--post", 7)[0] == 0
    rc, out, _ = cli(capsys, "draft", *c, "role_pm", "--to", "Zed", "--print", "--now", at(T0 + 7 * H))
    assert rc == 0 and "[fresh]" in out and "The game opens with" not in out
    assert "You take over the seat of Dan. The game is in Night 1; the next deadline is" in out
    did = int(out.split()[1].rstrip(":"))
    row = next(r for r in cli_json(capsys, "drafts", *c)["drafts"] if r["id"] == did)
    assert row["draft_state"]["state"] == "fresh" and row["past"] is None
