"""needs_gm is pure: one game's analysis and store facts in, frozen Alert records out."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from forummod.alerts.decide import Alert, AlertFacts, AlertRules, gm_lines, needs_gm
from forummod.engine.ruleset import Requirement
from forummod.engine.types import (Candidate, GameRun, GameState, Phase, PhaseId, Player, Proposal, Tally,
                                   VoteRecord)
from forummod.model import Issue, Source

NOW = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)
PLAYERS = tuple(Player(n, "mafia" if n == "Ann" else "town", i) for i, n in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"]))


def analysis(phase: Phase, *, tally: Tally | None = None, proposals=(), owed=(), issues=(), phases=None):
    st = GameState("test", PLAYERS, phase=phase, proposals=tuple(proposals))
    run = GameRun(st, tuple(phases or (phase,)), (tally,) if tally else (), (), ())
    ruleset = SimpleNamespace(required_actions=lambda s, p: tuple(owed), public_weights=True)
    return SimpleNamespace(game_id="g", now=NOW, run=run, ruleset=ruleset, extraction_issues=tuple(issues))


def day(end=NOW + 48 * H):
    return Phase(PhaseId(1, "day"), NOW - 10 * H, end, vote_close=end)


def vote(voter, target, secret=False):
    return VoteRecord(voter, target, NOW - H, Source("post", "1"), 1, secret=secret)


def tally(total, *, secret=False, phase="D1"):
    voters = tuple(vote(v, "Eve", secret and i == 0) for i, v in enumerate(["Bob", "Cat", "Dan"][:total]))
    return Tally(phase, NOW, (Candidate("Eve", float(total), voters),), ("Ann", "Eve"), 5, majority=3)


def kinds(alerts):
    return [x.kind for x in alerts]


def test_one_vote_short_of_majority_is_l_minus_1_and_majority_is_a_hammer():
    assert kinds(needs_gm(analysis(day(), tally=tally(2)), AlertFacts(), AlertRules())) == ["l_minus_1"]
    [hammer] = needs_gm(analysis(day(), tally=tally(3)), AlertFacts(), AlertRules())
    assert (hammer.kind, hammer.key, hammer.secret) == ("hammer", "hammer:D1:1:Eve", False)
    assert "3/3 votes (Bob, Cat, Dan)" in hammer.text


def test_a_hammer_with_a_secret_vote_reaches_a_shared_channel_without_the_voters():
    [hammer] = needs_gm(analysis(day(), tally=tally(3, secret=True)), AlertFacts(), AlertRules())
    assert hammer.secret and "Bob" in hammer.text_for(private=True)
    assert "Bob" not in hammer.text_for(private=False) and "HAMMER on Eve" in hammer.text_for(private=False)


def test_a_hammer_alert_survives_the_night_it_opened_but_not_l_minus_1():
    night = Phase(PhaseId(1, "night"), NOW - H, NOW + 23 * H)
    phases = (day(NOW - H), night)
    assert kinds(needs_gm(analysis(night, tally=tally(3), phases=phases), AlertFacts(), AlertRules())) == ["hammer"]
    assert needs_gm(analysis(night, tally=tally(2), phases=phases), AlertFacts(), AlertRules()) == ()


def test_a_night_proposal_is_secret_and_its_public_text_names_no_one():
    prop = Proposal("night:N1", "night", "N1", NOW, summary="wolves kill Bob (seer checked Ann: wolf)")
    night = Phase(PhaseId(1, "night"), NOW - H, NOW + 23 * H)
    [x] = needs_gm(analysis(night, proposals=[prop]), AlertFacts(), AlertRules())
    assert x.kind == "proposal" and x.secret and "seer checked Ann" in x.text
    assert x.text_for(private=False) == "g N1: a proposal is waiting for your decision (night:N1)"


def test_the_deadline_warning_needs_missing_votes_and_the_threshold():
    soon = day(NOW + 90 * timedelta(minutes=1))
    [x] = needs_gm(analysis(soon, tally=tally(1)), AlertFacts(), AlertRules(deadline_warning=2 * H))
    assert x.kind == "deadline" and "closes in 1h30m" in x.text and "not voted (2): Ann, Eve" in x.text
    assert needs_gm(analysis(soon, tally=tally(1)), AlertFacts(), AlertRules(deadline_warning=H)) == ()
    everyone = replace(tally(1), not_voting=())
    assert kinds(needs_gm(analysis(soon, tally=everyone), AlertFacts(), AlertRules())) == []


def test_a_night_deadline_with_an_owed_action_is_secret():
    night = Phase(PhaseId(2, "night"), NOW - H, NOW + H, action_deadline=NOW + 30 * timedelta(minutes=1))
    owed = [Requirement("Ann", ("kill",), "D19", "no kill PM", any_of=("Ann",))]
    [x] = needs_gm(analysis(night, owed=owed), AlertFacts(), AlertRules())
    assert x.secret and "missing: Ann: kill" in x.text
    assert "Ann" not in x.text_for(private=False) and "1 still missing" in x.text_for(private=False)


def test_a_pm_not_understood_is_secret_and_only_this_phases_pms_alert():
    ph = day()
    new = Issue("unparsed_action", "PM from Ann not understood as an action: “kill Bob pls”", NOW - H,
                Source("message", "m7"), "Ann")
    old = replace(new, at=ph.start - H, source=Source("message", "m1"))
    [x] = needs_gm(analysis(ph, issues=[new, old]), AlertFacts(), AlertRules())
    assert (x.kind, x.key, x.secret) == ("pm_not_understood", "pm:m7", True)
    assert "kill Bob" not in x.text_for(private=False) and "Ann" not in x.text_for(private=False)


def test_a_failing_poll_alerts_after_the_threshold_keyed_by_when_it_began():
    since = NOW - 31 * timedelta(minutes=1)
    [x] = needs_gm(analysis(day()), AlertFacts(since, "connection refused"), AlertRules())
    assert x.key == f"poll_failing:{since.isoformat()}" and "connection refused" in x.text
    assert "the forum cannot be reached; it may be down, or this computer offline." in x.text  # words first
    assert needs_gm(analysis(day()), AlertFacts(NOW - 29 * timedelta(minutes=1)), AlertRules()) == ()


def test_polling_that_works_again_after_an_alerted_failure_says_so_once_keyed_by_the_failure():
    began, back = NOW - timedelta(hours=2), NOW - timedelta(minutes=5)
    [x] = needs_gm(analysis(day()), AlertFacts(recovered_since=began, recovered_at=back), AlertRules())
    assert (x.kind, x.key) == ("poll_recovered", f"poll_recovered:{began.isoformat()}")
    assert "polling works again since" in x.text and "(it had failed for 1h55m)" in x.text
    assert needs_gm(analysis(day()), AlertFacts(recovered_since=began, recovered_at=back),
                    AlertRules(disabled=("poll_recovered",))) == ()


def test_disabled_kinds_are_left_out():
    assert needs_gm(analysis(day(), tally=tally(3)), AlertFacts(), AlertRules(disabled=("hammer",))) == ()


def test_alerts_are_frozen_and_a_secret_without_public_text_is_skipped_on_shared_channels():
    x = Alert("pm_not_understood", "g", "D1", "pm:1", "secret words", secret=True)
    assert x.text_for(private=False) is None and x.text_for(private=True) == "secret words"
    with pytest.raises(Exception):
        x.text = "other"  # frozen


def test_tick_prints_nothing_when_nothing_needs_the_gm():
    quiet = SimpleNamespace(alerts=(), alert_failures=(), error=None, line=lambda: "g: D1")
    assert gm_lines(quiet) == []
    loud = replace_ns(quiet, alerts=(Alert("hammer", "g", "D1", "k", "HAMMER on Eve"),))
    assert gm_lines(loud) == ["g: D1", "  ALERT hammer: HAMMER on Eve"]


def replace_ns(ns, **kw):
    return SimpleNamespace(**{**vars(ns), **kw})


def test_a_failing_poll_says_in_words_what_is_wrong_and_what_to_do():
    """Issue 28, item 10: the alert was the raw error string; now a sentence for the GM, with the
    forum's answer kept short at the end."""
    from forummod.alerts.decide import poll_trouble

    raw = ("GET https://f.test/viewtopic.php?t=5 failed after 3 attempts (HTTPSConnectionPool(host='f.test', "
           "port=443): Max retries exceeded with url: /viewtopic.php?t=5 (Caused by NewConnectionError(...)))")
    assert poll_trouble(raw).startswith("the forum cannot be reached")
    assert poll_trouble("https://f.test/x: HTTP 503, server asks to wait 60 s").startswith("the forum answers with a server error")
    assert poll_trouble("GET https://f.test/x failed (ReadTimeout: read timed out)").startswith("the forum does not answer in time")
    assert poll_trouble("the forum refused the credentials").startswith("the forum refuses the login")
    assert poll_trouble("HTTP 404").startswith("the forum says the thread is not there")
    since = NOW - 40 * timedelta(minutes=1)
    [x] = needs_gm(analysis(day()), AlertFacts(since, raw + " " * 5 + "x" * 300), AlertRules())
    assert "(the forum's answer: GET https://f.test/viewtopic.php?t=5 failed after 3 attempts" in x.text
    assert len(x.text) < 500 and x.text.endswith("…)")


def test_a_thread_read_short_of_its_pages_is_an_alert_once_per_gap():
    from forummod.read_gaps import read_gap

    gap = read_gap("game", "7", 6, {1: 10})
    [x] = needs_gm(analysis(day()), AlertFacts(read_gaps=(gap,)), AlertRules())
    assert (x.kind, x.key, x.secret) == ("posts_unread", gap.key, False)
    assert "the game thread shows 6 pages, but only 10 of its at least 51 posts were read" in x.text
    assert "(pages not read: 2-6)" in x.text and "the count may miss votes" in x.text
    assert needs_gm(analysis(day()), AlertFacts(read_gaps=(gap,)), AlertRules(disabled=("posts_unread",))) == ()
