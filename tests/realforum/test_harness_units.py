"""The harness's own machinery, offline: cache stamps, pruning, server stop and start failures,
Spirit's page dates."""

from __future__ import annotations

import fcntl
import sys
import time
from datetime import datetime, timezone

import pytest

from . import harness
from .spirit_engine import parse_page_time


def test_half_finished_build_is_redone_and_a_finished_one_reused(tmp_path):
    folder = tmp_path / "engine-1.0-abc"
    calls = []

    def crash(f):
        (f / "venv").mkdir()
        calls.append("crash")
        raise RuntimeError("killed half-way")

    def build(f):
        assert not (f / "venv").exists()  # the half-finished folder was removed first
        calls.append("build")
        return {"python": "3.12"}

    with pytest.raises(RuntimeError):
        harness.build_once(folder, ".installed", crash)
    assert harness.stamped(folder, ".installed") is None
    data, built = harness.build_once(folder, ".installed", build)
    assert built and data["python"] == "3.12" and "seconds" in data
    data, built = harness.build_once(folder, ".installed", build)
    assert not built and calls == ["crash", "build"]


def test_prune_keeps_the_current_and_the_in_use_folders(tmp_path):
    for name in ("e-1", "e-2", "e-3"):
        (tmp_path / name).mkdir()
    with open(tmp_path / "e-2" / ".inuse", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_SH)
        harness.prune_unused(tmp_path, "e-*", keep=tmp_path / "e-3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["e-2", "e-3"]


def test_content_key_follows_file_content(tmp_path):
    f = tmp_path / "constraints.txt"
    f.write_text("a==1\n")
    k1 = harness.content_key("x", f)
    f.write_text("a==2\n")
    assert harness.content_key("x", f) != k1


def test_server_that_ignores_sigterm_is_killed(tmp_path):
    ready = tmp_path / "ready"
    code = ("import pathlib, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "pathlib.Path(sys.argv[1]).touch(); time.sleep(60)")
    proc = harness.ServerProcess(cmd=[sys.executable, "-c", code, str(ready)], env=harness.clean_env(), cwd=tmp_path,
                                 log=tmp_path / "server.log", grace=0.5)
    proc.start()
    for _ in range(200):
        if ready.exists():
            break
        time.sleep(0.05)
    popen = proc.popen
    proc.stop()
    assert popen.returncode == -9 and not proc.alive()


def test_server_that_exits_early_reports_its_log(tmp_path):
    proc = harness.ServerProcess(cmd=[sys.executable, "-c", "print('boom: no database'); raise SystemExit(3)"],
                                 env=harness.clean_env(), cwd=tmp_path, log=tmp_path / "server.log")
    proc.start()
    with pytest.raises(harness.HarnessError, match="boom: no database"):
        proc.wait_until_up(f"http://127.0.0.1:{harness.free_port()}/", timeout=20)


@pytest.mark.parametrize("text, hh, mm", [
    ("March 2, 2024, 1:10 p.m.", 13, 10), ("March 1, 2024, 7 p.m.", 19, 0),
    ("March 2, 2024, 8:20 a.m.", 8, 20), ("March 2, 2024, noon", 12, 0), ("March 3, 2024, midnight", 0, 0),
    ("March 2, 2024, 12:30 a.m.", 0, 30), ("Sept. 4, 2024, 12:05 p.m.", 12, 5),
])
def test_spirit_page_dates(text, hh, mm):
    got = parse_page_time(text)
    assert got.tzinfo is timezone.utc and (got.hour, got.minute) == (hh, mm)
    assert got.date() == datetime(got.year, got.month, got.day).date()


def test_php_seed_plan_is_the_scripts_plan_in_bbcode():
    from .php_engine import bbcode_plan, markdown_to_bbcode
    from .script import GameScript

    assert markdown_to_bbcode("Cambio idea! **Voto: Gina**\n\n**Tolgo** il voto") == \
        "Cambio idea! [b]Voto: Gina[/b]\n\n[b]Tolgo[/b] il voto"
    plan = GameScript.load().seed_plan()
    bb = bbcode_plan(plan)
    bodies = [p["body"] for t in bb["threads"] for p in t["posts"]] + [m["body"] for c in bb["pms"] for m in c["messages"]]
    assert not any("**" in b for b in bodies) and any("[b]Voto: Fede[/b]" in b for b in bodies)
    assert plan["threads"][0]["posts"][0]["body"].startswith("**")  # the script's own plan is untouched


def test_php_engine_without_its_tarball_is_unavailable_with_the_reason(tmp_path, monkeypatch):
    from .mybb_engine import MyBBForum
    from .php_engine import SOFTWARE_ENV, php_modules

    if not php_modules():
        with pytest.raises(harness.EngineUnavailable, match="php"):
            MyBBForum.check_available()
        return
    monkeypatch.setenv(SOFTWARE_ENV, str(tmp_path))
    with pytest.raises(harness.EngineUnavailable, match=f"mybb-1.8.37.tar.gz.*{SOFTWARE_ENV}"):
        MyBBForum.check_available()


@pytest.mark.parametrize("text, date", [
    ("<span title=\"03-02-2024, 09:40 PM\">Today</span>", datetime(2024, 3, 2, 21, 40, tzinfo=timezone.utc)),
    ("03-01-2024, 12:05 AM", datetime(2024, 3, 1, 0, 5, tzinfo=timezone.utc)),
])
def test_mybb_page_dates(text, date):
    from .mybb_engine import parse_page_time as mybb_time

    assert mybb_time(text) == date
