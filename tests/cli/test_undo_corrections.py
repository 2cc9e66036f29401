"""`gm undo` proposes a correction only when a fact a published post stated changed because of
the undone event (issue 28, item 6): never for the GM's own edit of the post, a later legitimate
event or a dawn or day-end post that carries the hammer's time; always for a lynch taken back or a
deadline moved back. Played on the archive engine through the CLI."""

from __future__ import annotations

from forummod.config import load_config
from forummod.store import Store

from tests.cli.test_live_game import HAMMER, SLOW, H, T0, at, cli, cli_json, make_game


def _publish(capsys, cfg, kind: str, phase: str, now, edit: str = "") -> int:
    rc, out, err = cli(capsys, "draft", "--config", cfg, kind, "--phase", phase, "--now", at(now))
    assert rc == 0, err
    did = int(out.split()[1].rstrip(":"))
    if edit:
        _edit(cfg, did, edit)
    assert cli(capsys, "publish", "--config", cfg, did, "--stale-ok")[0] == 0
    return did


def _edit(cfg, did: int, text: str) -> None:
    with Store(load_config(cfg).workspace.store_path()) as store:
        d = store.draft(did)
        store.edit_draft(did, d.body.replace("Day 1", text, 1) + "\n\nGood luck, everyone!", T0 + 7 * H)


def _event_id(capsys, cfg, now, kind: str) -> int:
    evs = cli_json(capsys, "status", "--config", cfg, "--now", at(now))["gm_events"]
    return [e["id"] for e in evs if e["kind"] == kind][-1]


def _undo(capsys, cfg, number: int, now) -> list[tuple[str, str]]:
    rep = cli_json(capsys, "gm", "--config", cfg, "--at", at(now), "undo", number)
    return [(c["kind"], c["phase"]) for c in rep["corrections"]]


def test_undo_of_an_unrelated_event_proposes_no_correction_for_an_edited_post_with_the_hammer_time(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    rc, out, _ = cli(capsys, "draft", *c, "day_end", "--phase", "D1", "--print", "--now", at(T0 + 7 * H))
    assert "13:00" in out  # the day-end post carries the hammer's time: Night 1 begins at the hammer post
    did = int(out.split()[1].rstrip(":"))
    _edit(cfg, did, "Day One")  # the GM reworded it before sending
    assert cli(capsys, "publish", *c, did, "--stale-ok")[0] == 0
    # a later legitimate event (a night kill) and one the GM takes back (an extension of the night)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 8 * H), "kill", "Bob", "--cause", "night_kill")[0] == 0
    assert cli(capsys, "gm", *c, "--at", at(T0 + 9 * H), "extend", "N1", "--until", at(T0 + 40 * H))[0] == 0
    assert _undo(capsys, cfg, _event_id(capsys, cfg, T0 + 10 * H, "extend"), T0 + 10 * H) == []
    with Store(load_config(cfg).workspace.store_path()) as store:
        assert not [r for r in store.drafts("g") if r.slot.endswith(":correction")]


def test_undo_of_the_lynch_approval_corrects_the_published_day_end(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    assert cli(capsys, "gm", "--config", cfg, "--at", at(T0 + 6 * H), "approve", "lynch:D1")[0] == 0
    _publish(capsys, cfg, "day_end", "D1", T0 + 7 * H, edit="Day One")
    approval = _event_id(capsys, cfg, T0 + 7 * H, "decision")
    assert _undo(capsys, cfg, approval, T0 + 8 * H) == [("day_end", "D1")]  # the lynch is no longer decided
    with Store(load_config(cfg).workspace.store_path()) as store:
        (fix,) = [r for r in store.drafts("g") if r.slot.endswith(":correction")]
    assert fix.status == "draft" and fix.title.startswith("Correction: ") and fix.target == "thread"
    assert fix.body.startswith("[b]Correction to an earlier post:[/b]")


def test_undo_of_an_extension_corrects_the_published_deadline_and_a_note_changes_nothing(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    assert cli(capsys, "gm", *c, "--at", at(T0 + 8 * H), "extend", "D1", "--close", at(T0 + 90 * H),
               "--until", at(T0 + 90 * H))[0] == 0
    _publish(capsys, cfg, "day_start", "D1", T0 + 9 * H)  # states the moved vote close
    assert cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "note", "a quiet day")[0] == 0
    assert _undo(capsys, cfg, _event_id(capsys, cfg, T0 + 11 * H, "override"), T0 + 11 * H) == []
    assert _undo(capsys, cfg, _event_id(capsys, cfg, T0 + 12 * H, "extend"), T0 + 12 * H) == [("day_start", "D1")]



def test_undo_of_an_extension_recorded_after_the_dawn_post_proposes_no_correction(tmp_path, capsys):
    """The dawn post stated the vote close; the GM then extended the day and took the extension
    back: the post is true again (it never stated the extension), so no correction (seen in the
    live Lupus game on phpBB, tests/realforum/test_live_games.py)."""
    cfg = make_game(tmp_path, SLOW)
    c = ("--config", cfg)
    _publish(capsys, cfg, "day_start", "D1", T0 + 9 * H)  # states the default vote close
    assert cli(capsys, "gm", *c, "--at", at(T0 + 10 * H), "extend", "D1", "--close", at(T0 + 90 * H),
               "--until", at(T0 + 90 * H))[0] == 0
    assert _undo(capsys, cfg, _event_id(capsys, cfg, T0 + 11 * H, "extend"), T0 + 11 * H) == []
    with Store(load_config(cfg).workspace.store_path()) as store:
        assert not [r for r in store.drafts("g") if r.slot.endswith(":correction")]
