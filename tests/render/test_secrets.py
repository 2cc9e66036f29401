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


# ---------------------------------------------------------------------- village (village.md §3.1)


def village_game(**options):
    """F8 (P5, P6 werewolves). N1: Cupid (P1) links P3 and P4, the Seer (P2) looks at P5, the pack
    kills the Guardian (P7). D1: the Confessor (P1, church) looks at P5; P3 votes for their lover P4
    (refused and told to P3 only); P8, a Villager, is lynched."""
    from tests.engine.village_f8 import F8, M

    f = F8(roles={"P1": "cupid", "P2": "seer", "P3": "pyromaniac", "P4": "witch", "P7": "guardian",
                  "P8": "villager"}, buildings={"P1": "church", "P2": "farm"}, options=options)
    n = f.night(1, pack={"target": "P7"}, witch={"heal": False, "poison": None})
    f.g.act("P1", "link", "P3", "P4", at=n.phase.start + 10 * M)
    f.g.act("P2", "check", "P5", at=n.phase.start + 11 * M)
    d = f.day(1, confessor={"target": "P5"},
              votes_in_order=[["P3", "P4"], ["P1", "P8"], ["P2", "P8"], ["P5", "P8"]])
    return f, d


def village_view(f, at):
    from datetime import timezone

    from forummod.render.view import GameView

    return GameView("g", "Millers Hollow", f.g.rs, f.g.run(now=at), at, timezone.utc)


def village_public_texts(lang: str, markup: str, **options) -> list[str]:
    """Every thread draft of D1: at dawn, during the vote, after the lynch."""
    f, d = village_game(**options)
    pb = phrasebook_for(lang, "village", markup)
    texts, kinds = [], set()
    for now in (d.phase.start + timedelta(hours=1), d.phase.vote_close - timedelta(minutes=1),
                d.phase.end + timedelta(seconds=1)):
        for x in plan_drafts(village_view(f, now), pb):
            if x.target == "thread":
                kinds.add(x.kind)
                texts.append(render_post(x.kind, x.post, markup, lang))
    assert {"day_start", "votecount", "day_end"} <= kinds
    return texts


def _plain(text: str) -> str:
    return text.replace("[b]", "").replace("[/b]", "").replace("**", "")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_village_public_drafts_keep_cards_lovers_and_the_confession_secret(lang, markup):
    from forummod.engine.types import Fact

    pb = phrasebook_for(lang, "village", "plain")
    joined = _plain("\n".join(village_public_texts(lang, markup)))
    # alive and never revealed: Cupid, Seer, Pyromaniac, Witch, both werewolves (P5 was confessed)
    secret = {pb.role(r) for r in ("cupid", "seer", "pyromaniac", "witch", "werewolf")}
    assert not [w for w in secret if w in joined], joined
    assert pb.role("guardian") in joined and pb.role("villager") in joined  # the dead are revealed
    assert pb.rejection("lover_target") not in joined  # the refused vote between lovers stays secret
    assert pb.word("result", "lovers") not in joined
    assert pb.fact(Fact.of("confessor_used", confessor="P1", target="P5")) in joined  # the target only


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_village_without_reveals_public_drafts_name_no_card(lang, markup):
    pb = phrasebook_for(lang, "village", "plain")
    joined = "\n".join(village_public_texts(lang, markup, **{"announce.reveal_cards": False}))
    cards = ("villager", "werewolf", "seer", "cupid", "witch", "guardian", "pyromaniac")
    assert not [pb.role(r) for r in cards if pb.role(r) in joined], joined


@pytest.mark.parametrize("lang", LANGUAGES)
def test_village_private_results_go_to_their_recipient_only(lang):
    """Each PM of Night 1 and Day 1 reaches the player it is about, and nobody else's PM repeats it."""
    from forummod.engine.types import Fact
    from forummod.render import build

    f, d = village_game()
    gv = village_view(f, d.phase.end + timedelta(seconds=1))
    pb = phrasebook_for(lang, "village", "plain")
    n1 = {pm.player: "\n".join(pm.results) for pm in build.build_night_results(gv, pb, "N1")}
    d1 = {pm.player: "\n".join(pm.results) for pm in build.build_night_results(gv, pb, "D1")}
    assert set(n1) == {"P1", "P2", "P3", "P4", "P5", "P6"}  # Cupid, Seer, the lovers (P4 is also the Witch), the pack
    assert set(d1) == {"P1"}  # the Confessor
    seer = pb.fact(Fact.of("seer_result", target="P5", card="werewolf"))
    assert seer in n1["P2"] and not [p for p, t in n1.items() if p != "P2" and seer in t]
    assert "P4" in n1["P3"] and "P3" in n1["P4"]  # each lover learns the other's name...
    assert pb.role("witch") not in n1["P3"] and pb.role("pyromaniac") not in n1["P4"]  # ...not the card
    assert d1["P1"] == pb.fact(Fact.of("confessor_result", target="P5", card="werewolf"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_village_werewolf_role_pms_name_no_partners(lang):
    """The pack learns its members, the White Werewolf among them, without their cards: a role PM
    listing the plain werewolves as partners would single him out."""
    from forummod.render import build

    from tests.engine.village_f8 import F8

    f = F8(roles={"P7": "white_werewolf"})
    f.night(1)
    gv = village_view(f, f.g.phases[0].start + timedelta(minutes=1))
    pb = phrasebook_for(lang, "village", "plain")
    for who in ("P5", "P6", "P7"):
        assert build.build_role_pm(gv, pb, who).partners == ()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("markup", MARKUPS)
def test_village_poster_is_public_but_not_who_hung_it(lang, markup):
    """VIL-S-POSTER: the dawn post shows the poster's holder, never the Scandalmonger's card."""
    from forummod.render import build

    from tests.engine.village_f8 import F8

    f = F8(roles={"P8": "scandalmonger"}, buildings={"P4": "church"})
    d = f.night(2, scandalmonger={"target": "P4"}).day
    pb = phrasebook_for(lang, "village", markup)
    post = build.build_day_start(village_view(f, d.start + timedelta(minutes=1)), pb, "D2")
    text = render_post("day_start", post, markup, lang)
    assert "P4" in text and phrasebook_for(lang, "village", "plain").role("scandalmonger") not in text
