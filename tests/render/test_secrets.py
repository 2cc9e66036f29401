"""Public drafts never name a role the rules have not revealed, in any language or markup."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.render import LANGUAGES, MARKUPS, PUBLIC_KINDS, phrasebook_for, plan_drafts, render_post

from tests.render.test_build import PLAYERS, ROLES, view
from tests.engine.scenario import Scenario


def mid_game(**options) -> Scenario:
    """D1 lynches Gus, N1 kills Bob; D2 under way with votes on Ann and Cat, N2 actions queued."""
    g = Scenario("mafia-majority", PLAYERS, ROLES, options=options)
    g.day(1).vote("Bob", "Gus").vote("Cat", "Gus").vote("Dan", "Gus").vote("Ann", "Gus")
    g.night(1).act("Ann", "kill", "Bob").act("Cat", "check", "Fay").act("Dan", "protect", "Cat")
    g.day(2, hours=48).vote("Cat", "Ann").vote("Fay", "Cat").vote("Eve", "Ann")
    g.act("Fay", "kill", "Eve").act("Cat", "check", "Ann")
    return g


def public_texts(g: Scenario, lang: str, markup: str) -> list[str]:
    gv = view(g, now=g.phases[-1].start + timedelta(hours=47))  # D2 still open; prods are due
    pb = phrasebook_for(lang, "mafia-majority", markup)
    drafts = [d for d in plan_drafts(gv, pb) if d.target == "thread"]
    assert {d.kind for d in drafts} == set(PUBLIC_KINDS) - {"game_over"}
    return [render_post(d.kind, d.post, markup, lang) for d in drafts]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_public_drafts_name_only_revealed_roles(lang, markup):
    g = mid_game()
    pb = phrasebook_for(lang, "mafia-majority", "plain")
    texts = public_texts(g, lang, markup)
    secret = {pb.role(r) for r in ("cop", "doctor", "mafia")}  # nobody holding these has died
    for text in texts:
        assert not [w for w in secret if w in text], text
    assert any(pb.role("town") in t for t in texts)  # the revealed townies are named


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_without_reveals_public_drafts_name_no_role_at_all(lang, markup):
    g = mid_game(reveal_roles=False)
    pb = phrasebook_for(lang, "mafia-majority", "plain")
    for text in public_texts(g, lang, markup):
        assert not [pb.role(r) for r in ("town", "cop", "doctor", "mafia") if pb.role(r) in text], text
