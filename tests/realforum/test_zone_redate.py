"""Issue 28 item 5 on real boards: a game polled with a wrong `sites.x.timezone` (Europe/Rome on
a board showing UTC) stores every post an hour early; once the GM fixes the key, the next poll
re-dates the stored posts from their saved pages (`zone_redated`) and the tally counts what the
board shows. MyBB and SMF print post dates as text in the reader's zone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.realforum.gm_desk import GMDesk

pytestmark = pytest.mark.realforum


def _set_zone(desk: GMDesk, old: str, new: str) -> None:
    text = desk.config_path.read_text(encoding="utf-8").replace(f'timezone = "{old}"', f'timezone = "{new}"', 1)
    desk.config_path.write_text(text, encoding="utf-8")


def _first_post_at(desk: GMDesk):
    from forummod.config import load_config
    from forummod.service import Workspace, analyse_game

    with Workspace(load_config(desk.config_path)) as ws:
        (gid,) = ws.cfg.games
        a = analyse_game(ws, gid)
        return a.inputs.posts["game"][0].created_at


@pytest.mark.parametrize("engine", ["mybb", "smf"])
def test_fixing_the_zone_re_dates_the_stored_posts_on_the_next_poll(real_forum, tmp_path, engine):
    if real_forum.engine != engine:
        pytest.skip(f"this case is for {engine}")
    desk = GMDesk.create(real_forum, tmp_path / "desk")
    _set_zone(desk, "UTC", "Europe/Rome")
    assert desk.cli("poll").rc == 0
    wrong = _first_post_at(desk)
    _set_zone(desk, "Europe/Rome", "UTC")
    polls = desk.cli_json("poll")
    issues = [i for p in polls for i in p["issues"] if i["code"] == "zone_redated"]
    assert len(issues) == 1 and "re-dated" in issues[0]["message"], polls
    assert _first_post_at(desk) - wrong in (timedelta(hours=1), timedelta(hours=2))  # Rome's winter or summer offset
