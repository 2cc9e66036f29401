"""Issue 28 item 2: the console's night desk lists what the engine counts for the night — a
cop's PM sent during day 1 is night 1's action (actions may be sent during the day before
the night) — from the same record as `status` (`gamestate_view.night_view`)."""

from __future__ import annotations

import re

from forummod.service import analyse_game

from tests.console.test_console_server import served_page
from tests.render.game import at, day_one


def test_a_pm_sent_during_the_day_is_on_the_consoles_night_desk(tmp_path):
    g = day_one(tmp_path).pm("Cat", 10, "check Bob")  # during D1 (48 h): for N1
    g.post("Mod", 49, "Night 1 begins.")  # an archive's clock stops at its last input: N1
    g.now = at(49)
    ws = g.workspace()
    a = analyse_game(ws, "g")
    assert a.run.state.phase.name == "N1"
    body = served_page(ws)
    assert re.search(r'<tr class="action counts" data-source="PM m1"><td>Cat</td><td>check Bob</td>', body)
