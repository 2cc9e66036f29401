"""`status`, `tally` and `tally --public` kept with their analysis (kept_reports.py, issue 30):
a command with nothing new prints the kept report without a recount, byte for byte what a
recount prints (restamped to its own instant); anything new, or a deadline crossed, recounts."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

import forummod.service as service
from forummod.config import load_config
from forummod.kept_reports import kept_report, restamped
from forummod.report import now_stamped, status_report, tally_report
from forummod.service import Workspace, analyse, load_inputs

from tests.cli.test_live_game import SLOW, H, T0, at, cli, make_game
from tests.cli.village_game import T0 as V0, village_game

COMMANDS = (("status",), ("tally",), ("tally", "--public"))


@pytest.fixture
def recounts(monkeypatch):
    calls = []
    real = service._analyse_game
    monkeypatch.setattr(service, "_analyse_game", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    return calls


def forget(cfg) -> None:
    """Drop every kept report (the next command recounts)."""
    with Workspace(load_config(cfg)) as ws:
        for kind in ("status", "tally", "tally_public"):
            ws.store.remember("g", "kept_report:" + kind, None, T0)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("as_json", [True, False])
def test_a_second_command_prints_the_kept_report_exactly(tmp_path, capsys, recounts, command, as_json):
    cfg = make_game(tmp_path, SLOW)
    argv = (*command, "--config", cfg, *(("--json",) if as_json else ()))
    first = cli(capsys, *argv, "--now", at(T0 + 9 * H))
    assert len(recounts) == 1
    later = cli(capsys, *argv, "--now", at(T0 + 30 * H))  # nothing new, no deadline in between
    assert len(recounts) == 1 and later[0] == 0
    forget(cfg)
    assert cli(capsys, *argv, "--now", at(T0 + 30 * H)) == later and len(recounts) == 2
    if as_json:
        assert json.loads(later[1])["analysed_at"] == at(T0 + 30 * H) != json.loads(first[1])["analysed_at"]


def test_a_new_post_or_a_gm_event_recounts(tmp_path, capsys, recounts):
    cfg = make_game(tmp_path, SLOW)
    cli(capsys, "tally", "--config", cfg, "--now", at(T0 + 9 * H))
    from tests.archive_game import write_posts

    write_posts(tmp_path, SLOW + [("Gus", "[b]vote: Ann[/b]")], T0)
    assert cli(capsys, "poll", "--config", cfg)[0] == 0
    out = cli(capsys, "tally", "--config", cfg, "--now", at(T0 + 9 * H))[1]
    assert len(recounts) == 2 and "Ann (3)" in out
    assert cli(capsys, "gm", "--config", cfg, "--at", at(T0 + 9 * H), "set-vote", "Gus", "Bob")[0] == 0
    out = cli(capsys, "tally", "--config", cfg, "--now", at(T0 + 10 * H))[1]
    assert "Ann (2)" in out and len(recounts) >= 3


def test_a_crossed_deadline_recounts(tmp_path, capsys, recounts):
    cfg = make_game(tmp_path, SLOW)
    cli(capsys, "status", "--config", cfg, "--now", at(T0 + 9 * H))
    out = cli(capsys, "status", "--config", cfg, "--now", at(T0 + 73 * H))[1]
    assert len(recounts) == 2 and "lynch:D1" in out


def test_approve_all_and_at_are_never_kept(tmp_path, capsys, recounts):
    cfg = make_game(tmp_path, SLOW)
    for _ in range(2):
        cli(capsys, "tally", "--config", cfg, "--now", at(T0 + 9 * H), "--approve-all")
        cli(capsys, "tally", "--config", cfg, "--at", "5")
    assert len(recounts) == 4


def _sweep(ws, gid, start, end, step):
    """At each instant, the reports kept at the segment's start and restamped are the fresh ones."""
    inputs = load_inputs(ws, gid)
    now = start
    while now < end:
        a = analyse(inputs, now=now)
        kept = {"status": status_report(a), "tally": tally_report(a), "tally_public": tally_report(a, public=True)}
        until = min(a.changes_at or end, end)
        t = now + step
        while t < until:
            b = analyse(inputs, now=t)
            fresh = {"status": status_report(b), "tally": tally_report(b), "tally_public": tally_report(b, public=True)}
            for kind, rep in kept.items():
                flag = kind != "status" and now_stamped(a, public=kind == "tally_public")
                again = json.loads(json.dumps(restamped(rep, t, flag), default=str))
                assert again == json.loads(json.dumps(fresh[kind], default=str)), (kind, now, t)
            t += step
        now = until if until > now else now + step


def test_restamped_reports_equal_fresh_ones_over_a_day_and_a_night(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    with Workspace(load_config(cfg)) as ws:
        _sweep(ws, "g", T0, T0 + 100 * H, timedelta(hours=5, minutes=7))


def test_restamped_reports_equal_fresh_ones_while_a_village_vote_is_not_open_yet(tmp_path, capsys):
    """Village days open their vote 36 h after dawn: a count in progress the thread cannot see yet."""
    cfg = village_game(tmp_path, posts=[])
    with Workspace(load_config(cfg)) as ws:
        _sweep(ws, "village", V0, V0 + 90 * H, timedelta(hours=3, minutes=11))


def test_an_archive_at_its_own_instant(tmp_path, capsys, recounts):
    cfg = make_game(tmp_path, SLOW)
    first = cli(capsys, "status", "--config", cfg, "--json")
    second = cli(capsys, "status", "--config", cfg, "--json")
    assert first == second and len(recounts) == 1
    with Workspace(load_config(cfg)) as ws:
        assert kept_report(ws, "g", "status", None) is not None
