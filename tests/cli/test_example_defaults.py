"""The seed rules played by config.example.toml's defaults (issue 14, item 8).

Each scenario takes its ruleset's game from the shipped example as written and substitutes only
the players (names, roles, buildings; one-night's centre cards are part of its deal), the posts
and the PMs; no other setting is touched. The game is polled and analysed through the CLI
(`status --json --approve-all`) and must give the result the rules file states for it
(/work/shared/rules/<ruleset>.md, scenarios by ID).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forummod.cli import main

from tests.example_game import example_game, write_example_game

H = timedelta(hours=1)
M = timedelta(minutes=1)
UTC = timezone.utc


@dataclass
class Scenario:
    rule: str  # the rules file's scenario ID
    game: str  # id of the example game in config.example.toml
    players: list[dict]
    posts: list[tuple] = field(default_factory=list)
    pms: list[tuple] = field(default_factory=list)
    now: datetime | None = None
    dead: dict[str, str] | None = None  # name -> cause, exactly
    alive: set[str] | None = None
    winners: set[str] | None = None
    setup: dict | None = None  # one-night: the deal (the centre cards are roles too)


def P(*pairs: str) -> list[dict]:
    """P("Ann=werewolf", "Bob=seer") -> players with roles (village: "Ann=villager@farm")."""
    out = []
    for pair in pairs:
        name, role = pair.split("=")
        role, _, building = role.partition("@")
        out.append({"name": name, "role": role} | ({"building": building} if building else {}))
    return out


# -------------------------------------------------------------------- lupus-eresia (example start)
ROME = ZoneInfo("Europe/Rome")
LUP_D1 = datetime(2026, 12, 2, tzinfo=ROME)  # the example starts at 2026-12-01 21:00 (Night 1); dawn 09:00


def at(day: datetime, hhmm: str) -> datetime:
    h, m = map(int, hhmm.split(":"))
    return day.replace(hour=h, minute=m)


def lupus(rule, players, votes, **kw) -> Scenario:
    posts = [("Narratore", "Notte 1", datetime(2026, 12, 1, 21, 0, tzinfo=ROME)),
             ("Narratore", "Giorno 1", at(LUP_D1, "09:01"))]
    posts += [(v, f"[b]voto {t}[/b]", at(LUP_D1, hhmm)) for v, t, hhmm in votes]
    return Scenario(rule, "lupus", players, posts, now=at(LUP_D1, "23:00"), **kw)


EIGHT = P("Aldo=werewolf", "Bianca=werewolf", "Carlo=seer", "Dario=farmer", "Elena=farmer", "Fabio=farmer",
          "Gino=farmer", "Ugo=farmer")
LUPUS = [
    lupus("LUP-X3", EIGHT, [("Aldo", "Dario", "12:00"), ("Bianca", "Dario", "13:00"), ("Fabio", "Elena", "14:00"),
                            ("Gino", "Elena", "15:00"), ("Ugo", "Elena", "20:50"), ("Carlo", "Dario", "21:10")],
          dead={"Elena": "lynch"}),  # 3-3: B's latest vote (20:50) came first
    lupus("LUP-X10", EIGHT, [("Carlo", "Aldo", "10:00"), ("Dario", "Aldo", "11:00"), ("Elena", "Fabio", "12:00"),
                             ("Bianca", "Fabio", "22:01"), ("Aldo", "Fabio", "22:01")],
          dead={"Aldo": "lynch"}),  # the 22:01 votes do not count
    lupus("LUP-X16", P("Aldo=werewolf", "Carlo=seer", "Dario=farmer", "Elena=executioner", "Fabio=farmer",
                       "Gino=farmer"),
          [(v, "Aldo", f"1{i}:00") for i, v in enumerate(("Carlo", "Dario", "Elena", "Fabio", "Gino"))],
          dead={"Aldo": "lynch"}, winners={"Carlo", "Dario", "Fabio", "Gino"}),  # Heresy: not the Boia
]

# -------------------------------------------------------------------- one-night (start = first post)
ON_T0 = datetime(2026, 5, 4, 20, 0, tzinfo=UTC)  # N1 for 24 h, then D1 with its vote for 72 h
ON_DAY = ON_T0 + 24 * H
FIVE = ["Berber", "Bobdebouwer", "Kraken", "Legioen", "Tetmiera"]


def one_night(rule, roles, centre, night_pms, votes, **kw) -> Scenario:
    players = [{"name": n, "role": r} for n, r in zip(FIVE, roles)]
    pms = [(who, text, ON_T0 + (i + 1) * H) for i, (who, text) in enumerate(night_pms)]
    pms += [(v, f"stem {t}", ON_DAY + (i + 2) * H) for i, (v, t) in enumerate(votes)]
    return Scenario(rule, "one_night", players, [("GM", "Nacht 1", ON_T0), ("GM", "Dag 1", ON_DAY + M)] + kw.pop("posts", []),
                    pms, now=ON_DAY + 73 * H, setup={"deal": "config", "centre": centre}, **kw)


ONE_NIGHT = [
    # ON-X1: the Robber takes the Weerwolf card; lynching him lets the village side (the old wolf too) win
    one_night("ON-X1", ["robber", "werewolf", "seer", "troublemaker", "insomniac"], ["werewolf", "tanner", "hunter"],
              [("Berber", "ruil met Bobdebouwer")],
              [("Bobdebouwer", "Berber"), ("Kraken", "Berber"), ("Legioen", "Berber"), ("Tetmiera", "Berber"),
               ("Berber", "Kraken")],
              dead={"Berber": "lynch"}, winners={"Bobdebouwer", "Kraken", "Legioen", "Tetmiera"}),
    # ON-X12: the Looier lynched: only he wins
    one_night("ON-X12", ["werewolf", "seer", "robber", "tanner", "insomniac"], ["werewolf", "troublemaker", "hunter"],
              [], [("Berber", "Legioen"), ("Bobdebouwer", "Legioen"), ("Kraken", "Legioen"), ("Tetmiera", "Legioen"),
                   ("Legioen", "Berber")],
              dead={"Legioen": "lynch"}, winners={"Legioen"}),
    # ON-X16 / ON-V1: the PM is the vote, a thread vote is a declaration (no "pm" added to the forms)
    one_night("ON-X16", ["werewolf", "seer", "robber", "tanner", "insomniac"], ["werewolf", "troublemaker", "hunter"],
              [], [("Berber", "Tetmiera"), ("Bobdebouwer", "Tetmiera"), ("Kraken", "Tetmiera"), ("Legioen", "Berber"),
                   ("Tetmiera", "Berber")],
              posts=[("Kraken", "[b]Ik stem op Berber[/b]", ON_DAY + 10 * H)],
              dead={"Tetmiera": "lynch"}),
]

# -------------------------------------------------------------------- witch-hunt (start = first post)
WH_T0 = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)  # N1 for 24 h, then D1 with its vote for 48 h
WH_DAY = WH_T0 + 24 * H
SEVEN = P("Анна=witch", "Борис=witch", "Вера=herbalist", "Глеб=inquisitor", "Дина=gossip", "Егор=villager",
          "Жанна=villager")


def witch_hunt(rule, night_pms, votes=(), **kw) -> Scenario:
    pms = [(who, text, WH_T0 + (i + 1) * H) for i, (who, text) in enumerate(night_pms)]
    posts = [("GM", "Ночь 1", WH_T0), ("GM", "День 1", WH_DAY + M)]
    posts += [(v, f"[b]голосую за {t}[/b]", WH_DAY + (i + 2) * H) for i, (v, t) in enumerate(votes)]
    return Scenario(rule, "witch_hunt", SEVEN, posts, pms, **kw)


WITCH_HUNT = [
    # WH-X3: both witches name X, the Herbalist heals X: X lives
    witch_hunt("WH-X3", [("Анна", "жертва Егор"), ("Борис", "жертва Егор"), ("Вера", "лечу Егор"),
                         ("Глеб", "молюсь за Дина")], now=WH_DAY + 2 * H, dead={}),
    # WH-X4: the Inquisitor burns a witch the Herbalist heals: she dies all the same
    witch_hunt("WH-X4", [("Анна", "жертва Егор"), ("Борис", "жертва Егор"), ("Вера", "лечу Анна"),
                         ("Глеб", "огонь на Анна")], now=WH_DAY + 2 * H, dead={"Анна": "holy_fire", "Егор": "witches"}),
    # WH-X23: the last witch executed by the trial: the town wins
    witch_hunt("WH-X23", [("Анна", "жертва Егор"), ("Борис", "жертва Егор"), ("Вера", "лечу Егор"),
                          ("Глеб", "огонь на Анна")],
               [("Вера", "Борис"), ("Глеб", "Борис"), ("Дина", "Борис"), ("Егор", "Борис"), ("Жанна", "Борис")],
               now=WH_DAY + 49 * H, dead={"Анна": "holy_fire", "Борис": "lynch"},
               winners={"Вера", "Глеб", "Дина", "Егор", "Жанна"}),
]

# -------------------------------------------------------------------- village (start = first post)
VIL_T0 = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)  # N1: Wave 1 at 24 h, dawn at 30 h; vote 36-48 h after
VIL_DAWN = VIL_T0 + 30 * H
SIX = P("小明=villager@farm", "小红=villager@farm", "阿强=werewolf", "阿花=scandalmonger", "老王=seer",
        "老李=werewolf")


def village(rule, night_pms, votes=(), players=SIX, later=(), **kw) -> Scenario:
    pms = [(who, text, VIL_T0 + (i + 1) * H) for i, (who, text) in enumerate(night_pms)]
    posts = [("GM", "第一夜", VIL_T0), ("GM", "天亮了", VIL_DAWN + M)]
    posts += [(v, f"[b]投票 {t}[/b]", VIL_DAWN + (37 + i) * H) for i, (v, t) in enumerate(votes)]
    return Scenario(rule, "village", players, posts + list(later), pms, now=VIL_DAWN + 60 * H, **kw)


VILLAGE = [
    # VIL-N-06: the pack's victim dies at dawn; VIL-V-4: the top score is executed
    village("VIL-N-06", [("阿强", "刀 老王"), ("老李", "刀 老王")],
            [("阿强", "小红"), ("老李", "小红"), ("小明", "阿强")], dead={"老王": "wolves", "小红": "lynch"}),
    # VIL-V-4: the poster's +2 makes its holder the top score (2 + 1 vote against 2)
    village("VIL-V-4", [("阿强", "刀 老王"), ("老李", "刀 老王"), ("阿花", "海报 小明")],
            [("阿强", "阿花"), ("老李", "阿花"), ("阿花", "小明")], dead={"老王": "wolves", "小明": "lynch"}),
    # VIL-V-6 / §6.8: a plain-text plea and the Lord's pardon save the condemned
    village("VIL-V-6", [("阿强", "刀 老王"), ("老李", "刀 老王")],
            [("阿强", "阿花"), ("老李", "阿花"), ("小明", "阿花")],
            players=P("小明=villager@farm", "小红=villager@manor", "阿强=werewolf", "阿花=scandalmonger",
                      "老王=seer", "老李=werewolf"),
            later=[("阿花", "领主大人，请赦免我！", VIL_DAWN + 48 * H + 30 * M),
                   ("小红", "赦免 阿花", VIL_DAWN + 48 * H + 60 * M)],
            dead={"老王": "wolves"}),
]

SCENARIOS = LUPUS + ONE_NIGHT + WITCH_HUNT + VILLAGE


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.rule for s in SCENARIOS])
def test_example_defaults_play_the_seed_rules(sc: Scenario, tmp_path, capsys):
    extra = {"setup": sc.setup} if sc.setup is not None else None
    cfg = write_example_game(tmp_path, sc.game, sc.players, posts=sc.posts, messages=sc.pms, extra=extra)
    assert main(["poll", "--config", str(cfg)]) == 0
    capsys.readouterr()
    assert main(["status", "--config", str(cfg), "--json", "--approve-all", "--now", sc.now.isoformat()]) == 0
    st = json.loads(capsys.readouterr().out)
    if sc.dead is not None:
        assert {d["player"]: d["cause"] for d in st["dead"]} == sc.dead
    if sc.alive is not None:
        assert sc.alive <= set(st["alive"])
    if sc.winners is not None:
        assert st["game_over"] and set(st["winners"]) == sc.winners


def test_each_rules_file_has_three_scenarios_on_the_example_defaults():
    per_game = {}
    for s in SCENARIOS:
        per_game.setdefault(s.game, []).append(s.rule)
    assert {g: len(r) >= 3 for g, r in per_game.items()} == dict.fromkeys(("lupus", "one_night", "witch_hunt",
                                                                            "village"), True)


def test_the_example_one_night_game_counts_pm_votes_without_pm_in_its_forms():
    """ON-V1: the example leaves the forms to the ruleset, whose default includes PM votes"""
    assert not example_game("one_night").get("votes", {}).get("forms")
