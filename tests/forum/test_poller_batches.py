"""A long walk is handed over in batches of pages: memory holds one batch, and a poll killed
mid-walk leaves whole batches in the store that the next poll continues from."""

from __future__ import annotations

import threading

import pytest

from forummod.config import SiteConfig, parse_config
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.service import Workspace, analyse_game, poll_game

from forum_synth import PER_PAGE, ForumState, make_server

PAGES = 200


@pytest.fixture
def forum():
    state = ForumState(n_posts=PAGES * PER_PAGE)
    server = make_server(state)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def adapter_for(base: str, clock):
    site = SiteConfig(engine="phpbb", base_url=base, timezone="UTC", request_interval=0.0, retries=1)
    http = HttpClient.from_site("synth", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    return make_adapter("synth", site, http=http)


def test_batches_hold_every_page_once_and_add_up_to_the_whole_walk(forum, clock):
    state, base = forum
    ref = ThreadRef(base + "viewtopic.php?t=1")
    whole = adapter_for(base, clock).poll_thread(ref, None)
    batches = []
    rest = adapter_for(base, clock).poll_thread(ref, None, sink=batches.append)
    parts = [*batches, rest]
    assert [len(b.pages_fetched) for b in parts] == [50, 50, 50, 50]
    assert [p for b in parts for p in b.posts] == list(whole.posts)
    assert [n for b in parts for n in b.pages_fetched] == list(whole.pages_fetched)
    assert sum(len(b.pages) for b in parts) == PAGES and sum(b.requests for b in parts) == whole.requests
    for b in batches:  # the next poll after a crash re-reads the batch's last page in full
        assert b.cursor.last_page == b.pages_fetched[-1] and b.cursor.page_ref.etag is None
        assert b.cursor.last_post_id == b.posts[-1].post_id
    assert rest.cursor == whole.cursor


class Killed(BaseException):
    """The process dying mid-poll (nothing catches it)."""


def _config(tmp_path, base: str):
    return parse_config(f"""
[workspace]
store = "{(tmp_path / 's.sqlite').as_posix()}"
[sites.f]
engine = "phpbb"
base_url = "{base}"
timezone = "UTC"
request_interval = 0.0
retries = 1
[games.g]
site = "f"
thread = "{base}viewtopic.php?t=1"
ruleset = "mafia-majority"
gm = ["Mod"]
players = [{{ name = "Ann" }}, {{ name = "Bob" }}, {{ name = "Cat" }}]
""")


def test_a_poll_killed_mid_walk_keeps_whole_batches_and_the_next_poll_goes_on(forum, clock, tmp_path):
    state, base = forum
    cfg = _config(tmp_path, base)
    dying = adapter_for(base, clock)
    real_get, calls = dying._get, []

    def get(url, *a, **kw):
        calls.append(url)
        if len(calls) == 121:  # pages 1-120 read, batches of pages 1-50 and 51-100 stored
            raise Killed
        return real_get(url, *a, **kw)

    dying._get = get
    with Workspace(cfg, adapter_factory=lambda name, site: dying) as ws:
        with pytest.raises(Killed):
            poll_game(ws, "g", inbox=False)
        store = ws.store
        assert store.post_count("f", "1") == 100 * PER_PAGE
        assert store.db.execute("SELECT count(*) FROM pages").fetchone()[0] == 100
        assert store.db.execute("SELECT count(*) FROM poll_runs").fetchone()[0] == 0
        cursor = store.cursor("f", "thread:1")
        assert cursor.last_page == 100 and cursor.page_ref.etag is None
    with Workspace(cfg, adapter_factory=lambda name, site: adapter_for(base, clock)) as ws:
        state.requests.clear()
        report = poll_game(ws, "g", inbox=False)
        assert report.ok and report.new_posts == 100 * PER_PAGE and report.deleted_posts == 0
        assert len(state.requests) == PAGES - 100 + 1  # page 100 again, then the rest
        posts = ws.store.posts("f", "1")
        assert [p.number for p in posts] == list(range(1, PAGES * PER_PAGE + 1))
        assert all(len(p.versions) == 1 and p.deleted_at is None for p in posts)


def test_a_recount_in_a_fresh_process_after_a_poll_builds_no_forum_adapter(forum, clock, tmp_path, monkeypatch):
    """The poll remembers the thread's store id, so a cron `tally` reads no profile and compiles no CSS."""
    state, base = forum
    cfg = _config(tmp_path, base)
    with Workspace(cfg, adapter_factory=lambda name, site: adapter_for(base, clock)) as ws:
        assert poll_game(ws, "g", inbox=False).ok
    monkeypatch.setattr(Workspace, "adapter", lambda self, site: pytest.fail("the adapter was built"))
    with Workspace(cfg) as ws:
        a = analyse_game(ws, "g")
    assert len(a.inputs.posts["game"]) == PAGES * PER_PAGE
