"""Alerts as forum PMs (issue 34, item 10): the alerts of one pass reach the GM as one PM, so a
`tick` does not wait the forum's flood interval once per alert (three alerts on a board with
a 60 s interval made a 125 s tick). On the demo phpBB over HTTP, flood rule on, fake clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.demo import script as S
from forummod.demo.run import PASSWORD_ENV
from forummod.demo.site import SitePM
from forummod.pipeline import game_pass
from tests.reliability.faulty_forum import (
    DEMO_PASSWORD,
    FakeClock,
    FaultyForum,
    GameClock,
    demo_config,
    fresh_site,
    open_workspace,
    reset_limiters,
)

FLOOD = 60.0
CHANNEL = '\n[alerts]\n[alerts.channels.forum]\nkind = "forum_pm"\nprivate = true\n'


@pytest.fixture
def demo(tmp_path, monkeypatch):
    """The demo game on day 2, two players' PMs the tool cannot read, a 60 s flood interval."""
    reset_limiters()
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    clock = FakeClock()
    site = fresh_site(S.NOW)
    site.clock, site.flood_interval = clock, FLOOD
    site.pms.append(SitePM(900, "Aldo", S.GM, S.NOW - timedelta(hours=1), "ciao", "I like pineapple pizza"))
    site.pms.append(SitePM(901, "Bianca", S.GM, S.NOW - timedelta(minutes=50), "boh", "what is this game"))
    with FaultyForum(site) as forum:
        cfg = demo_config(tmp_path, forum.base_url, extra=CHANNEL, flood_interval=FLOOD)
        ws = open_workspace(cfg, clock, GameClock(S.NOW))
        yield ws, site, forum, clock
        ws.close()
    reset_limiters()


def test_the_alerts_of_a_pass_go_in_one_pm_without_a_flood_wait_per_alert(demo):
    ws, site, forum, clock = demo
    first = game_pass(ws, "demo", now=S.NOW, publish=False)
    assert sorted(a.kind for a in first.alerts) == ["pm_not_understood", "pm_not_understood", "proposal"]
    assert not first.alert_failures
    sent = [p for p in site.pms if p.sender == S.GM]
    assert len(sent) == 1 and len(forum.requests("mode=compose&action=post", method="POST")) == 2  # add + send
    pm = sent[0]
    assert pm.to == S.GM and pm.subject == "forummod demo: MP non capito, proposta in attesa"
    assert [line.split(":", 1)[0] for line in pm.bbcode.split("\n\n")] == ["demo Giorno 2", "demo Giorno 2",
                                                                           "demo Notte 1"]
    assert "I like pineapple pizza" in pm.bbcode and "what is this game" in pm.bbcode
    assert not [s for s in clock.sleeps if s >= FLOOD / 2]  # no flood wait inside the pass
    assert game_pass(ws, "demo", now=S.NOW, publish=False).alerts == ()  # each alert once
    assert len([p for p in site.pms if p.sender == S.GM]) == 1
