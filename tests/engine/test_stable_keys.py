"""Proposal keys stay valid until decided (issue 14, item 4): a key made from the event that
raised the proposal does not change when other events (a GM's approval of something else, a
note) enter the timeline before it."""

from __future__ import annotations

from datetime import timedelta

from forummod.engine.events import Decision, Override

from tests.engine.village_f8 import F8


def confessor_game() -> F8:
    f = F8(buildings={"P1": "church"}, options={"confessor.public": "none", "confessor.reveals": "wolf_or_not"})
    f.day(2, confessor={"target": "P6"})
    return f


def pending_keys(f: F8, extra=()) -> list[str]:
    f.g.events.extend(extra)
    return [p.key for p in f.g.run(approve_all=False).state.pending()]


def test_a_decision_on_another_proposal_does_not_renumber_a_pending_key():
    f = confessor_game()
    keys = pending_keys(f)
    assert len(keys) == 1 and keys[0].startswith("confess:P1:")
    first = f.g.phases[0].start + timedelta(minutes=5)
    unrelated = [Decision(at=first, seq=3, key="night:N1", verdict="approve"),
                 Override(at=first, seq=4, kind="note", note="the GM writes something")]
    assert pending_keys(confessor_game(), unrelated) == keys
