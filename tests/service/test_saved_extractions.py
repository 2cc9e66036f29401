"""Extraction results kept in the store: a fresh process reuses them, any change of post,
settings or code recomputes, and the result is the same as extracting again."""

from datetime import datetime, timedelta, timezone

import pytest

from forummod.config import parse_config
from forummod.extract import clear_caches
from forummod.extract import saved as S
from forummod.model import ActionIntent, Extraction, Issue, Source, UnvoteIntent, VoteIntent
from forummod.service import Workspace, analyse_game, poll_game
from forummod.store import Store

from tests.archive_game import archive_config, players_toml, write_posts

T = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_encoded_results_decode_to_the_same_records():
    src = Source("post", "12", 7, "game", "http://f/p12", 2)
    ex = Extraction(
        (VoteIntent("Ann", "Bob", T, src, "VOTE: Bob"), UnvoteIntent("Ann", T, src, None, "unvote", "thread"),
         ActionIntent("Cat", "check_centre", T, Source("message", "m1"), (), "seer", (("positions", "links,rechts"),),
                      "Ziener: Links en Rechts", "pm")),
        (Issue("ambiguous_name", "“Bo” could be Bob, Boris", T, src, "Ann", ("Bob", "Boris"), "LUP-V1", "warning",
               "VOTE: Bo"),))
    back = S.decode(S.encode(ex))
    assert back == ex and repr(back) == repr(ex) and hash(back) == hash(ex)
    # records decoded without their __init__ hold exactly the fields, in order, that it sets
    for got, want in zip(back.intents + back.issues, ex.intents + ex.issues):
        assert type(got) is type(want) and list(vars(got).items()) == list(vars(want).items())
        assert vars(got.source) == vars(want.source) and list(vars(got.source)) == list(vars(want.source))
    assert S.encode(Extraction()) == "" and S.decode("") == Extraction()


def _game(tmp_path, aliases: str = "[]"):
    write_posts(tmp_path, [("Mod", "Day 1"), ("Bob", "[b]vote: Eve[/b]"), ("Cat", "[b]vote: Ev[/b]"), ("Dan", "hello")],
                T, timedelta(minutes=1))
    players = players_toml(["Ann", "Bob", "Cat", "Dan", "Eve"], extra={"Eve": f"aliases = {aliases}"})
    return parse_config(archive_config(tmp_path, players))


def test_a_fresh_process_reuses_saved_results_without_reading_post_bodies(tmp_path, monkeypatch):
    cfg = _game(tmp_path)
    with Workspace(cfg) as ws:
        poll_game(ws, "g")
        first = analyse_game(ws, "g")
        assert len(first.fresh) == 4
    rows = Store(tmp_path / "s.sqlite").db.execute("SELECT count(*) FROM extractions").fetchone()[0]
    assert rows == 4
    clear_caches()
    import forummod.extract.intents as intents

    monkeypatch.setattr(intents, "_extract_post", lambda *a: pytest.fail("a saved post was read again"))
    with Workspace(cfg) as ws:
        again = analyse_game(ws, "g")
    assert again.fresh == {}
    assert again.run.current_tally == first.run.current_tally
    assert again.extraction_issues == first.extraction_issues


def test_changed_settings_or_a_replay_without_saved_results_extract_again(tmp_path):
    with Workspace(_game(tmp_path)) as ws:
        poll_game(ws, "g")
        analyse_game(ws, "g")
    clear_caches()
    with Workspace(_game(tmp_path, aliases='["Ev"]')) as ws:  # a new alias changes the settings
        a = analyse_game(ws, "g")
        assert len(a.fresh) == 4
        fresh = analyse_game(ws, "g", use_saved=False)
        assert fresh.run.current_tally == a.run.current_tally
    keys = Store(tmp_path / "s.sqlite").db.execute("SELECT DISTINCT fingerprint FROM extractions").fetchall()
    assert len(keys) == 1  # results under the old settings were dropped
