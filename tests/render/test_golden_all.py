"""Golden drafts of every ruleset, in every language and markup, from real engine runs.

Per ruleset one short game is played on the engine; at the start, middle and end of every phase
(and after the last) every draft that applies is planned and rendered, exactly as the service
would: title, target and text. One golden file per (ruleset, markup, language) holds them all,
so a change to any template, phrase, catalog or date format shows up here as a diff.

The file was written before templates moved to gettext catalogs (issue 20): the same bytes prove
the catalogs say what the per-language templates and phrasebooks said. Regenerate after a
deliberate wording change with `FORUMMOD_UPDATE_GOLDEN=1` and name the change in a test.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from forummod.model import NO_LYNCH
from forummod.render import LANGUAGES, MARKUPS, phrasebook_for, plan_drafts, render_post
from forummod.render.view import GameView

from tests.engine.scenario import Scenario
from tests.render import ruleset_games as games

GOLDEN = Path(__file__).parent / "golden" / "all"
UPDATE = os.environ.get("FORUMMOD_UPDATE_GOLDEN") == "1"
ROME = ZoneInfo("Europe/Rome")


def mafia_majority() -> Scenario:
    """D1 hammers a mafioso, N1 the mafia kills the cop's target while the doctor guards himself, D2 opens."""
    roles = {"Ann": "mafia", "Bob": "town", "Cat": "cop", "Dan": "doctor", "Eve": "town", "Fay": "mafia",
             "Gus": "town"}
    g = Scenario("mafia-majority", list(roles), roles, start=datetime(2026, 11, 23, 10, 0, tzinfo=ROME))
    g.day(1, hours=12)
    g.vote("Bob", "Ann").vote("Cat", "Ann").vote("Dan", "Fay").vote("Eve", "Ann").vote("Gus", NO_LYNCH)
    g.unvote("Dan").vote("Dan", "Ann")
    g.night(1, hours=12).act("Fay", "kill", "Eve").act("Cat", "check", "Fay").act("Dan", "protect", "Bob")
    g.day(2, hours=24).vote("Fay", "Bob")
    return g


def village() -> Scenario:
    from tests.render.test_village_golden import played

    return played()[0].g


GAMES = {"mafia-majority": (mafia_majority, ROME, "Valfonda #7"),
         "lupus-eresia": (games.lupus, games.ROME, games.TITLES["lupus-eresia"]),
         "witch-hunt": (games.witch_hunt, games.MOSCOW, games.TITLES["witch-hunt"]),
         "one-night": (games.one_night, games.AMSTERDAM, games.TITLES["one-night"]),
         "village": (village, ZoneInfo("Asia/Shanghai"), "Millers Hollow")}


@lru_cache(maxsize=None)
def views(ruleset: str) -> tuple[GameView, ...]:
    """The game as the drafts see it at the start, middle and end of each phase and after the last."""
    make, tz, title = GAMES[ruleset]
    g = make()
    moments: list[datetime] = []
    for ph in g.phases:
        moments += [ph.start + timedelta(minutes=2), ph.start + (ph.end - ph.start) / 2, ph.end + timedelta(seconds=1)]
    moments.append(max([g.phases[-1].end] + [e.at for e in g.events]) + timedelta(minutes=1))
    return tuple(GameView("g", title, g.rs, g.run(now=now), now, tz) for now in moments)


def render_all(ruleset: str, lang: str, markup: str) -> str:
    """Every distinct draft of the game, in the order the moments and kinds produce them."""
    pb = phrasebook_for(lang, ruleset, markup)
    seen: set[str] = set()
    out: list[str] = []
    for gv in views(ruleset):
        for d in plan_drafts(gv, pb.with_tz(gv.tz)):
            text = render_post(d.kind, d.post, markup, lang)
            block = f"=== {d.kind} {d.phase} {d.slot} → {d.target} | {d.title}\n{text}"
            if block not in seen:
                seen.add(block)
                out.append(block)
    return "\n".join(out)


PARAMS = [pytest.param(rs, lang, markup, id=f"{rs}.{markup}.{lang}")
          for rs in GAMES for lang in LANGUAGES for markup in MARKUPS]


@pytest.mark.parametrize("ruleset,lang,markup", PARAMS)
def test_every_draft_of_the_game_matches_its_golden_file(ruleset, lang, markup):
    text = render_all(ruleset, lang, markup)
    path = GOLDEN / f"{ruleset}.{markup}.{lang}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with FORUMMOD_UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_golden_games_draft_every_public_and_pm_kind(ruleset):
    """The games reach every kind a GM posts, so the golden files cover every template."""
    pb = phrasebook_for("en", ruleset, "plain")
    kinds = {d.kind for gv in views(ruleset) for d in plan_drafts(gv, pb)}
    assert {"votecount", "day_start", "day_end", "role_pm", "night_result", "warnings"} <= kinds, kinds
