"""Short real games of lupus-eresia, witch-hunt and one-night, for golden and secrecy tests.

Each builder plays a night and a day on the engine (`tests.engine.scenario.Scenario`) so the
posts rendered from it carry the facts exactly as the ruleset emits them; `view` opens the run
as the drafts see it, in the game's time zone, at a chosen moment.

- lupus-eresia: N1 the Postino sends the Veggente's check of Gina to Vito (the Lupo
  Scorbutico), the Inquisitore checks Bianca; D1 the Templare Teo, having named Bianca, is
  lynched and takes her with him; N2 the wolves eat the Veggente Aldo, who still checks Fede.
- witch-hunt: N1 both witches name Egor, whom the Herbalist heals, Anna converts Zhanna, the
  Inquisitor prays for Zoya, the Gossip checks Zhanna; D1 Ilya and Zhanna tie, the revote sends
  Zhanna (converted) to the stake.
- one-night: the Ziener looks at Links and Rechts, the Dief robs the Weerwolf, the
  Onruststoker swaps the Ziener and the Jager; D1 the original Ziener, now holding the Jager
  card, is lynched and shoots the Dief, now a Weerwolf: the village wins.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forummod.render.view import GameView

from tests.engine.scenario import Scenario

ROME, MOSCOW, AMSTERDAM = ZoneInfo("Europe/Rome"), ZoneInfo("Europe/Moscow"), ZoneInfo("Europe/Amsterdam")
ZONES = {"lupus-eresia": ROME, "witch-hunt": MOSCOW, "one-night": AMSTERDAM}

LUPUS_ROLES = {"Aldo": "seer", "Bianca": "twin_guard", "Carlo": "twin_guard", "Dora": "farmer",
               "Elio": "executioner", "Fede": "werewolf", "Gina": "werewolf", "Lia": "postman",
               "Teo": "templar", "Ugo": "inquisitor", "Vito": "grumpy_wolf", "Zeno": "martyr"}

WITCH_ROLES = {"Анна": "witch", "Борис": "witch", "Вера": "herbalist", "Глеб": "inquisitor", "Дарья": "gossip",
               "Егор": "villager", "Жанна": "villager", "Зоя": "villager", "Илья": "villager"}

ONE_NIGHT_ROLES = {"Berber": "seer", "Bobdebouwer": "werewolf", "Kraken": "robber", "Legioen": "troublemaker",
                   "Tetmiera": "hunter"}
ONE_NIGHT_CENTRE = ["werewolf", "tanner", "insomniac"]  # Links, Midden, Rechts

TITLES = {"lupus-eresia": "Lupus in Tabula #7", "witch-hunt": "Охота на ведьм #3",
          "one-night": "One Night Weerwolven #1"}


def lupus(**options) -> Scenario:
    """The seed's schedule: night 1 from Monday 21:00, powers by 22:30; days 09:00-22:15, rogo at 22:00."""
    g = Scenario("lupus-eresia", list(LUPUS_ROLES), LUPUS_ROLES, options=options,
                 start=datetime(2026, 11, 23, 21, 0, tzinfo=ROME))
    g.night(1, hours=12, deadline=g.cursor + timedelta(hours=1.5))
    g.act("Aldo", "check", "Gina").act("Lia", "deliver", "Vito").act("Ugo", "check", "Bianca")
    g.day(1, hours=13.25, deadline=g.cursor + timedelta(hours=13)).act("Teo", "designate", "Bianca")
    for voter in ("Aldo", "Dora", "Gina", "Fede", "Vito"):
        g.vote(voter, "Teo")
    for voter in ("Teo", "Bianca", "Carlo"):
        g.vote(voter, "Fede")
    g.night(2, hours=10.75, deadline=g.cursor + timedelta(minutes=15))
    g.act("Fede", "kill", "Aldo").act("Aldo", "check", "Fede").act("Ugo", "check", "Dora")
    g.day(2, hours=13.25, deadline=g.cursor + timedelta(hours=13))
    return g


def witch_hunt(**options) -> Scenario:
    """The default schedule (D9): a 24-hour night from Monday 20:00, then a 48-hour day."""
    g = Scenario("witch-hunt", list(WITCH_ROLES), WITCH_ROLES, options={"first_recruiter": "Анна", **options},
                 start=datetime(2026, 11, 23, 20, 0, tzinfo=MOSCOW))
    g.night(1, hours=24).act("Анна", "kill", "Егор").act("Борис", "kill", "Егор").act("Анна", "recruit", "Жанна")
    g.act("Вера", "heal", "Егор").act("Глеб", "pray", "Зоя").act("Дарья", "check", "Жанна")
    g.day(1, hours=48)
    for voter in ("Анна", "Борис", "Жанна"):
        g.vote(voter, "Илья")
    for voter in ("Вера", "Глеб", "Дарья"):
        g.vote(voter, "Жанна")
    g.vote("Егор", "Зоя")
    closed = g.phases[-1].end  # the tie opens a revote after the day's deadline (D11)
    g.night(2, hours=36)
    for minutes, voter, target in ((60, "Вера", "Жанна"), (65, "Глеб", "Жанна"), (120, "Дарья", "Жанна"),
                                   (121, "Егор", "Жанна"), (180, "Анна", "Илья"), (181, "Борис", "Илья")):
        g.vote(voter, target, at=closed + timedelta(minutes=minutes))
    return g


def one_night(**options) -> Scenario:
    """The seed's schedule: a 24-hour night from Friday 20:00, then the 72-hour day (ON-D1)."""
    g = Scenario("one-night", list(ONE_NIGHT_ROLES), ONE_NIGHT_ROLES, options=options,
                 extra={"centre": ONE_NIGHT_CENTRE}, start=datetime(2026, 11, 20, 20, 0, tzinfo=AMSTERDAM))
    g.night(1, hours=24).act("Berber", "check_centre", positions="links,rechts")
    g.act("Kraken", "rob", "Bobdebouwer").act("Legioen", "swap", "Berber", "Tetmiera")
    g.day(1, hours=72)
    for voter, target in (("Kraken", "Berber"), ("Legioen", "Berber"), ("Bobdebouwer", "Berber"),
                          ("Berber", "Kraken"), ("Tetmiera", "Kraken")):
        g.vote(voter, target, channel="pm")
    g.act("Berber", "shoot", "Kraken", at=g.phases[-1].end + timedelta(minutes=20))  # after the lynch post
    return g


GAMES = {"lupus-eresia": lupus, "witch-hunt": witch_hunt, "one-night": one_night}


def view(g: Scenario, now: datetime | None = None) -> GameView:
    """The run as the drafts see it at `now` (default: just after the last phase and event)."""
    if now is None:
        now = max([g.phases[-1].end] + [e.at for e in g.events]) + timedelta(minutes=1)
    run = g.run(now=now)
    return GameView("g", TITLES[g.rs.name], g.rs, run, now, ZONES[g.rs.name])


def start_of(g: Scenario, phase: str, hours: float = 1) -> datetime:
    """`hours` into `phase`: a moment when that phase's dawn post is due."""
    ph = next(p for p in g.phases if p.name == phase)
    return ph.start + timedelta(hours=hours)
