"""A poll in two halves (issue 34): the daemon reads the forum without the workspace lock
(`fetch_game`) and stores under it (`store_fetch`). What it read must never overwrite a newer
poll another run stored in between (the GM's `forummod poll`): a post the newer poll found is
not marked deleted, a newer version not buried under an older one."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.demo import script as S
from forummod.service import fetch_game, poll_game, store_fetch
from tests.reliability.faulty_forum import (
    DEMO_PASSWORD, FakeClock, FaultyForum, GameClock, demo_config, fresh_site, open_workspace, reset_limiters,
)


@pytest.fixture
def demo(tmp_path, monkeypatch):
    from forummod.demo.run import PASSWORD_ENV

    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    reset_limiters()
    site = fresh_site(S.FIRST_POLL)
    with FaultyForum(site) as forum:
        cfg = demo_config(tmp_path, forum.base_url)
        yield site, cfg
    reset_limiters()


def test_a_fetch_older_than_a_poll_stored_meanwhile_is_left_out(demo):
    site, cfg = demo
    clock = FakeClock()
    with open_workspace(cfg, clock, GameClock(S.FIRST_POLL)) as daemon, \
            open_workspace(cfg, clock, GameClock(S.FIRST_POLL + timedelta(minutes=5))) as gm:
        assert poll_game(daemon, "demo").ok
        fetched = fetch_game(daemon, "demo")  # the daemon read the forum...
        site.add_post(7, "Aldo", S.FIRST_POLL + timedelta(minutes=1), "[b]vota Bianca[/b]")
        assert poll_game(gm, "demo").new_posts == 1  # ...the GM's poll stored a newer reading...
        posts_before = gm.store.posts("demo", "7")
        report = store_fetch(daemon, fetched)  # ...then the daemon stores its older one
        assert report.ok
        assert [i.code for i in report.issues] == ["poll_superseded"]
        assert "thread:7" in report.issues[0].message
        after = daemon.store.posts("demo", "7")
        assert after == posts_before and all(p.deleted_at is None for p in after)


def test_a_fetch_stored_with_nothing_in_between_is_stored_as_a_poll(demo):
    site, cfg = demo
    with open_workspace(cfg, FakeClock(), GameClock(S.FIRST_POLL)) as ws:
        assert poll_game(ws, "demo").ok
        site.add_post(7, "Aldo", S.FIRST_POLL + timedelta(minutes=1), "[b]vota Bianca[/b]")
        report = store_fetch(ws, fetch_game(ws, "demo"))
        assert report.ok and report.new_posts == 1 and report.issues == ()
