"""The vote history equals `tally --at` at every instant (issue 32, item 1), in both views."""

from __future__ import annotations

import pytest

from forummod.demo import script as S
from forummod.engine.events import RANK_INPUT
from forummod.game_history import analyse_with_history
from forummod.report import closed_public_tally
from forummod.service import analyse_game, load_inputs

from tests.history.demo_game import demo_workspace


def counted(t):
    """What a count says: each candidate's total and voters (with weights), who is not voting."""
    if t is None:
        return None
    return ([(c.name, c.total, [(v.voter, v.weight) for v in c.voters]) for c in t.candidates],
            sorted(t.not_voting), t.majority)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    ws = demo_workspace(tmp_path_factory.mktemp("demo"))
    a, h = analyse_with_history(ws, "demo")
    yield ws, a, h
    ws.close()


def test_history_equals_tally_at_before_every_post_of_the_demo_game(demo):
    ws, a, h = demo
    posts = [p for p in load_inputs(ws, "demo").posts["game"] if p.number is not None]
    compared = 0
    for p in posts:
        at_n = analyse_game(ws, "demo", until_post=p.number, now=p.created_at)
        key = (p.created_at, RANK_INPUT, float(p.number))
        ph = at_n.state.phase
        if ph is None:
            continue
        if ph.kind == "day":
            day = h.day(ph.name)
            assert counted(day.count_before(key)) == counted(at_n.run.current_tally), f"GM view before post {p.number}"
            pub = h.day(ph.name, public=True)
            live = at_n.ruleset.tally(at_n.state, at_n.now, public=True) if at_n.ruleset.voting_open(at_n.state) \
                else closed_public_tally(at_n, at_n.run.current_tally)
            assert counted(pub.count_before(key)) == counted(live), f"public view before post {p.number}"
            compared += 1
        elif at_n.run.current_tally is not None:  # at night `tally` shows the count the day closed with
            day = h.day(at_n.run.current_tally.phase)
            assert counted(day.final) == counted(at_n.run.current_tally), f"night before post {p.number}"
            compared += 1
    assert compared >= 20


def test_every_vote_change_of_the_demo_day_is_a_row_with_its_post(demo):
    _, _, h = demo
    d1 = h.day("D1")
    rows = [(c.source.number if c.source and c.source.kind == "post" else None, c.voter, c.before, c.after,
             c.counted, c.reason) for c in d1.changes]
    assert (14, "Lia", "Fede", None, True, "") in rows  # the unvote
    assert (16, "Dora", "Fede", "Gina", False, "late") in rows  # after the vote close
    assert (11, "Ugo", None, "Fede", True, "") in rows  # the edited vote counts as edited
    assert not any(r[0] == 5 for r in rows)  # Carlo's quoted vote never counted
    assert counted(d1.final) == counted(analyse_game(demo[0], "demo").run.tally_for("D1"))


def test_the_boias_secret_vote_is_a_gm_row_and_never_a_public_one(demo):
    """LUP-R7, LUP-D11: the GM sees Elio's secret x3 on Fede; the thread sees his public vote."""
    _, _, h = demo
    gm = [c for c in h.day("D1").changes if c.voter == "Elio"]
    assert [(c.before, c.after, c.weight, "secret" in c.notes) for c in gm] == [(None, "Dora", 1.0, False),
                                                                              ("Dora", "Fede", 3.0, True)]
    pub_days = h.view(public=True)
    for day in pub_days:
        for c in day.changes:
            assert "secret" not in c.notes and c.weight <= 1.0 and not (c.source and c.source.kind == "message")
        for p in day.points:
            assert all(not v.secret and v.weight == 1.0 for cand in p.tally.candidates for v in cand.voters)
    assert [(c.before, c.after) for c in h.day("D1", public=True).changes if c.voter == "Elio"] == [(None, "Dora")]


# --------------------------------------------------------------------------- a hammer, a hidden double vote

from tests.render.game import ArchiveGame, at, day_one  # noqa: E402


class DoubleVoterGame(ArchiveGame):
    """tests/render/game.py's day one with Dan a secret double voter (mafia-majority's
    `players[].votes = 2`, `public_weights = false` by default)."""

    def write(self):
        path = super().write()
        text = path.read_text(encoding="utf-8").replace('{ name = "Dan", role = "doctor" }',
                                                        '{ name = "Dan", role = "doctor", votes = 2 }')
        path.write_text(text, encoding="utf-8")
        return path


def hammer_game(root):
    """Ann: Bob, Cat, Dan (x2) = 4 of a majority of 5; Eve's vote is the hammer (the thread sees 4)."""
    g = day_one(root)
    g.__class__ = DoubleVoterGame
    g.now = at(7)
    return g


def test_the_hammer_is_marked_in_the_gm_view_and_not_where_the_thread_sees_no_majority(tmp_path):
    ws = hammer_game(tmp_path).workspace()
    a, h = analyse_with_history(ws, "g")
    gm, pub = h.day("D1"), h.day("D1", public=True)
    assert gm.hammer is not None and (gm.hammer.candidate, gm.hammer.total, gm.hammer.source.number) == ("Ann", 5.0, 6)
    assert [c.notes for c in gm.changes if c.voter == "Eve"] == [("hammer",)]
    assert [c.weight for c in gm.changes if c.voter == "Dan"] == [2.0]
    assert pub.hammer is None  # 4 of 5 in the thread's count: marking it would reveal Dan's second vote
    assert max(c.total for p in pub.points for c in p.tally.candidates) == 4.0
    assert all(c.weight <= 1.0 and "weight" not in c.notes for c in pub.changes)
    assert a.ruleset.public_weights is False
    # the day ended at the hammer: the chart's day ends there too
    assert gm.end == at(5) and not gm.open
    ws.close()


def test_history_equals_tally_at_in_a_hammered_game_with_a_double_voter(tmp_path):
    ws = hammer_game(tmp_path).workspace()
    _, h = analyse_with_history(ws, "g")
    for p in load_inputs(ws, "g").posts["game"]:
        at_n = analyse_game(ws, "g", until_post=p.number, now=p.created_at)
        key = (p.created_at, RANK_INPUT, float(p.number))
        if at_n.state.phase is not None and at_n.state.phase.kind == "day":
            assert counted(h.day("D1").count_before(key)) == counted(at_n.run.current_tally), p.number
    ws.close()


# --------------------------------------------------------------------------- a revote (witch-hunt)


def test_a_revote_is_a_new_ballot_in_the_same_days_history():
    """WH-D2, WH-D8: 4-4-2 goes to a revote between V1 and V2; the history shows the cleared
    ballot as such and the second round's votes after it, in one day."""
    from datetime import timedelta

    from forummod.engine.core import run_game
    from forummod.engine.history import HistoryRecorder
    from tests.engine.test_witch_hunt import TEN, trial_day
    from tests.engine.witch_hunt_helpers import game, split, votes_at

    g = game(TEN)
    close = trial_day(g)
    votes_at(g, g.clock, split({"V1": 4, "V2": 4, "V3": 2}, TEN))
    votes_at(g, close, split({"V1": 5, "V2": 5}, TEN))
    plain = g.run()
    recorder = HistoryRecorder(g.rs)
    now = g.phases[-1].end + timedelta(seconds=1)
    run = run_game(g.rs, g.setup, tuple(g.phases), list(g.events), now=now, approve_all=True, observe=recorder)
    assert run.tallies == plain.tallies and run.state == plain.state  # observing changes nothing
    d1 = recorder.result(run.phases, now).day("D1")
    assert d1.points[-1].tally.round == 2
    cleared = [c for c in d1.changes if "ballot" in c.notes]
    first_round = [p.tally for p in d1.points if p.tally.round == 1][-1]
    standing = {v.voter for c in first_round.candidates for v in c.voters}
    assert len(standing) >= 8 and {c.voter for c in cleared} == standing and all(c.after is None for c in cleared)
    second = [c for c in d1.changes if c.key > cleared[-1].key and c.counted]
    assert {c.after for c in second} == {"V1", "V2"}
    assert [(c.name, c.total) for c in d1.final.candidates] == [("V1", 5.0), ("V2", 5.0)]


def test_a_name_settled_by_approve_all_is_one_history_not_two(tmp_path):
    """`--approve-all` reads the game twice when it settles an alias proposal (issue 27): the
    recorder keeps the second reading only, and the settled vote is in it."""
    g = day_one(tmp_path)
    g.post("Fay", 5.5, "[b]Vote: Bbo[/b]")
    g.now = at(7)
    ws = g.workspace()
    a, h = analyse_with_history(ws, "g", approve_all=True)
    rows = [(c.voter, c.after) for c in h.day("D1").changes]
    assert len(rows) == len(set(rows))  # nothing recorded twice
    settled = a.run.tally_for("D1") or a.run.current_tally
    assert counted(h.day("D1").final) == counted(settled)
    assert [(n.spelling, n.status) for n in a.names] == [("Bbo", "approved")] and ("Fay", "Bob") in rows
    ws.close()
