"""Drafts in the store: one open draft per post, updated by each poll, never overwriting the GM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.drafting import refresh_drafts
from forummod.service import analyse_game

from tests.render.game import XSS, at, day_one


def open_drafts(ws, kind=None):
    return [r for r in ws.store.drafts("g", status="draft") if kind is None or r.kind == kind]


def refresh(g, hours):
    g.now = at(hours)
    ws = g.workspace()
    return ws, refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(hours)))


def test_a_poll_drafts_every_kind_that_applies_now(tmp_path: Path):
    g = day_one(tmp_path)
    g.post("Zed", 0.5, "[b]vote: Ann[/b]")  # not a player: a warning for the GM
    ws, ids = refresh(g, 6)
    kinds = sorted({ws.store.draft(i).kind for i in ids})
    assert kinds == ["day_start", "role_pm", "votecount", "warnings"]
    assert len(open_drafts(ws, "role_pm")) == 8
    pm = next(r for r in open_drafts(ws, "role_pm") if r.slot == "Ann")
    assert pm.target == "pm:Ann" and "Fay" in pm.body and pm.title == "Test Town — Your role, Ann"


def test_the_gms_how_to_vote_line_is_no_gm_vote_and_drafts_no_warning(tmp_path: Path):
    ws, ids = refresh(day_one(tmp_path), 6)  # "Vote with [b]Vote: name[/b]" names no player
    assert "warnings" not in {ws.store.draft(i).kind for i in ids}


def test_a_new_vote_updates_the_open_vote_count_instead_of_adding_one(tmp_path: Path):
    g = day_one(tmp_path)
    ws, _ = refresh(g, 6)
    [first] = open_drafts(ws, "votecount")
    assert "[b]Ann[/b] (4) L-1" in first.body
    g.vote("Fay", "Bob", 6.5)
    ws, _ = refresh(g, 7)
    [second] = open_drafts(ws, "votecount")
    assert second.id == first.id and "[b]Bob[/b] (2) L-3" in second.body
    assert [h["status"] for h in ws.store.draft_history(first.id)] == ["draft", "draft"]
    ws, _ = refresh(g, 8)  # nothing new: no new revision
    assert len(ws.store.draft_history(first.id)) == 2


def test_a_draft_the_gm_edited_is_not_overwritten_by_the_next_poll(tmp_path: Path):
    g = day_one(tmp_path)
    ws, _ = refresh(g, 6)
    [vc] = open_drafts(ws, "votecount")
    ws.store.edit_draft(vc.id, "my own count", at(6))
    g.vote("Fay", "Bob", 6.5)
    ws, _ = refresh(g, 7)
    assert [r.body for r in open_drafts(ws, "votecount")] == ["my own count"]


def test_a_published_dawn_post_is_not_drafted_again(tmp_path: Path):
    g = day_one(tmp_path)
    ws, _ = refresh(g, 6)
    [ds] = open_drafts(ws, "day_start")
    ws.store.set_draft_status(ds.id, "published", at(6))
    g.post("Mod", 6.2, "Day 1 has begun.")
    ws, ids = refresh(g, 7)
    assert not [i for i in ids if ws.store.draft(i).kind == "day_start"]
    assert len(ws.store.drafts("g")) == len({r.id for r in ws.store.drafts("g")})
    assert [r.status for r in ws.store.drafts("g") if r.kind == "day_start"] == ["published"]


def test_a_discarded_vote_count_comes_back_only_when_the_count_changes(tmp_path: Path):
    g = day_one(tmp_path)
    ws, _ = refresh(g, 6)
    [vc] = open_drafts(ws, "votecount")
    ws.store.set_draft_status(vc.id, "discarded", at(6))
    ws, _ = refresh(g, 7)
    assert open_drafts(ws, "votecount") == []
    g.vote("Fay", "Bob", 7.5)
    ws, _ = refresh(g, 8)
    [new] = open_drafts(ws, "votecount")
    assert new.id != vc.id and "Fay" in new.body


def test_a_draft_being_published_keeps_its_text(tmp_path: Path):
    g = day_one(tmp_path)
    ws, _ = refresh(g, 6)
    [vc] = open_drafts(ws, "votecount")
    ws.store.begin_publication(vc.id, "g", "fm-1-abcdef01", at(6))
    g.vote("Fay", "Bob", 6.5)
    ws, _ = refresh(g, 7)
    assert [r.body for r in open_drafts(ws, "votecount")] == [vc.body]


def test_gm_notes_of_an_earlier_phase_are_retired_when_the_game_moves_on(tmp_path: Path):
    g = day_one(tmp_path)
    g.post("Zed", 0.5, "[b]vote: Ann[/b]")  # not a player: a warning for the GM
    ws, _ = refresh(g, 6)
    [w1] = open_drafts(ws, "warnings")
    g.vote(XSS, "Ann", 7)  # hammer: D1 ends, the lynch waits for the GM
    ws, _ = refresh(g, 8)
    ws.store.append_event("g", at(9), "decision", {"key": "lynch:D1", "verdict": "approve"})
    g.pm("Fay", 49, "kill Bob")
    ws, _ = refresh(g, 61)
    assert ws.store.draft(w1.id).status == "discarded"
    assert [r.phase for r in open_drafts(ws, "warnings")] == ["D2"]
    assert {r.kind for r in open_drafts(ws)} >= {"day_end", "day_start", "votecount"}


# --------------------------------------------------------------------------- commands


def cli(capsys, cfg: Path, *argv: str) -> tuple[int, str]:
    code = main([*argv[:1], "--config", str(cfg), *argv[1:]])
    return code, capsys.readouterr().out


def test_draft_drafts_and_discard_commands(tmp_path: Path, capsys):
    g = day_one(tmp_path)
    g.workspace().close()
    cfg = tmp_path / "forummod.toml"
    now = at(6).isoformat()
    code, out = cli(capsys, cfg, "draft", "votecount", "--print", "--now", now)
    assert code == 0 and out.startswith("draft 1: votecount D1 → thread") and "[b]Ann[/b] (4) L-1" in out
    code, out = cli(capsys, cfg, "draft", "role_pm", "--to", "Ann", "--now", now)
    assert code == 0 and "role_pm setup → pm:Ann" in out
    code, out = cli(capsys, cfg, "drafts", "--json")
    rows = json.loads(out)["drafts"]
    assert [(r["id"], r["kind"], r["phase"], r["status"], r["target"]) for r in rows] == \
        [(1, "votecount", "D1", "draft", "thread"), (2, "role_pm", "setup", "draft", "pm:Ann")]
    assert set(rows[0]) >= {"id", "kind", "phase", "status", "target", "updated_at"}
    code, out = cli(capsys, cfg, "discard", "1")
    assert code == 0 and "discarded" in out
    code, out = cli(capsys, cfg, "drafts", "--status", "discarded")
    assert "votecount" in out and "role_pm" not in out


def test_the_gm_view_of_the_count_is_printed_and_never_stored(tmp_path: Path, capsys):
    g = day_one(tmp_path)
    g.workspace().close()
    cfg = tmp_path / "forummod.toml"
    code, out = cli(capsys, cfg, "draft", "votecount", "--gm", "--now", at(6).isoformat())
    assert code == 0 and "not stored (GM view)" in out and "(GM view)" in out
    code, out = cli(capsys, cfg, "drafts", "--json")
    assert json.loads(out)["drafts"] == []


def test_draft_all_renders_every_kind_in_the_games_language(tmp_path: Path, capsys):
    g = day_one(tmp_path, language="it", markup="markdown")
    g.workspace().close()
    code, out = cli(capsys, tmp_path / "forummod.toml", "draft", "all", "--print", "--now", at(6).isoformat())
    assert code == 0 and "**Votazione — Giorno 1**" in out and "Il tuo ruolo è" in out


@pytest.mark.parametrize("kind", ["game_over", "day_end"])
def test_draft_of_a_kind_that_does_not_apply_says_so(tmp_path: Path, capsys, kind):
    day_one(tmp_path).workspace().close()
    code, out = cli(capsys, tmp_path / "forummod.toml", "draft", kind, "--now", at(6).isoformat())
    assert code == 1 and f"no {kind} applies" in out
