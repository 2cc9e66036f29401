"""`forummod doctor` on the real engines (issue 16 item 4): the zone check reads the game
thread's last page as `poll` does. As seeded (UTC boards, UTC config) nothing is reported as
wrong; on phpBB 3.3 with the board and its accounts set to Europe/Rome (board_timezone,
user_timezone) the footer's "All times are UTC+01:00" disagrees with a config saying UTC, and
doctor names the zone and the key; a config saying Europe/Rome passes."""

from __future__ import annotations

import pytest

from tests.realforum.gm_desk import GMDesk

pytestmark = pytest.mark.realforum


def _zone(desk: GMDesk) -> tuple[int, dict]:
    res = desk.cli("doctor", "--json")
    (zone,) = [c for c in res.json()["checks"] if c["check"] == "zone"]
    print(desk.forum.engine, zone)  # shown with -s: what the GM reads
    return res.rc, zone


def test_doctor_finds_no_zone_problem_on_the_seeded_forums(real_forum, tmp_path):
    rc, zone = _zone(GMDesk.create(real_forum, tmp_path / "desk"))
    assert zone["ok"], zone
    assert "sites." in zone["message"] or "agrees" in zone["message"] or "states" in zone["message"]


def test_doctor_reports_a_phpbb_board_zone_the_config_disagrees_with(phpbb_fresh, tmp_path):
    forum = phpbb_fresh
    forum.execute("UPDATE phpbb_config SET config_value = 'Europe/Rome' WHERE config_name = 'board_timezone'")
    forum.execute("UPDATE phpbb_users SET user_timezone = 'Europe/Rome'")
    forum.restart()  # drops phpBB's cached config
    desk = GMDesk.create(forum, tmp_path / "desk")
    assert 'timezone = "UTC"' in desk.config_path.read_text(encoding="utf-8")
    rc, zone = _zone(desk)
    assert rc == 1 and not zone["ok"] and zone["where"].endswith(".timezone")
    assert "Europe/Rome" in zone["message"] and "'UTC'" in zone["message"]
    text = desk.config_path.read_text(encoding="utf-8").replace('timezone = "UTC"', 'timezone = "Europe/Rome"', 1)
    desk.config_path.write_text(text, encoding="utf-8")
    rc, zone = _zone(desk)
    assert zone["ok"] and "Europe/Rome" in zone["message"]


@pytest.mark.parametrize("engine", ["mybb", "phpbb", "smf"])
def test_doctor_reads_the_zone_a_real_forums_page_states_against_a_wrong_config(real_forum, tmp_path, engine):
    """Issue 28 item 5: the seeded boards show UTC; a config saying Europe/Rome is named wrong
    from what the page states (phpBB's footer, SMF's <time> clock, MyBB's "Current time:"),
    never "cannot tell", however old the newest post is."""
    if real_forum.engine != engine:
        pytest.skip(f"this case is for {engine}")
    desk = GMDesk.create(real_forum, tmp_path / "desk")
    text = desk.config_path.read_text(encoding="utf-8").replace('timezone = "UTC"', 'timezone = "Europe/Rome"', 1)
    desk.config_path.write_text(text, encoding="utf-8")
    rc, zone = _zone(desk)
    assert rc == 1 and not zone["ok"] and "cannot tell" not in zone["message"]
    assert "times are UTC" in zone["message"] and "'Europe/Rome'" in zone["message"]


@pytest.mark.parametrize("engine", ["mybb", "phpbb", "smf"])
def test_init_from_a_real_thread_writes_the_zone_its_page_states(real_forum, tmp_path, capsys, engine):
    """Issue 28 item 5: `init --from-thread` of an Italian game on a board showing UTC writes
    UTC for the site (what the page states), Europe/Rome for the game's deadlines."""
    import tomllib

    from forummod.cli import main

    if real_forum.engine != engine:
        pytest.skip(f"this case is for {engine}")
    path = tmp_path / "forummod.toml"
    assert main(["init", str(path), "--engine", engine, "--ruleset", "lupus-eresia",
                 "--from-thread", real_forum.thread_url()]) == 0
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    (site,), (game,) = data["sites"].values(), data["games"].values()
    assert (site["timezone"], game["timezone"]) == ("UTC", "Europe/Rome")
    assert "timezone: UTC (stated by the thread page" in capsys.readouterr().out
