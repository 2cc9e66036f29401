"""GameState's shortcut for the fold's commonest step behaves as `dataclasses.replace`."""

from dataclasses import replace
from datetime import datetime, timezone
from functools import cached_property

from forummod.engine.types import PLAYER_CACHES, GameState, Player, VoteRecord
from forummod.model import Source

AT = datetime(2024, 3, 1, 12, tzinfo=timezone.utc)


def state() -> GameState:
    return GameState(ruleset="mafia-majority", players=(Player("Ann", "town", 1), Player("Bob", "mafia", 2, alive=False)))


def test_every_cached_lookup_of_a_state_reads_only_its_players():
    cached = {n for n, v in vars(GameState).items() if isinstance(v, cached_property)}
    assert cached == set(PLAYER_CACHES)  # a new cache that reads votes must not be carried by with_votes


def test_with_votes_equals_replace_and_keeps_the_player_lookups_right():
    st = state()
    assert st.living() == (st.players[0],) and st.is_alive("Ann")  # caches filled before the copy
    votes = (VoteRecord("Ann", "Bob", AT, Source("gm"), 1),)
    fast, slow = st.with_votes(votes), replace(st, votes=votes)
    assert fast == slow and repr(fast) == repr(slow) and hash(fast.votes) == hash(slow.votes)
    assert fast.living() == slow.living() and fast.player("Bob") == slow.player("Bob")
    assert st.votes == ()  # the old state is unchanged
    later = replace(fast, players=(Player("Ann", "town", 1, alive=False),) + fast.players[1:])
    assert later.living() == () and not later.is_alive("Ann")  # new players: lookups rebuilt
