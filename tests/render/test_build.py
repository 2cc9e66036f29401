"""View-model builders on real engine runs: counting, ordering and what public posts may show."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

from forummod.engine.types import Candidate, Tally, VoteRecord
from forummod.model import NO_LYNCH, Issue, Post, PostVersion, Source
from forummod.render import build
from forummod.render.phrases import Phrasebook
from forummod.render.plan import plan_kind, role_pm_players
from forummod.render.view import GameView

from tests.engine.scenario import Scenario
from tests.render.samples import RULESET

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
ROLES = {"Ann": "mafia", "Bob": "town", "Cat": "cop", "Dan": "doctor", "Eve": "town", "Fay": "mafia", "Gus": "town"}


def pb(markup: str = "plain", lang: str = "en") -> Phrasebook:
    from forummod.render import phrasebook_for

    return phrasebook_for(lang, RULESET, markup)


def view(g: Scenario, now: datetime | None = None, approve_all: bool = True, **kw) -> GameView:
    run = g.run(now=now, approve_all=approve_all)
    return GameView("g", "Test Town", g.rs, run, now or (run.phases[-1].end + timedelta(seconds=1)),
                    timezone.utc, **kw)


def game(**options) -> Scenario:
    return Scenario("mafia-majority", PLAYERS, ROLES, options=options)


def test_public_count_orders_wagons_marks_l_minus_and_lists_non_voters_in_seat_order():
    g = game().day(1).vote("Bob", "Ann").vote("Cat", "Ann").vote("Dan", "Eve").vote("Ann", "Ann")
    gv = view(g, now=g.clock + timedelta(minutes=1))
    vc = build.build_votecount(gv, pb())
    assert [(w.name, w.count, w.to_majority) for w in vc.wagons] == [("Ann", "3", "1"), ("Eve", "1", "3")]
    assert [v.voter for v in vc.wagons[0].voters] == ["Bob", "Cat", "Ann"]
    assert vc.majority == "4" and vc.living == "7"
    assert vc.not_voting == ("Eve", "Fay", "Gus") and vc.not_voting_count == "3"
    assert not vc.closed and vc.public


def test_count_is_as_of_the_latest_vote_not_of_the_clock():
    g = game().day(1).vote("Bob", "Ann")
    vote_at = g.clock
    gv = view(g, now=vote_at + timedelta(hours=5))
    assert build.build_votecount(gv, pb()).as_of == pb().when(vote_at, timezone.utc)


def test_no_lynch_wagon_and_majority_marker():
    g = game().day(1)
    for v in ("Bob", "Cat", "Dan", "Eve"):
        g.vote(v, NO_LYNCH)
    gv = view(g, now=g.clock + timedelta(minutes=1), approve_all=False)
    w = build.build_votecount(gv, pb()).wagons[0]
    assert w.no_lynch and w.name == "" and w.at_majority and w.to_majority == ""


def test_public_view_of_a_closed_day_hides_secret_votes_weights_and_notes():
    src = Source("post", "1", 1)
    at = datetime(2026, 1, 5, 10, tzinfo=timezone.utc)
    secret = VoteRecord("Fay", "Bob", at, src, 1, weight=1.0, note="secret", secret=True)
    heavy = VoteRecord("Cat", "Ann", at + timedelta(minutes=1), src, 2, weight=3.0, note="Boia x3")
    plain = VoteRecord("Dan", "Bob", at + timedelta(minutes=2), src, 3)
    gm = Tally("D1", at, (Candidate("Ann", 3.0, (heavy,)), Candidate("Bob", 2.0, (secret, plain))), (), 7, 4)
    g = game().day(1).night(1)
    gv = view(g)
    gv = replace(gv, run=replace(gv.run, tallies=(gm,), public_tallies=()))  # no recorded thread view: derived
    public_weights = type(gv.ruleset)(replace(gv.ruleset.options, public_weights=True))  # as VIL-V-4
    shown = build.build_votecount(replace(gv, ruleset=public_weights), pb(), "D1", public=True)
    assert [(w.name, w.count, [v.voter for v in w.voters]) for w in shown.wagons] == \
        [("Ann", "3", ["Cat"]), ("Bob", "1", ["Dan"])]
    secret_weights = type(gv.ruleset)(gv.ruleset.options)
    secret_weights.public_weights = False  # as Lupus hides the Boia (LUP-D11)
    public = build.build_votecount(replace(gv, ruleset=secret_weights), pb(), "D1", public=True)
    assert [(w.name, w.count, [v.voter for v in w.voters]) for w in public.wagons] == \
        [("Ann", "1", ["Cat"]), ("Bob", "1", ["Dan"])]
    assert all(v.weight == "" and v.note == "" and not v.secret for w in public.wagons for v in w.voters)
    assert public.not_voting == ("Fay",)  # voted only in secret: the thread sees no vote
    private = build.build_votecount(gv, pb(), "D1", public=False)
    assert private.wagons[0].voters[0].weight == "3" and private.wagons[0].voters[0].note == "Boia x3"
    assert private.wagons[1].voters[0].secret and private.closed


def test_dawn_post_is_drafted_from_the_pending_night_with_the_reveal():
    g = game().day(1).vote("Bob", "Gus").vote("Cat", "Gus").vote("Dan", "Gus").vote("Eve", "Gus")
    g.night(1).act("Ann", "kill", "Bob").act("Cat", "check", "Fay").day(2)
    g.decide("lynch:D1", at=g.phases[0].end)
    gv = view(g, now=g.phases[-1].start + timedelta(minutes=5), approve_all=False)
    assert gv.state.proposal("night:N1").status == "pending"
    ds = build.build_day_start(gv, pb())
    assert ds.head.phase_id == "D2" and ds.night == "Night 1" and ds.pending
    assert ds.announcements == ("Bob was killed by the mafia during the night.",)
    assert [(d.player, d.role, d.revealed) for d in ds.deaths] == [("Bob", "Vanilla Townie", True)]
    assert "Bob" not in ds.living and "Gus" not in ds.living and ds.living_count == "5"
    assert ds.majority == "3"


def test_dawn_post_keeps_the_role_secret_when_the_rules_do():
    g = game(reveal_roles=False).day(1).night(1).act("Ann", "kill", "Cat").day(2)
    gv = view(g, now=g.phases[-1].start + timedelta(minutes=5))
    ds = build.build_day_start(gv, pb())
    assert [(d.player, d.role, d.revealed) for d in ds.deaths] == [("Cat", "", False)]
    assert ds.deaths[0].sentence == "Cat's role is not revealed."


def test_end_of_day_post_for_a_tie_says_no_lynch_with_the_final_count():
    g = game().day(1).vote("Bob", "Eve").vote("Cat", "Ann").night(1)
    gv = view(g, now=g.phases[0].end + timedelta(minutes=1))
    de = build.build_day_end(gv, pb())
    assert de.no_lynch and de.deaths == ()
    assert de.announcements == ("The vote is tied: there is no lynch today.",)
    assert {w.name for w in de.wagons} == {"Eve", "Ann"} and de.next_phase == "Night 1"


def test_night_results_give_one_pm_per_acting_player():
    g = game().day(1).night(1).act("Cat", "check", "Fay").act("Ann", "kill", "Gus").day(2)
    pms = build.build_night_results(view(g, now=g.phases[-1].start + timedelta(minutes=1)), pb())
    assert [(p.player, p.night, p.results) for p in pms] == \
        [("Cat", "Night 1", ("Your investigation of Fay returns GUILTY: they are mafia.",))]


def test_role_pms_tell_the_mafia_their_partners_and_no_one_else():
    gv = view(game().day(1), now=datetime(2026, 1, 5, 9, 30, tzinfo=timezone.utc))
    ann = build.build_role_pm(gv, pb(), "Ann")
    bob = build.build_role_pm(gv, pb(), "Bob")
    assert ann.role == "Mafia Goon" and ann.partners == ("Fay",) and ann.faction == "Mafia"
    assert bob.partners == () and bob.first_phase == "Day 1"
    assert str(bob.description).startswith("You have no night action.")


def test_role_pms_are_planned_in_the_first_phase_and_later_only_for_replacements():
    g = game().day(1)
    assert len(role_pm_players(view(g, now=datetime(2026, 1, 5, 10, tzinfo=timezone.utc)))) == 7
    g.night(1).day(2).gm("replace", "Bob", "Zed", at=datetime(2026, 1, 6, 10, tzinfo=timezone.utc))
    late = view(g, now=datetime(2026, 1, 6, 10, 30, tzinfo=timezone.utc))
    assert [p.name for p in role_pm_players(late)] == ["Zed"]
    assert [d.slot for d in plan_kind(late, pb(), "role_pm")] == ["Zed"]


def test_game_over_lists_every_seat_with_role_and_winners():
    g = game().day(1).vote("Bob", "Ann").vote("Cat", "Ann").vote("Dan", "Ann").vote("Eve", "Ann")
    g.night(1).day(2).vote("Bob", "Fay").vote("Cat", "Fay").vote("Dan", "Fay")
    go = build.build_game_over(view(g), pb())
    assert go.result_key == "town" and go.result == "Game over: the Town wins!"
    assert [r.player for r in go.roles] == PLAYERS
    ann = go.roles[0]
    assert (ann.role, ann.faction, ann.alive, ann.died, ann.winner) == ("Mafia Goon", "Mafia", False, "Day 1", False)
    assert go.roles[1].winner and go.roles[1].alive


@dataclass(frozen=True)
class FakeFinding:
    """Any object with the checks module's Finding attributes will do."""

    rule: str | None
    code: str
    player: str | None
    source: Source | None
    at: datetime | None
    message: str
    severity: str = "warning"
    key: str = "k"


def test_gm_warnings_gather_findings_issues_rejections_and_pending_proposals():
    g = game().day(1).vote("Bob", "Ann").vote("Cat", "Ann").vote("Dan", "Ann").vote("Eve", "Ann")
    g.vote("Zed", "Ann")
    gv = view(g, now=g.clock + timedelta(minutes=1), approve_all=False)
    t = g.clock
    gv = replace(gv, findings=(FakeFinding("LUP-G2", "dead_post", "Ann", Source("post", "9", 9), t, "dead posting"),),
                 issues=(Issue("unknown_name", "unknown name 'Bo'", t, Source("post", "8", 8), "Cat",
                               details="[b]Vote: Bo[/b]"),
                         Issue("old", "before the phase", t - timedelta(days=30))))
    w = build.build_warnings(gv, pb())
    assert [f.code for f in w.findings] == ["dead_post"] and w.findings[0].link.label == "#9"
    assert [i.code for i in w.issues] == ["unknown_name"] and w.issues[0].quote == "[b]Vote: Bo[/b]"
    assert [(r.player, r.code) for r in w.rejections] == [("Zed", "late")]
    assert [p.key for p in w.pending] == ["lynch:D1"]
    assert w.pending[0].approve == "forummod gm --game g approve lynch:D1"
    assert "Ann has been lynched!" in w.pending[0].announcements
    assert w.total == "4" and not w.empty


def _post(author: str, at: datetime, n: int) -> Post:
    return Post("f", "game", str(n), author, at, (PostVersion(1, "<p>hi</p>", "h", at),), number=n)


def test_prod_lists_silent_living_players_longest_silence_first_from_posts():
    g = game().day(1, hours=100)
    start = g.phases[0].start
    posts = tuple(_post(p, start + timedelta(hours=1 + i), i + 1) for i, p in enumerate(PLAYERS) if p != "Eve")
    posts += (_post("Ann", start + timedelta(hours=60), 10),)
    gv = view(g, now=start + timedelta(hours=54), posts=posts, exempt=("Gus",))
    pr = build.build_prod(gv, pb())
    assert [(i.player, i.hours) for i in pr.players] == [("Eve", "54"), ("Ann", "53"), ("Bob", "52"), ("Cat", "51"),
                                                         ("Dan", "50"), ("Fay", "48")]
    assert pr.players[0].last_post == "" and pr.players[1].link.label == "#1"


def test_prod_prefers_the_checks_prod_findings():
    g = game().day(1, hours=100)
    t = g.phases[0].start
    gv = view(g, now=t + timedelta(hours=50),
              findings=(FakeFinding(None, "prod", "Dan", Source("post", "3", 3), t + timedelta(hours=1), "quiet"),
                        FakeFinding(None, "dead_post", "Eve", None, t, "other")))
    assert [(i.player, i.hours) for i in build.build_prod(gv, pb()).players] == [("Dan", "49")]


def test_open_day_public_count_hides_the_boias_secret_vote_and_lists_him_as_not_voting():
    """lupus-eresia LUP-R7: the Boia's PM vote weighs 3 and is secret; the GM view shows it."""
    players = ["Aldo", "Bianca", "Carlo", "Dora", "Elio", "Fede", "Gina"]
    roles = {"Aldo": "seer", "Bianca": "farmer", "Carlo": "farmer", "Dora": "farmer", "Elio": "executioner",
             "Fede": "werewolf", "Gina": "werewolf"}
    g = Scenario("lupus-eresia", players, roles).night(1).day(1, hours=24)
    g.vote("Aldo", "Fede").act("Elio", "secret_vote", "Fede", channel="pm")
    gv = view(g, now=g.clock + timedelta(minutes=1))
    public = build.build_votecount(gv, pb(lang="it"))
    assert [(w.name, w.count, [v.voter for v in w.voters]) for w in public.wagons] == [("Fede", "1", ["Aldo"])]
    assert "Elio" in public.not_voting
    gm = build.build_votecount(gv, pb(lang="it"), public=False)
    elio = gm.wagons[0].voters[1]
    assert (gm.wagons[0].count, elio.voter, elio.weight, elio.secret) == ("4", "Elio", "3", True)
    assert "Elio" not in gm.not_voting


def test_the_jager_s_call_to_shoot_leaves_the_end_of_day_post_once_the_shot_is_applied():
    """one-night ON-V4, D9: "X holds the Jager card and must shoot now" is shown until the shot
    is applied; afterwards the post says who was shot, not that a shot is still owed."""
    from forummod.render import phrasebook_for

    from tests.render import ruleset_games as games

    g = games.one_night()
    pb_nl = phrasebook_for("nl", "one-night", "bbcode")
    day = g.phases[-1]
    before = build.build_day_end(games.view(g, day.end + timedelta(minutes=5)), pb_nl, "D1")
    after = build.build_day_end(games.view(g), pb_nl, "D1")
    must = pb_nl.fact(next(f for _, f in games.view(g).run.facts if f.key == "hunter_must_shoot"))
    assert must in before.announcements
    assert must not in after.announcements
    assert any("Kraken" in a for a in after.announcements)  # the shot itself is announced


def test_lupus_role_pms_tell_a_werewolf_who_the_grumpy_wolf_is_and_the_grumpy_wolf_nobody():
    """lupus-eresia LUP-R9: the Lupi Mannari know the Lupo Scorbutico; LUP-R10: it does not know
    them. Every language and markup: Fede's PM names Vito as the Scorbutico, Vito's names no wolf."""
    from forummod.render import LANGUAGES, MARKUPS, phrasebook_for, render_post

    from tests.render import ruleset_games as games

    g = games.lupus()
    gv = games.view(g, g.phases[0].start + timedelta(minutes=5))
    for lang in LANGUAGES:
        for markup in MARKUPS:
            pb = phrasebook_for(lang, "lupus-eresia", markup)
            fede = build.build_role_pm(gv, pb, "Fede")
            vito = build.build_role_pm(gv, pb, "Vito")
            grumpy = pb.role("grumpy_wolf")
            fede_text = render_post("role_pm", fede, markup, lang)
            vito_text = render_post("role_pm", vito, markup, lang)
            assert len(fede.notes) == 1 and "Vito" in fede.notes[0] and "Gina" in fede.notes[0], (lang, markup)
            assert grumpy.lower() in fede.notes[0].lower(), (lang, markup, fede.notes[0])
            assert str(fede.notes[0]) in fede_text and "⟨" not in fede_text
            assert "Fede" not in vito_text and "Gina" not in vito_text and vito.partners == (), (lang, markup)
