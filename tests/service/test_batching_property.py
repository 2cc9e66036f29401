"""Property: the tally does not depend on how posts were batched into polls, and re-deriving
from the store (replay) gives what the polls gave as they came (issue 5, "pure and replayable")."""

from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forummod.config import parse_config
from forummod.extract import clear_caches
from forummod.report import status_report, tally_report
from forummod.service import Workspace, analyse_game, poll_game

from tests.archive_game import archive_config, players_toml, write_posts

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
BODY = st.one_of(
    st.sampled_from(PLAYERS).map(lambda t: f"[b]vote: {t}[/b]"),
    st.just("[b]unvote[/b]"),
    st.sampled_from(PLAYERS).map(lambda t: f"[quote=Ann][b]vote: {t}[/b][/quote] no"),
    st.just("just talking"),
)
POST = st.tuples(st.sampled_from(PLAYERS), BODY)


def config(folder: Path):
    players = players_toml(PLAYERS, {"Ann": "mafia", "Bob": "mafia"})
    return parse_config(archive_config(folder, players, tables=f"""[games.g.schedule]
start = "{T0.isoformat()}"
vote_close = "24h"
day_end = "24h"
action_deadline = "12h"
night_end = "12h"
"""))


def write(folder: Path, posts) -> None:
    write_posts(folder, posts, T0, timedelta(minutes=20))


def result(ws):
    a = analyse_game(ws, "g", now=T0 + timedelta(days=4), approve_all=True)
    rep, status = tally_report(a), status_report(a)
    status.pop("analysed_at")
    rep.pop("analysed_at")
    return rep, status, [t for t in a.run.tallies]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(posts=st.lists(POST, min_size=1, max_size=60), cuts=st.lists(st.integers(0, 60), max_size=5))
def test_the_count_is_the_same_however_the_posts_arrived_in_polls(tmp_path_factory, posts, cuts):
    batched = tmp_path_factory.mktemp("batched")
    with Workspace(config(batched)) as ws:
        for cut in sorted(set(c for c in cuts if c < len(posts))) + [len(posts)]:
            write(batched, posts[:cut])  # the forum as it stood at that poll
            poll_game(ws, "g")
            analyse_game(ws, "g", now=T0 + timedelta(days=4))  # a recount after each poll, as the daemon does
        got = result(ws)
    clear_caches()
    once = tmp_path_factory.mktemp("once")
    write(once, posts)
    with Workspace(config(once)) as ws:
        poll_game(ws, "g")
        want = result(ws)
        replayed = analyse_game(ws, "g", now=T0 + timedelta(days=4), approve_all=True, use_saved=False)
    assert got[0]["tally"] == want[0]["tally"] and got[1] == want[1]
    assert [t.candidates for t in got[2]] == [t.candidates for t in want[2]]
    assert status_report(replayed)["dead"] == want[1]["dead"]
