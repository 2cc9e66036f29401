"""`GameAnalysis.changes_at` (analysis_clock.py, issue 30): an analysis made at `now` is the
analysis at every later instant before it, restamped. Swept over live games on the archive
engine: hammers and deadlines, the GM's approvals, kills, extensions, pauses and undos, night
PMs, posts stamped after the analysis, a stall and a game with no start yet."""

from __future__ import annotations

from datetime import timedelta

from forummod.cli import main
from forummod.config import load_config
from forummod.service import Workspace, analyse, load_inputs

from tests.cli.test_live_game import HAMMER, SLOW, H, T0, at, make_game
from tests.cli.village_game import DAWN1, M, T0 as V0, village_game
from tests.service.clock_sweep import sweep


def gm(cfg, when, *args) -> None:
    assert main(["gm", "--config", str(cfg), "--at", at(when), *map(str, args)]) == 0


def test_a_hammer_day_with_the_gms_approval_kill_extension_and_undo(tmp_path, capsys):
    cfg = make_game(tmp_path, HAMMER)
    gm(cfg, T0 + 6 * H, "approve", "lynch:D1")
    gm(cfg, T0 + 8 * H, "kill", "Bob", "--cause", "night_kill")
    gm(cfg, T0 + 9 * H, "extend", "N1", "--until", at(T0 + 40 * H))
    gm(cfg, T0 + 30 * H, "undo", "3")  # the extension, taken back after its old deadline passed
    with Workspace(load_config(cfg)) as ws:
        s = sweep(ws, "g", T0 - 2 * H, T0 + 200 * H)
    # every post, every GM event and every deadline is a segment's end; nothing else is
    assert 10 <= len(s.segments) <= 40 and s.probes >= 4 * len(s.segments) - 8


def test_a_slow_day_paused_and_resumed_runs_to_its_deadlines_and_stalls(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    gm(cfg, T0 + 10 * H, "pause")
    gm(cfg, T0 + 34 * H, "resume")
    with Workspace(load_config(cfg)) as ws:
        s = sweep(ws, "g", T0 + 30 * H, T0 + 600 * H)
        # the last segment opens at the stall: silent since Dan's post 8 for two phase lengths
        late = analyse(load_inputs(ws, "g"), now=T0 + 600 * H)
    assert late.stalled_since is not None and late.changes_at is None
    assert s.segments[-1][1] is None


def test_the_approve_all_view_too(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    with Workspace(load_config(cfg)) as ws:
        sweep(ws, "g", T0, T0 + 150 * H, approve_all=True)


def test_a_village_night_with_pms_and_a_dawn(tmp_path, capsys):
    cfg = village_game(tmp_path, posts=[("Narrator", "天亮了", DAWN1 + 5 * M)],
                       messages=[("阿强", "杀 老王", V0 + 2 * H), ("老王", "查 阿强", V0 + 3 * H)])
    with Workspace(load_config(cfg)) as ws:
        sweep(ws, "village", V0 - H, V0 + 120 * H, approve_all=True)


def test_a_game_with_no_start_and_no_post_is_right_only_at_its_instant(tmp_path, capsys):
    cfg = make_game(tmp_path, [])
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(text.replace(f'start = "{T0.isoformat()}"\n', ""), encoding="utf-8")
    with Workspace(load_config(cfg)) as ws:
        a = analyse(load_inputs(ws, "g"), now=T0)
    assert a.changes_at == T0  # its first phase starts "now": it moves with the clock


def test_a_post_stamped_after_now_ends_the_segment(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW)
    with Workspace(load_config(cfg)) as ws:
        a = analyse(load_inputs(ws, "g"), now=T0 + timedelta(minutes=90))
    assert a.changes_at == T0 + 2 * H  # Cat's post 3 (posts are an hour apart from T0)
