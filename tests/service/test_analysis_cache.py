"""The workspace's analysis cache (issue 30): asked again with nothing new, `analyse_game` hands
out the kept analysis, and it is exactly a full recount; after any change a recount reads the
store (and again equals a full recount): a new post, an edited earlier post, a new PM, GM events
(an extension, its undo, a replacement), written by this workspace or another process, a config
change, a deadline crossed with nothing new, a code version change."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

import forummod.input_mark as input_mark
from forummod.cli import main
from forummod.config import load_config
from forummod.service import Workspace, analyse, analyse_game, load_inputs, poll_game

from tests.cli.test_live_game import SLOW, H, T0, at, make_game
from tests.service.clock_sweep import core, reports

NOW = T0 + 9 * H  # after Dan's post 8 (T0 + 7 h); day 1 closes at T0 + 72 h


def full(ws: Workspace, now, **kw):
    """The recount from scratch: inputs read again, nothing kept."""
    return analyse(load_inputs(ws, "g"), now=now, **kw)


def same(a, b) -> bool:
    return core(a) == core(b) and reports(a) == reports(b)


@pytest.fixture
def game(tmp_path):
    cfg = make_game(tmp_path, SLOW)
    ws = Workspace(load_config(cfg), clock=lambda: NOW)
    yield cfg, ws
    ws.close()


def ask(ws: Workspace, now=NOW, **kw) -> tuple[object, bool]:
    """(analysis, whether it came from the cache)."""
    hits = ws.analyses.hits
    a = analyse_game(ws, "g", now=now, **kw)
    return a, ws.analyses.hits > hits


def add_post(cfg: Path, author: str, bbcode: str, at_, *, pid: int | None = None) -> None:
    path = cfg.parent / "posts.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    number = pid or len(lines) + 1
    lines.append({"id": number, "number": number, "author": author, "bbcode": bbcode, "created_at": at_.isoformat()})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def gm(cfg: Path, when, *args) -> None:
    assert main(["gm", "--config", str(cfg), "--at", at(when), *map(str, args)]) == 0


def test_nothing_new_is_the_kept_analysis_and_equals_a_full_recount(game):
    cfg, ws = game
    first, cached = ask(ws)
    assert not cached
    again, cached = ask(ws)
    assert cached and same(again, full(ws, NOW))
    later, cached = ask(ws, NOW + 20 * H)  # no deadline, no input in between: still the same game
    assert cached and same(later, full(ws, NOW + 20 * H))
    assert later.now == NOW + 20 * H and later.run.current_tally.at == NOW + 20 * H


def test_the_clock_alone_crossing_a_deadline_recounts(game):
    cfg, ws = game
    a, _ = ask(ws)
    assert a.changes_at == T0 + 72 * H  # day 1's vote close
    after, cached = ask(ws, T0 + 72 * H)
    assert not cached and after.state.phase.name == "N1" and same(after, full(ws, T0 + 72 * H))
    assert [p.key for p in after.state.pending()] == ["lynch:D1"]


def test_a_new_post_recounts(game):
    cfg, ws = game
    ask(ws)
    add_post(cfg, "Eve", "[b]unvote[/b] [b]vote: Ann[/b]", T0 + 8 * H)
    poll_game(ws, "g")
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW))
    assert a.run.current_tally.candidates[0].name == "Ann" and a.run.current_tally.candidates[0].total == 3


def test_an_edited_earlier_post_recounts(game):
    cfg, ws = game
    before, _ = ask(ws)
    add_post(cfg, "Bob", "[b]vote: Cat[/b]", T0 + 1 * H, pid=2)  # post 2 again: Bob's vote edited
    assert poll_game(ws, "g").edited_posts == 1
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW))
    assert {c.name for c in a.run.current_tally.candidates} != {c.name for c in before.run.current_tally.candidates}


def test_a_new_pm_recounts(game):
    cfg, ws = game
    pms = cfg.parent / "messages.jsonl"
    pms.write_text("", encoding="utf-8")
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace("posts.jsonl\"\n", f"posts.jsonl\"\nmessages_file = \"{pms}\"\n", 1), encoding="utf-8")
    ws.cfg = load_config(cfg)
    ws._adapters.clear()  # as the daemon's reload does
    ask(ws)
    pms.write_text(json.dumps({"id": "m1", "from": "Cat", "subject": "", "body": "check Ann",
                               "created_at": (T0 + 8 * H).isoformat()}) + "\n", encoding="utf-8")
    assert poll_game(ws, "g").new_messages == 1
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW)) and len(a.inputs.messages) == 1


def test_gm_events_from_another_process_recount(game):
    """The CLI writes through its own connection: the triggers count it all the same."""
    cfg, ws = game
    ask(ws)
    gm(cfg, T0 + 8 * H, "extend", "D1", "--until", at(T0 + 100 * H))
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW)) and a.changes_at == T0 + 100 * H
    assert ask(ws)[1]  # and kept again
    gm(cfg, T0 + 8 * H + timedelta(minutes=5), "undo", "1")
    b, cached = ask(ws)
    assert not cached and same(b, full(ws, NOW)) and b.changes_at == T0 + 72 * H
    gm(cfg, T0 + 8 * H + timedelta(minutes=10), "replace", "Gus", "Hal")
    c, cached = ask(ws)
    assert not cached and same(c, full(ws, NOW)) and "Hal" in [p.name for p in c.state.players]


def test_a_config_change_recounts(game):
    cfg, ws = game
    ask(ws)
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace('start = "', 'vote_close = "24h"\nday_end = "24h"\nstart = "', 1), encoding="utf-8")
    ws.cfg = load_config(cfg)  # as the daemon's reload does
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW)) and a.changes_at == T0 + 24 * H
    ws.cfg = load_config(cfg)  # the same config loaded again: the same mark
    assert ask(ws)[1]


def test_a_code_version_change_recounts(game, monkeypatch):
    cfg, ws = game
    ask(ws)
    monkeypatch.setattr(input_mark, "code_version", lambda: "another-release")
    a, cached = ask(ws)
    assert not cached and same(a, full(ws, NOW))


def test_the_code_version_follows_the_files(tmp_path):
    (tmp_path / "pkg").mkdir()
    f = tmp_path / "pkg" / "mod.py"
    f.write_text("x = 1\n")
    first = input_mark.tree_digest([tmp_path])
    assert input_mark.tree_digest([tmp_path]) == first
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert input_mark.tree_digest([tmp_path]) != first
    f.write_text("x = 22\n")
    assert input_mark.tree_digest([tmp_path]) != first


def test_approve_all_and_the_plain_view_are_kept_apart(game):
    cfg, ws = game
    plain, _ = ask(ws, T0 + 73 * H)
    what_if, cached = ask(ws, T0 + 73 * H, approve_all=True)
    assert not cached and same(what_if, full(ws, T0 + 73 * H, approve_all=True))
    assert [p.key for p in plain.state.pending()] == ["lynch:D1"] and not what_if.state.pending()
    assert ask(ws, T0 + 73 * H)[1] and ask(ws, T0 + 73 * H, approve_all=True)[1]


def test_a_count_before_a_post_is_never_kept(game):
    cfg, ws = game
    a, cached = ask(ws, T0 + 4 * H, until_post=5)
    b, cached_b = ask(ws, T0 + 4 * H, until_post=5)
    assert not cached and not cached_b and same(a, b)
