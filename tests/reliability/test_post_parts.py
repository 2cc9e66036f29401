"""Issue 15 item 6: posts fit the forum. A draft over the forum's post length is split at section
boundaries (never inside a BBCode tag pair or a Markdown list or quote) into numbered parts, each
with its own marker, published exactly once and in order, paced by the site's flood interval; a
section that cannot fit is told to the GM (`drafts`, `publish --dry-run`, `publish`) before
anything is sent. Tested against the demo phpBB forum, which refuses over-long posts as phpBB does."""

from __future__ import annotations

from datetime import timedelta

import pytest

from forummod.cli import main
from forummod.demo import script as S
from forummod.errors import PublishError, SentNotRecorded, StoreFull
from forummod.publish import publish
from forummod.publish_parts import PostTooLong, sections, split_body
from forummod.render.marker import find_markers
from forummod.service import poll_game
from tests.reliability.faulty_forum import FaultyForum, GameClock, demo_config, fresh_site, open_workspace

LIMIT = 300


def test_sections_never_break_a_bbcode_pair_or_a_markdown_list_or_quote():
    bb = "Intro\n\n[quote=Bob]one\n\ntwo[/quote]\n\nEnd"
    assert sections(bb, "bbcode") == ["Intro", "[quote=Bob]one\n\ntwo[/quote]", "End"]
    md = "Intro\n\n- a\n\n- b\n\n> q1\n\n> q2\n\nEnd"
    assert sections(md, "markdown") == ["Intro", "- a\n\n- b", "> q1\n\n> q2", "End"]


def test_a_long_draft_becomes_numbered_parts_each_under_the_limit():
    body = "\n\n".join(f"[b]Section {i}[/b]\n" + "x" * 120 for i in range(6))
    s = split_body(body, "bbcode", LIMIT)
    n = len(s.parts)
    assert n >= 3 and all(p.startswith(f"({i}/{n})\n\n") for i, p in enumerate(s.parts, 1))
    assert all(len(p) + 40 <= LIMIT for p in s.parts)  # room for the marker
    assert "".join(s.parts).count("[b]Section") == 6  # nothing lost, nothing twice
    assert split_body("short", "bbcode", LIMIT).parts == ("short",)


def test_a_section_longer_than_the_limit_is_named():
    with pytest.raises(PostTooLong, match="section 2"):
        split_body("Intro\n\n" + "y" * 400, "bbcode", LIMIT)


class Forum:
    """The demo phpBB forum refusing posts over LIMIT characters, with a workspace on a fake clock."""

    def __init__(self, folder, clock, body: str):
        self.site = fresh_site(S.FIRST_POLL)
        self.site.clock = clock
        self.site.max_post_chars = LIMIT
        self.site.flood_interval = 15
        self.forum = FaultyForum(self.site).__enter__()
        self.cfg = demo_config(folder, self.forum.base_url, retries=1, max_post_chars=LIMIT)
        self.game_clock = GameClock(S.FIRST_POLL)
        self.ws = open_workspace(self.cfg, clock, self.game_clock)
        assert poll_game(self.ws, "demo").ok
        self.draft, _ = self.ws.store.upsert_draft(
            game="demo", kind="votecount", phase="D1", slot="", target="thread", markup="bbcode", lang="it",
            title="", body=body, at=S.FIRST_POLL)

    def mine(self) -> list:
        return [p for p in self.site.threads[7].posts if find_markers(p.bbcode)]

    def close(self):
        self.ws.close()
        self.forum.__exit__(None, None, None)


LONG = "\n\n".join(f"[b]Blocco {i}[/b]\n" + "voto " * 25 for i in range(5))


@pytest.fixture
def forum(tmp_path, clock, demo_password):
    f = Forum(tmp_path / "ws", clock, LONG)
    yield f
    f.close()


def test_an_over_long_draft_is_published_in_order_once_each_paced_by_the_flood_interval(forum, clock):
    r = publish(forum.ws, forum.draft)
    posts = forum.mine()
    n = len(posts)
    assert r.status == "sent" and n >= 2
    assert [p.bbcode.split("\n", 1)[0] for p in posts] == [f"({i}/{n})" for i in range(1, n + 1)]
    assert len({m for p in posts for m in find_markers(p.bbcode)}) == n  # a marker of its own each
    assert all(len(p.bbcode) <= LIMIT for p in posts)  # nothing the forum refused
    # the forum checks its 15 s flood interval on the same (fake) clock and refused no part:
    # forummod waited out the interval between parts
    assert len(forum.forum.requests("/posting.php", method="POST")) == n
    assert sum(1 for w in clock.sleeps if w >= 10) >= n - 1
    assert forum.ws.store.draft(forum.draft).status == "published"
    assert r.remote_id == str(posts[0].post_id)
    again = publish(forum.ws, forum.draft)
    assert again.status == "already_sent" and len(forum.mine()) == n


def test_a_part_without_an_answer_is_looked_for_and_sent_once_when_ruled_out(forum):
    forum.forum.inject("drop", method="POST", match="/posting.php", times=None)
    with pytest.raises(PublishError, match="part 1/"):
        publish(forum.ws, forum.draft)
    forum.forum.clear()
    with pytest.raises(PublishError, match="no clear answer"):  # it may still appear: not sent again yet
        publish(forum.ws, forum.draft)
    assert forum.mine() == []
    forum.game_clock.now += timedelta(minutes=11)
    r = publish(forum.ws, forum.draft)  # looks for part 1 (not there), sends every part once
    n = len(forum.mine())
    assert r.status == "sent" and [p.bbcode.split("\n", 1)[0] for p in forum.mine()] == \
        [f"({i}/{n})" for i in range(1, n + 1)]


def test_a_part_the_store_could_not_record_is_reported_as_posted_and_not_sent_twice(forum, monkeypatch):
    """Issue 34: part 2 reached the forum, then the store could not record it (a full disk).
    The GM is told that part is on the forum (exit 3); the next publish finds it by its
    marker and sends only the parts after it."""
    store = forum.ws.store
    remember, calls = store.remember, []

    def full_after_part_two(game, key, payload, at):
        calls.append(payload)
        if key.startswith("publication-parts:") and len(payload["sent"]) == 2 and not payload["sending"]:
            raise StoreFull(f"the store {store.path} could not be written: the disk is full")
        return remember(game, key, payload, at)

    monkeypatch.setattr(store, "remember", full_after_part_two)
    with pytest.raises(SentNotRecorded, match=r"draft \d+ \(votecount\), part 2/\d+, was posted to the forum at "
                                              r"http\S+, but not recorded: .*disk is full.*Do not post it again"):
        publish(forum.ws, forum.draft)
    assert len(forum.mine()) == 2
    monkeypatch.setattr(store, "remember", remember)
    r = publish(forum.ws, forum.draft)  # finds part 2 by its marker, sends the rest
    n = len(forum.mine())
    assert r.status == "sent" and [p.bbcode.split("\n", 1)[0] for p in forum.mine()] == \
        [f"({i}/{n})" for i in range(1, n + 1)]
    assert len(forum.forum.requests("/posting.php", method="POST")) == n  # each part once


def _cli_workspace(tmp_path, clock, body):
    f = Forum(tmp_path / "ws", clock, body)
    f.ws.close()
    return f


def test_drafts_and_dry_run_tell_the_gm_and_publish_sends_nothing_when_a_section_cannot_fit(
        tmp_path, clock, demo_password, capsys):
    f = _cli_workspace(tmp_path, clock, "Intro\n\n" + "z" * 400)
    try:
        capsys.readouterr()
        assert main(["drafts", "--config", str(f.cfg), "--status", "draft"]) == 0
        out = capsys.readouterr().out
        assert "too long for the forum" in out and "section 2" in out
        assert main(["publish", str(f.draft), "--dry-run", "--config", str(f.cfg)]) == 1
        assert "section 2" in capsys.readouterr().err
        assert main(["publish", str(f.draft), "--config", str(f.cfg)]) == 1
        assert "section 2" in capsys.readouterr().err
        assert f.forum.requests("/posting.php", method="POST") == [] and f.mine() == []
    finally:
        f.forum.__exit__(None, None, None)


def test_dry_run_of_a_long_draft_shows_its_numbered_parts(tmp_path, clock, demo_password, capsys):
    f = _cli_workspace(tmp_path, clock, LONG)
    try:
        capsys.readouterr()
        assert main(["drafts", "--config", str(f.cfg), "--status", "draft"]) == 0
        assert "published in" in capsys.readouterr().out
        assert main(["publish", str(f.draft), "--dry-run", "--config", str(f.cfg)]) == 0
        out = capsys.readouterr().out
        assert "part 1/" in out and "part 2/" in out and f.mine() == []
    finally:
        f.forum.__exit__(None, None, None)
