"""The daemon's plan is pure: a poll job per active game, a job at every deadline, reminders
before them and at activity-block closes; nothing for finished games."""

from datetime import timedelta

from forummod.config import load_config
from forummod.scheduler import AFTER, plan_jobs
from forummod.service import Workspace, analyse_game, poll_game

from tests.scheduler.conftest import T0, write_config


def analysed(cfg_path, now):
    cfg = load_config(cfg_path)
    with Workspace(cfg, clock=lambda: now) as ws:
        poll_game(ws, "g1")
        return cfg, {"g1": analyse_game(ws, "g1", now=now)}


def test_plan_has_a_poll_job_and_a_job_just_after_each_upcoming_deadline(archived_game):
    now = T0 + timedelta(hours=3)
    cfg, analyses = analysed(archived_game, now)
    jobs = {j.id: j for j in plan_jobs(cfg, analyses, now)}
    assert jobs["poll:g1"].every_s == 60
    deadlines = [j for j in jobs.values() if j.kind == "deadline"]
    close = T0 + timedelta(hours=72)
    assert any(j.at == close + AFTER and "vote close D1" in j.why for j in deadlines)
    assert all(j.at > now for j in deadlines)


def test_reminder_comes_the_configured_time_before_a_deadline(tmp_path):
    from tests.scheduler.conftest import write_archive

    write_archive(tmp_path, [("Mod", "start", T0)])
    cfg_path = write_config(tmp_path, extra='reminder_before = "2h"')
    now = T0 + timedelta(hours=1)
    cfg, analyses = analysed(cfg_path, now)
    reminders = [j for j in plan_jobs(cfg, analyses, now) if j.kind == "reminder"]
    assert any(j.at == T0 + timedelta(hours=70) for j in reminders)


def test_a_finished_game_only_keeps_its_poll_job(tmp_path):
    from tests.scheduler.conftest import write_archive

    posts = [("Mod", "start", T0)] + [(v, "[b]vote: Ann[/b]", T0 + timedelta(minutes=10 + i))
                                     for i, v in enumerate(["Bob", "Cat", "Dan"])]
    write_archive(tmp_path, posts)
    cfg_path = write_config(tmp_path)
    now = T0 + timedelta(hours=1)
    cfg, analyses = analysed(cfg_path, now)
    from dataclasses import replace

    from forummod.service import analyse

    a = analyses["g1"]
    done = analyse(a.inputs, now=now, approve_all=True)
    assert done.run.state.outcome is not None
    jobs = plan_jobs(cfg, {"g1": done}, now)
    assert [j.kind for j in jobs] == ["poll"]


def test_inactive_games_get_no_jobs(tmp_path):
    from tests.scheduler.conftest import write_archive

    write_archive(tmp_path, [("Mod", "start", T0)])
    cfg_path = write_config(tmp_path)
    text = cfg_path.read_text().replace('poll_interval = "60s"', 'poll_interval = "60s"\nactive = false')
    cfg_path.write_text(text)
    cfg, analyses = analysed(cfg_path, T0)
    assert plan_jobs(cfg, analyses, T0) == []
