"""Conduct checks: posting places (LUP-G2, LUP-G3), refused votes (LUP-X10, VIL-V-1, VIL-V-3),
ON-V2 thread/PM mismatch (ON-X16), ON-D4 verbatim PM copies, edited votes, refused actions."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from forummod.checks import GmPm, run_checks
from forummod.checks.conduct import (
    check_action_rejections, check_dead_posts, check_edited_votes, check_graveyard_posts, check_pm_vote_mismatch,
    check_vote_rejections,
)
from forummod.checks.verbatim import check_verbatim
from forummod.engine.rulesets.mafia_majority import MafiaMajority
from forummod.engine.types import Candidate, Death, Rejection, Tally, VoteRecord
from forummod.model import Issue, Source, UnvoteIntent, VoteIntent

from tests.checks.helpers import T0, codes, ctx, day, h, night, post, src
from tests.engine.scenario import Scenario

P = ["Aldo", "Bea", "Ciro"]
D1 = day(1, T0, hours=24)


# --------------------------------------------------------------------------- LUP-G2, LUP-G3


def test_LUP_G2_dead_player_posting_in_the_game_thread_after_death_is_reported():
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    before, at_death, after = post("Aldo", h(1)), post("Aldo", h(2)), post("Aldo", h(3))
    found = check_dead_posts(ctx(P, phases=(D1,), now=h(5), game_posts=[before, at_death, after], dead=dead,
                                 ruleset="lupus-eresia"))
    assert codes(found) == [("dead_post", "Aldo")]
    f = found[0]
    assert f.rule == "LUP-G2" and f.source.id == after.post_id and f.link == after.url
    assert f.key == f"dead_post:1:{after.post_id}" and f.quote == "text"


def test_dead_posting_is_reported_without_a_rule_id_in_rulesets_that_do_not_name_it():
    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    found = check_dead_posts(ctx(P, phases=(D1,), now=h(5), game_posts=[post("Aldo", h(3))], dead=dead))
    assert codes(found) == [("dead_post", "Aldo")] and found[0].rule is None


def test_LUP_G2_living_player_posting_in_the_graveyard_is_reported_and_the_dead_may_post_there():
    dead = {"Bea": Death("D1", "lynch", at=h(2))}
    grave = [post("Aldo", h(3), thread="2"), post("Bea", h(4), thread="2"), post("Bea", h(1), thread="2")]
    found = check_graveyard_posts(ctx(P, phases=(D1,), now=h(5), graveyard=grave, dead=dead, ruleset="lupus-eresia"))
    assert [(f.code, f.player, f.rule) for f in found] == [
        ("graveyard_post", "Aldo", "LUP-G2"), ("graveyard_post", "Bea", "LUP-G2")]  # Bea's post before death
    assert found[0].source.thread == "graveyard"


def test_LUP_G3_living_becchino_may_read_but_a_post_in_the_cemetery_is_a_violation():
    grave = [post("Ciro", h(3), thread="2")]
    alive = check_graveyard_posts(ctx(P, phases=(D1,), now=h(5), graveyard=grave, roles={"Ciro": "gravedigger"},
                                      ruleset="lupus-eresia"))
    assert [(f.code, f.rule) for f in alive] == [("gravedigger_post", "LUP-G3")]
    assert "Becchino" in alive[0].message
    dead = check_graveyard_posts(ctx(P, phases=(D1,), now=h(5), graveyard=grave, roles={"Ciro": "gravedigger"},
                                     dead={"Ciro": Death("D1", "wolves", at=h(1))}, ruleset="lupus-eresia"))
    assert dead == []


def test_gm_and_outsiders_posting_anywhere_are_not_players():
    grave = [post("GM", h(3), thread="2"), post("Spectator", h(3), thread="2")]
    assert check_graveyard_posts(ctx(P, phases=(D1,), now=h(5), graveyard=grave)) == []


# --------------------------------------------------------------------------- refused votes


def test_LUP_X10_vote_at_2201_is_reported_late_under_LUP_T1():
    rome = ZoneInfo("Europe/Rome")
    start = datetime(2026, 3, 2, 9, 0, tzinfo=rome)
    close = datetime(2026, 3, 2, 22, 0, tzinfo=rome)
    d = day(1, start, hours=13.25, vote_close=close)  # LUP-T1 22:00, LUP-T2 22:15
    r = Rejection("vote", "Aldo", "late", datetime(2026, 3, 2, 22, 1, tzinfo=rome), src("77"), target="Bea")
    found = check_vote_rejections(ctx(P, phases=(d,), now=close + timedelta(minutes=10), rejections=(r,),
                                      ruleset="lupus-eresia", tz="Europe/Rome"))
    assert [(f.code, f.player, f.rule) for f in found] == [("late_vote", "Aldo", "LUP-T1")]
    assert "closed at 2026-03-02 22:00 CET" in found[0].message and "not counted" in found[0].message
    assert found[0].link == "https://forum.example.org/p/77"


class LupusLike(MafiaMajority):
    vote_rule = "LUP-V1"  # what the base class cites on every vote it refuses


def test_LUP_T1_is_cited_for_a_late_vote_instead_of_the_generic_vote_rule_but_specific_rules_stay():
    rj = (Rejection("vote", "Aldo", "late", h(25), src("78"), target="Bea", rule="LUP-V1"),
          Rejection("vote", "Bea", "no_vote_right", h(25), src("79"), target="Aldo", rule="VIL-A-15"))
    found = check_vote_rejections(ctx(P, phases=(D1,), now=h(26), rejections=rj, rs=LupusLike(),
                                      ruleset="lupus-eresia"))
    assert [(f.code, f.rule) for f in found] == [("late_vote", "LUP-T1"), ("no_vote_right", "VIL-A-15")]


def test_a_vote_outside_the_window_after_the_close_is_late_and_one_before_the_vote_opens_is_not():
    rj = (Rejection("vote", "P1", "vote_not_open", h(25), src("80"), target="P2", rule="VIL-V-2"),
          Rejection("vote", "P2", "vote_not_open", h(0.5), src("81"), target="P1", rule="VIL-V-2"))
    d = day(1, T0, hours=30, vote_close=h(24))
    found = check_vote_rejections(ctx(["P1", "P2"], phases=(d,), now=h(26), rejections=rj, ruleset="village"))
    assert [(f.code, f.player, f.rule) for f in found] == [("late_vote", "P1", "VIL-V-2")]


def test_late_vote_refused_by_the_engine_is_reported_and_keeps_the_engine_rule():
    g = Scenario("mafia-majority", ["Ann", "Bob", "Cat", "Dan", "Eve"], {"Ann": "mafia"})
    close = g.cursor + timedelta(hours=10)
    g.day(1, hours=12, deadline=close).vote("Bob", "Ann")
    g.vote("Cat", "Ann", at=close + timedelta(minutes=1))
    run = g.run(now=close + timedelta(minutes=30))
    c = ctx(["Ann", "Bob", "Cat", "Dan", "Eve"], phases=run.phases, now=close + timedelta(minutes=30), run=run)
    found = check_vote_rejections(c)
    assert [(f.code, f.player) for f in found] == [("late_vote", "Cat")]
    assert f"late_vote:post::" in found[0].key


def test_VIL_V_1_silenced_voters_and_voters_without_a_vote_are_reported():
    """VIL-T-09: P2 silenced by the Schoolmarm (VIL-B-SCHOOL), P3 the Schoolmarm herself."""
    rj = (Rejection("vote", "P2", "silenced", h(3), src("10"), target="P5"),
          Rejection("vote", "P3", "no_vote_right", h(4), src("11"), target="P5", message="the Schoolmarm never votes"))
    found = check_vote_rejections(ctx(["P1", "P2", "P3", "P5"], phases=(D1,), now=h(5), rejections=rj,
                                      ruleset="village"))
    assert [(f.code, f.player, f.rule) for f in found] == [("silenced_vote", "P2", "VIL-V-1"),
                                                           ("no_vote_right", "P3", "VIL-V-1")]
    assert "silenced" in found[0].message and "Schoolmarm never votes" in found[1].message


def test_VIL_T_08_vote_before_the_barkeeper_is_void_and_its_author_must_be_told():
    rj = (Rejection("vote", "P1", "before_barkeeper", h(3), src("20"), target="P5", rule="VIL-V-3"),
          Rejection("vote", "P4", "barkeeper_immune", h(3), src("21"), target="P2", rule="VIL-B-TAVERN"))
    found = check_vote_rejections(ctx(["P1", "P2", "P4", "P5"], phases=(D1,), now=h(5), rejections=rj,
                                      ruleset="village"))
    assert [(f.code, f.player, f.rule, f.severity) for f in found] == [
        ("vote_before_barkeeper", "P1", "VIL-V-3", "warning")]
    assert "tell P1 to vote again" in found[0].message


def test_other_vote_rejections_are_left_to_the_vote_count():
    rj = (Rejection("vote", "Aldo", "dead_target", h(3), src("30"), target="Bea"),)
    assert check_vote_rejections(ctx(P, phases=(D1,), now=h(5), rejections=rj)) == []


# --------------------------------------------------------------------------- ON-V2 (ON-X16)


class PmVotes(MafiaMajority):
    """Counts PM votes only, thread votes are declarations (as one-night does, ON-V1/ON-V2)."""

    def counts_channel(self, ev):
        return ev.channel in ("pm", "gm")


def _pm_tally(votes: dict[str, str]) -> Tally:
    cands = {}
    for i, (voter, target) in enumerate(votes.items()):
        cands.setdefault(target, []).append(VoteRecord(voter, target, h(5), Source("message", id=f"m{i}"), i))
    return Tally("D1", h(6), tuple(Candidate(t, len(v), tuple(v)) for t, v in cands.items()), (), 5)


def test_ON_X16_thread_vote_differing_from_the_pm_vote_is_reported_to_the_gm_only():
    names = ["Kraken", "Fenna", "Daan", "Berber"]
    its = (VoteIntent("Kraken", "Fenna", h(2), src("40"), raw="Ik stem op Fenna"),
           VoteIntent("Berber", "Daan", h(2), src("41")),
           VoteIntent("Fenna", "Daan", h(3), src("42")))
    c = ctx(names, phases=(D1,), now=h(30), rs=PmVotes(), ruleset="one-night", intents=its,
            tallies=(_pm_tally({"Kraken": "Daan", "Berber": "Daan"}),))
    found = check_pm_vote_mismatch(c)
    assert [(f.code, f.player, f.rule) for f in found] == [("pm_vote_mismatch", "Fenna", "ON-V2"),
                                                           ("pm_vote_mismatch", "Kraken", "ON-V2")]
    by = {f.player: f.message for f in found}
    assert "declared Fenna" in by["Kraken"] and "counted PM vote is Daan" in by["Kraken"]
    assert "sent no PM vote" in by["Fenna"]
    assert all(f.severity == "info" for f in found)


def test_ON_V2_latest_declaration_counts_and_an_unvote_matches_no_pm_vote():
    its = (VoteIntent("Kraken", "Fenna", h(1), src("40")), VoteIntent("Kraken", "Daan", h(2), src("41")),
           UnvoteIntent("Berber", h(2), src("42")))
    c = ctx(["Kraken", "Fenna", "Daan", "Berber"], phases=(D1,), now=h(30), rs=PmVotes(), intents=its,
            tallies=(_pm_tally({"Kraken": "Daan"}),))
    assert check_pm_vote_mismatch(c) == []


def test_ON_V2_declarations_after_the_vote_closed_are_ignored_and_thread_counting_rulesets_are_skipped():
    its = (VoteIntent("Kraken", "Fenna", h(25), src("40")),)
    c = ctx(["Kraken", "Fenna"], phases=(D1,), now=h(30), rs=PmVotes(), intents=its)
    assert check_pm_vote_mismatch(c) == []
    its = (VoteIntent("Kraken", "Fenna", h(2), src("40")),)
    assert check_pm_vote_mismatch(ctx(["Kraken", "Fenna"], phases=(D1,), now=h(30), intents=its)) == []


# --------------------------------------------------------------------------- ON-D4 verbatim


ROLE_PM = ("<p>Je bent de <b>Ziener</b>. Je mag vannacht de kaart van een andere speler bekijken, "
           "of twee kaarten in het midden.</p>")


def _pms(at=T0 - timedelta(hours=1)):
    return {"Kraken": (GmPm("Kraken", ROLE_PM, at, Source("message", id="pm1")),)}


def test_ON_D4_post_copying_twelve_words_of_the_gm_pm_is_flagged_case_and_space_insensitive():
    p = post("Kraken", h(2), html="Ik ben de ZIENER!! je  BENT de ziener. je mag vannacht de kaart\nvan een "
                                  "andere speler bekijken, zei de GM")
    found = check_verbatim(ctx(["Kraken", "Fenna"], phases=(D1,), now=h(3), game_posts=[p], gm_pms=_pms(),
                               ruleset="one-night"))
    assert [(f.code, f.player, f.rule) for f in found] == [("verbatim_pm", "Kraken", "ON-D4")]
    assert "copies 14 consecutive words" in found[0].message
    assert found[0].key == f"verbatim_pm:1:{p.post_id}"


def test_ON_D4_eleven_words_are_not_a_copy_and_the_threshold_is_configurable():
    p = post("Kraken", h(2), html="volgens mij: de Ziener, je mag vannacht de kaart van een andere speler niet zien")
    c = dict(phases=(D1,), now=h(3), game_posts=[p], gm_pms=_pms())
    assert check_verbatim(ctx(["Kraken"], **c)) == []  # "de ziener ... andere speler": 11 words
    found = check_verbatim(ctx(["Kraken"], verbatim_words=11, **c))
    assert codes(found) == [("verbatim_pm", "Kraken")] and "copies 11 consecutive words" in found[0].message
    assert check_verbatim(ctx(["Kraken"], verbatim_words=0, **c)) == []


def test_ON_D4_quotes_later_pms_and_other_players_pms_are_not_copies():
    text = "je bent de ziener je mag vannacht de kaart van een andere speler bekijken"
    quoted = post("Kraken", h(2), html=f"<blockquote>{text}</blockquote> dat zei de GM")
    other = post("Fenna", h(2), html=text)
    c = ctx(["Kraken", "Fenna"], phases=(D1,), now=h(3), game_posts=[quoted, other], gm_pms=_pms())
    assert check_verbatim(c) == []
    early = post("Kraken", h(2), html=text)
    assert check_verbatim(ctx(["Kraken"], phases=(D1,), now=h(3), game_posts=[early], gm_pms=_pms(at=h(2.5)))) == []


def test_ON_D4_a_copy_removed_by_an_edit_is_still_reported():
    text = "je bent de ziener je mag vannacht de kaart van een andere speler bekijken"
    p = post("Kraken", h(2), versions=(text, "oops"))
    found = check_verbatim(ctx(["Kraken"], phases=(D1,), now=h(3), game_posts=[p], gm_pms=_pms()))
    assert len(found) == 1 and "since edited" in found[0].message


# --------------------------------------------------------------------------- edited votes, actions


def test_edited_vote_posts_become_findings_keyed_by_the_post():
    issue = Issue("edited_vote", "Aldo edited the votes of post #12: “VOTE: Bea” -> “VOTE: Ciro”",
                  h(2), src("12"), "Aldo", details="original (v1): VOTE: Bea\nlatest (v2): VOTE: Ciro")
    found = check_edited_votes(ctx(P, phases=(D1,), now=h(3), issues=(issue, Issue("unknown_name", "x"))))
    assert [(f.code, f.player, f.key) for f in found] == [("edited_vote", "Aldo", "edited_vote:post:game:12")]
    assert "latest (v2)" in found[0].details and "\n" not in found[0].message


def test_invalid_and_late_night_actions_refused_by_the_engine_are_reported():
    g = Scenario("mafia-majority", ["Ann", "Bob", "Cat"], {"Ann": "mafia", "Cat": "cop"})
    g.day(1, hours=1).night(1, hours=12, deadline=g.cursor + timedelta(hours=13))
    deadline = g.phases[-1].action_deadline
    g.act("Bob", "check", "Ann")  # Bob is town: no such power
    g.act("Cat", "check", "Ann", at=deadline + timedelta(minutes=5))
    run = g.run(now=deadline + timedelta(minutes=30))
    c = ctx(["Ann", "Bob", "Cat"], phases=run.phases, now=deadline + timedelta(minutes=30), run=run)
    found = check_action_rejections(c)
    assert sorted((f.code, f.player) for f in found) == [("invalid_action", "Bob"), ("late_action", "Cat")]
    assert all(f.severity == "warning" for f in found)
    assert any("wrong_role" in f.message for f in found)


def test_run_checks_gathers_every_family_and_turns_a_crash_into_a_finding():
    def broken(c):
        raise ValueError("odd post")

    dead = {"Aldo": Death("D1", "lynch", at=h(2))}
    c = ctx(P, phases=(D1, night(1, h(24))), now=h(25), game_posts=[post("Aldo", h(3))], dead=dead)
    out = run_checks(c, (check_dead_posts, broken))
    assert [(f.code, f.severity) for f in out] == [("check_failed", "error"), ("dead_post", "warning")]
