"""Issue 28 items 2 and 3, played through the CLI on the archive source (an Italian Lupus game).

Item 3 (LUP-T3, D20): the night ends at LUP-T3 (22:30) of the same evening, and the next
night's action window opens with the GM's dawn post (D17), so a PM between the two counts for
no night. Item 2 (D17): the night desk of `status` (and the console, which shows the same
record) lists every PM the engine took for the night, those sent during the day before it
included, and `status --now T` lists no PM received after T."""

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forummod.cli import main

from tests.example_game import write_example_game

ROME = ZoneInfo("Europe/Rome")
T0 = datetime(2026, 12, 1, 21, 0, tzinfo=ROME)  # the GM's opening post: night 1
DAWN1 = datetime(2026, 12, 2, 9, 0, tzinfo=ROME)  # the GM's post opening day 1
N2 = datetime(2026, 12, 2, 22, 15, tzinfo=ROME)
H, M = timedelta(hours=1), timedelta(minutes=1)
PLAYERS = [{"name": "Aldo", "role": "werewolf"}, {"name": "Bianca", "role": "werewolf"},
           {"name": "Carlo", "role": "seer"}, {"name": "Dario", "role": "farmer"},
           {"name": "Elena", "role": "farmer"}, {"name": "Fabio", "role": "farmer"}]
POSTS = [("Narratore", "Notte 1", T0), ("Narratore", "Giorno 1", DAWN1), ("Dario", "buongiorno", DAWN1 + H)]
PMS = [("Carlo", "indago Aldo", T0 + H),  # night 1, in time
       ("Carlo", "indago Bianca", T0 + 2 * H),  # 23:00: after LUP-T3, before the dawn post (D17)
       ("Bianca", "sbraniamo Dario", DAWN1 + 2 * H),  # during day 1: for night 2 (D17)
       ("Carlo", "indago Elena", DAWN1 + 3 * H),  # during day 1: for night 2
       ("Aldo", "sbraniamo Elena", N2 + 5 * M)]  # night 2 itself


def game(tmp_path):
    cfg = write_example_game(tmp_path, "lupus", PLAYERS, posts=POSTS, messages=PMS, start=T0)
    assert main(["poll", "--config", str(cfg)]) == 0
    return cfg


def status(capsys, cfg, now: datetime, *extra: str):
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--now", now.isoformat(), *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_LUP_T3_D20_the_night_ends_at_2230_the_same_evening(tmp_path, capsys):
    """LUP-T3 D20: night 1 ends at the first 22:30 after the opening post; day 1 runs to 22:15."""
    cfg = game(tmp_path)
    st = status(capsys, cfg, T0 + 2 * H)  # 23:00 on the first evening
    assert st["phase"] == "D1"
    assert datetime.fromisoformat(st["phase_start_at"]) == datetime(2026, 12, 1, 22, 30, tzinfo=ROME)
    assert datetime.fromisoformat(st["phase_end_at"]) == datetime(2026, 12, 2, 22, 15, tzinfo=ROME)
    st = status(capsys, cfg, N2 + 10 * M)
    assert st["phase"] == "N2" and datetime.fromisoformat(st["phase_end_at"]) == N2 + 15 * M


def test_D17_a_pm_after_LUP_T3_before_the_dawn_post_is_late_and_shown_on_the_night_it_missed(tmp_path, capsys):
    """D17 LUP-X22: Carlo's 23:00 PM is refused (late, D17) on night 1's desk, not used on night 2"""
    cfg = game(tmp_path)
    desk = status(capsys, cfg, DAWN1 + 30 * M)["night_desk"]
    assert desk["night"] == "N1"
    assert [(x["actor"], x["targets"], x["status"], x["reason"], x["rule"]) for x in desk["actions"]] == [
        ("Carlo", ["Aldo"], "counts", None, None), ("Carlo", ["Bianca"], "rejected", "late", "D17")]


def test_D17_the_night_desk_lists_the_pms_sent_during_the_day_before_the_night(tmp_path, capsys):
    """D17: night 2's actions include the PMs of day 1; the desk lists what the engine counts"""
    cfg = game(tmp_path)
    desk = status(capsys, cfg, N2 + 12 * M)["night_desk"]
    assert desk["night"] == "N2"
    assert [(x["actor"], x["verb"], x["targets"], x["status"]) for x in desk["actions"]] == [
        ("Bianca", "kill", ["Dario"], "replaced"), ("Carlo", "check", ["Elena"], "counts"),
        ("Aldo", "kill", ["Elena"], "counts")]
    assert not [o for o in desk["owed"] if "kill" in o["actions"]]  # nobody chased for a kill already sent


def test_status_now_lists_no_pm_received_after_it(tmp_path, capsys):
    """`status --now T` sees the desk as it stood at T: Aldo's 22:20 PM is not there at 22:18"""
    cfg = game(tmp_path)
    desk = status(capsys, cfg, N2 + 3 * M)["night_desk"]
    assert [(x["actor"], x["status"]) for x in desk["actions"]] == [("Bianca", "counts"), ("Carlo", "counts")]
