"""The clocks of what a pass and the console derive from an analysis (issue 30): the checks'
findings and prod list (checks/clock.py), every draft that applies (render/clock.py), the
alerts (alerts.decide.next_change), and all of them together (horizon.changes_at, the one the
caches use) stay the same at every instant before their next change. Swept over games with
activity blocks, prods, night actions owed with a reminder and a deadline alert window, against
fresh checks, renders and alerts, each family with its own clock so another's instants hide no
missed one; posts and settings sit off the hour grid for the same reason."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.config import load_config
from forummod.service import Workspace

from tests.cli.test_lupus_live import T0 as L0, game as lupus_game
from tests.cli.test_live_game import H, T0, make_game
from tests.cli.village_game import DAWN1, M, T0 as V0, village_game
from tests.service.clock_sweep import (
    alerts_horizon, alerts_outputs, checks_horizon, checks_outputs, drafts_horizon, drafts_outputs, pass_horizon,
    pass_outputs, sweep,
)

# the SLOW day of test_live_game, its posts at uneven minutes
SLOW = [("Mod", "Day 1 begins", T0), ("Bob", "[b]vote: Ann[/b]", T0 + 67 * M), ("Cat", "[b]vote: Ann[/b]", T0 + 131 * M),
        ("Dan", "hmm", T0 + 199 * M), ("Eve", "[b]vote: Bob[/b]", T0 + 263 * M), ("Fay", "[b]vote: Quinn[/b]", T0 + 331 * M),
        ("Gus", "hello", T0 + 397 * M), ("Dan", "[b]vote: Bob[/b]", T0 + 461 * M)]
SETTINGS = ('reminder_before = "50m"\n[games.g.checks]\nactivity_blocks = true\nblock_hours = 12\n'
            'prod_after = "20h"\n[alerts]\ndeadline_warning = "95m"\n')


@pytest.fixture
def slow_day(tmp_path, capsys):
    cfg = make_game(tmp_path, SLOW, tables=SETTINGS)
    with Workspace(load_config(cfg)) as ws:
        yield ws


@pytest.mark.parametrize("family", ["checks", "drafts", "alerts", "all"])
def test_blocks_prods_reminders_and_the_vote_close_alert_of_a_slow_day(slow_day, family):
    outputs, horizon = {"checks": (checks_outputs, checks_horizon), "drafts": (drafts_outputs, drafts_horizon),
                        "alerts": (alerts_outputs, alerts_horizon), "all": (pass_outputs, pass_horizon)}[family]
    first = sweep(slow_day, "g", T0, T0 + 26 * H, outputs=outputs, horizon=horizon, probes=2)
    close = sweep(slow_day, "g", T0 + 69 * H, T0 + 73 * H, outputs=outputs, horizon=horizon, probes=2)
    ends = {e for _, e in first.segments + close.segments}
    if family in ("checks", "all"):
        assert {T0 + 12 * H, T0 + 24 * H, T0 + 20 * H, T0 + 72 * H - 50 * M} <= ends  # blocks, Ann's prod, reminder
    if family in ("drafts", "all"):
        assert T0 + 21 * H in ends  # Ann silent 21 h: the prod post's hours
    if family in ("alerts", "all"):
        assert T0 + 72 * H - 95 * M in ends  # the vote close comes within the warning


def test_a_day_prod_post_from_the_posts_when_prods_are_checked_only_at_night(tmp_path, capsys):
    """`build_prod` falls back to the posts on a day without prod findings: its hours tick too."""
    cfg = make_game(tmp_path, SLOW, tables=SETTINGS.replace('prod_after = "20h"', 'prod_after = "20h"\nprod_phases = ["night"]'))
    with Workspace(load_config(cfg)) as ws:
        s = sweep(ws, "g", T0 + 19 * H, T0 + 26 * H, outputs=drafts_outputs, horizon=drafts_horizon, probes=2)
    assert T0 + 21 * H in {e for _, e in s.segments}


def test_lupus_night_actions_owed_with_their_reminder(tmp_path, capsys):
    cfg = lupus_game(tmp_path, [("Carlo", "indago Aldo", L0 + timedelta(hours=1))])
    with Workspace(load_config(cfg)) as ws:
        for outputs, horizon in ((checks_outputs, checks_horizon), (pass_outputs, pass_horizon)):
            sweep(ws, "lupus", L0 - timedelta(hours=1), L0 + timedelta(hours=40), outputs=outputs, horizon=horizon,
                  probes=2)


def test_a_village_night_and_dawn(tmp_path, capsys):
    cfg = village_game(tmp_path, posts=[("Narrator", "天亮了", DAWN1 + 5 * M)],
                       messages=[("阿强", "杀 老王", V0 + 2 * H), ("老王", "查 阿强", V0 + 3 * H)])
    with Workspace(load_config(cfg)) as ws:
        sweep(ws, "village", V0 - H, V0 + 80 * H, outputs=pass_outputs, horizon=pass_horizon, probes=2)
