"""The game script (offline, no server): it has every feature the brief asks for, its times are
fixed, and its [expected] results follow from its own data by the lupus-eresia rules."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from .script import GameScript

UTC = timezone.utc


@pytest.fixture(scope="module")
def g() -> GameScript:
    return GameScript.load()


def test_cast_gm_players_and_a_spectator(g):
    assert g.gm == "Narratore" and 8 <= len(g.players) <= 10
    assert set(g.roles) == set(g.players)
    assert g.spectators == ("Marta",) and "Marta" not in g.players
    assert len(set(g.accounts)) == len(g.accounts)


def test_game_thread_spans_several_pages_of_ten(g):
    assert g.per_page == 10
    assert [len(p) for p in g.pages("game")] == [10, 10, 8]
    assert [len(p) for p in g.pages("graveyard")] == [2]


def test_times_are_fixed_utc_on_the_first_days_of_march_2024(g):
    moments = [p.at for t in g.threads.values() for p in t] + [m.at for c in g.conversations for m in c.messages]
    assert all(m.tzinfo is not None and m.utcoffset() == timedelta(0) for m in moments)
    assert min(moments) == datetime(2024, 3, 1, 19, 0, tzinfo=UTC)  # 20:00 in Rome (CET)
    assert max(moments) < g.now
    assert g.deadlines()["D1_vote_close"] == datetime(2024, 3, 2, 21, 0, tzinfo=UTC)  # 22:00 in Rome


def test_script_has_every_feature_the_suite_needs(g):
    quoting = [p for p in g.game_posts if p.quote]
    assert quoting and g.post(quoting[0].quote).intent is not None  # a quoted vote
    assert quoting[0].intent is None  # ... that is not the quoter's vote
    edited = [p for p in g.game_posts if p.edited_at]
    assert edited and edited[0].body != edited[0].text
    close = g.deadlines()["D1_vote_close"]
    assert any(p.intent and p.intent.kind == "vote" and p.at > close for p in g.game_posts)  # a late vote
    assert any(p.intent and p.intent.kind == "unvote" and "Tolgo il voto" in p.text for p in g.game_posts)
    assert any("**Voto: Fede**" in p.text for p in g.game_posts)
    bodies = [m.body for c in g.conversations for m in c.messages]
    for phrase in ("Veggente: indago Fede", "sbraniamo Dora", "proteggiamo Dora", "voto segreto: Fede"):
        assert phrase in bodies


def test_reference_tally_matches_the_expected_day(g):
    want = g.expected["D1"]
    got = g.reference_tally()
    assert [(c.candidate, c.total, list(c.voters)) for c in got.public] == \
        [(c["candidate"], c["total"], c["voters"]) for c in want["public"]]
    assert [(c.candidate, c.total, list(c.voters), c.weights) for c in got.real] == \
        [(c["candidate"], c["total"], c["voters"], c.get("weights", {})) for c in want["real"]]
    assert list(got.not_voting) == want["not_voting"]
    assert [list(x) for x in got.late] == [[d["voter"], d["target"], d["post"]] for d in want["late"]]
    assert [list(x) for x in got.non_player] == [[d["voter"], d["target"], d["post"]] for d in want["non_player"]]
    assert got.lynch == want["lynch"]


def test_expected_nights_follow_from_the_pms(g):
    dl = g.deadlines()
    for night in ("N1", "N2"):
        deadline = dl[f"{night}_action_deadline"]
        valid = [f"{m.author} {m.action[0]} {m.action[1]}"
                 for c in g.conversations for m in c.messages if m.action and m.action[2] == night]
        assert sorted(valid) == sorted(g.expected[night]["actions"])
        assert all(m.at < deadline for c in g.conversations for m in c.messages
                   if m.action and m.action[2] == night)
    late = [m for c in g.conversations for m in c.messages if m.expect.startswith("late:")]
    assert late and all(m.at >= dl["N2_action_deadline"] for m in late)
    assert [m.author for c in g.conversations for m in c.messages if m.expect == "unparseable"] == \
        g.expected["N2"]["unparseable"]


def test_seed_plan_is_json_with_every_account_and_post(g):
    plan = json.loads(json.dumps(g.seed_plan()))
    assert plan["accounts"][0] == g.gm
    assert [len(t["posts"]) for t in plan["threads"]] == [28, 2]
    assert len(plan["pms"]) == len(g.conversations)


def test_lupus_ruleset_agrees_with_the_expected_day(g):
    """Cross-check with forummod's own lupus-eresia ruleset when it is importable."""
    pytest.importorskip("forummod.engine.rulesets.lupus_eresia")
    scenario = pytest.importorskip("tests.engine.scenario")
    dl = g.deadlines()
    sc = scenario.Scenario("lupus-eresia", players=list(g.players), roles=dict(g.roles), start=g.start)
    sc.night(1, start=g.start, deadline=dl["N1_action_deadline"], end=dl["D1_start"])
    sc.day(1, start=dl["D1_start"], deadline=dl["D1_vote_close"], end=dl["D1_end"])
    sc.night(2, start=dl["D1_end"], deadline=dl["N2_action_deadline"], end=dl["D2_start"])
    inputs = []
    for p in g.game_posts:
        if p.intent and p.author in g.players:
            inputs.append((p.at, "post", p))
    for c in g.conversations:
        for m in c.messages:
            verb_target = m.expect.removeprefix("late:")
            if m.expect not in ("gm", "unparseable"):
                inputs.append((m.at, "pm", (m, verb_target.partition("@")[0].split(":"))))
    for at, kind, item in sorted(inputs, key=lambda x: x[0]):  # the timeline is in time order
        if kind == "post":
            if item.intent.kind == "vote":
                sc.vote(item.author, item.intent.target, at=at)
            else:
                sc.unvote(item.author, at=at)
        else:
            m, (verb, target) = item
            sc.act(m.author, verb, target, at=at)
    before_close = sc.run(now=dl["D1_vote_close"] - timedelta(seconds=1))
    public = sc.rs.tally(before_close.state, dl["D1_vote_close"], public=True)
    run = sc.run(now=dl["D2_start"] + timedelta(minutes=1))
    real = run.tally_for("D1")
    want = g.expected["D1"]
    assert [(c.name, c.total, [v.voter for v in c.voters]) for c in real.candidates] == \
        [(c["candidate"], c["total"], c["voters"]) for c in want["real"]]
    assert [(c.name, c.total, [v.voter for v in c.voters]) for c in public.candidates] == \
        [(c["candidate"], c["total"], c["voters"]) for c in want["public"]]
    assert list(real.not_voting) == want["not_voting"]
    dead = {p.name for p in run.state.players if not p.alive}
    assert dead == {want["lynch"]} | set(g.expected["N1"]["deaths"]) | set(g.expected["N2"]["deaths"])
    assert {(r.kind, r.actor, r.reason) for r in run.rejections} == {("vote", "Dora", "late"),
                                                                      ("protect", "Carlo", "late")}
    for night in ("N1", "N2"):
        got = {(r.to, dict(r.fact.params).get("target"), dict(r.fact.params).get("verdict"))
               for phase, r in run.private if phase == night}
        assert got == {(x["to"], x["about"], x["verdict"]) for x in g.expected[night]["private"]}
