"""Publishing exactly once: record first, send once, recover after a crash, never resend blindly."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from forummod.cli import main
from forummod.drafting import refresh_drafts
from forummod.errors import PublishError, UsageError
from forummod.preview.html import render_markup
from forummod.publish import SEARCH_SCHEDULE, SENDING_GRACE, auto_publish, publish
from forummod.render.marker import find_markers
from forummod.service import analyse_game

from tests.render.game import at, day_one


class Crash(BaseException):
    """The process dies here (nothing after this line runs, no except clause sees it)."""


def outbox(root: Path) -> list[dict]:
    path = root / "posts.outbox.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def drafted(tmp_path: Path, **kw):
    g = day_one(tmp_path, **kw)
    g.now = at(6)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
    ids = {(r.kind, r.slot): r.id for r in ws.store.drafts("g")}
    return g, ws, ids


class Wrapper:
    """The archive adapter with a fault injected around `reply`."""

    def __init__(self, real, *, before=None, after=None, find=True):
        self.real, self.before, self.after, self.find = real, before, after, find
        self.engine = real.engine
        self.replies = 0

    def __getattr__(self, name):  # everything else (thread_id, polling) is the real adapter's
        return getattr(self.real, name)

    def reply(self, thread, body, marker=None):
        self.replies += 1
        if self.before:
            raise self.before
        res = self.real.reply(thread, body, marker)
        if self.after:
            raise self.after
        return res

    def send_pm(self, to, subject, body, marker=None):
        return self.real.send_pm(to, subject, body, marker)

    def find_published(self, marker, thread=None, since=None):
        if not self.find:
            raise NotImplementedError("this engine cannot search")
        return self.real.find_published(marker, thread, since)


def wrap(ws, monkeypatch, **kw) -> Wrapper:
    w = Wrapper(ws.adapter("f"), **kw)
    monkeypatch.setattr(ws, "adapter", lambda site: w)
    return w


def test_publish_posts_once_with_the_marker_and_records_it(tmp_path: Path):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    r = publish(ws, did)
    assert r.status == "sent"
    [row] = outbox(tmp_path)
    assert row["kind"] == "reply" and row["thread"] == "game"
    assert row["bbcode"].startswith("[b]Vote Count — Day 1[/b]")
    assert find_markers(row["bbcode"]) == {r.outgoing.marker} and row["marker"] == r.outgoing.marker
    assert row["bbcode"].rstrip().endswith(f"[size=1]{r.outgoing.marker}[/size]")
    pub = ws.store.publication(did)
    assert (pub.state, pub.remote_id) == ("sent", row["id"]) and ws.store.draft(did).status == "published"


def test_publishing_the_same_draft_again_sends_nothing(tmp_path: Path):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    first = publish(ws, did)
    second = publish(ws, did)
    assert second.status == "already_sent" and second.remote_id == first.remote_id
    assert len(outbox(tmp_path)) == 1


def test_a_crash_after_posting_and_before_recording_is_recovered_without_a_second_post(tmp_path: Path, monkeypatch):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    wrap(ws, monkeypatch, after=Crash())
    with pytest.raises(Crash):
        publish(ws, did)
    assert ws.store.publication(did).state == "sending" and len(outbox(tmp_path)) == 1
    ws2 = g.workspace(poll=False)  # the next run, a new process
    r = publish(ws2, did)
    assert r.status == "recovered"
    [row] = outbox(tmp_path)
    assert r.remote_id == row["id"] and ws2.store.publication(did).state == "sent"
    assert ws2.store.draft(did).status == "published"


def test_a_crash_before_posting_waits_out_a_possible_send_in_flight_then_posts_once(tmp_path: Path, monkeypatch):
    """A run killed mid-send leaves an unknown outcome: no second copy until the marker search
    has ruled the first out at the schedule's last point (SEARCH_SCHEDULE)."""
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    wrap(ws, monkeypatch, before=Crash())
    with pytest.raises(Crash):
        publish(ws, did)
    ws2 = g.workspace(poll=False)
    with pytest.raises(PublishError, match="may still be running"):
        publish(ws2, did)
    assert outbox(tmp_path) == []
    g.now = at(6) + SENDING_GRACE + timedelta(seconds=1)
    with pytest.raises(PublishError, match="--resend"):
        publish(g.workspace(poll=False), did)
    assert outbox(tmp_path) == []
    g.now = at(6) + SEARCH_SCHEDULE[-1]
    r = publish(g.workspace(poll=False), did)
    assert r.status == "sent" and len(outbox(tmp_path)) == 1


def test_a_failed_send_is_recorded_and_the_next_attempt_looks_before_sending(tmp_path: Path, monkeypatch):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    w = wrap(ws, monkeypatch, after=TimeoutError("read timed out"))  # the POST reached the forum
    with pytest.raises(PublishError, match="not confirmed"):
        publish(ws, did)
    pub = ws.store.publication(did)
    assert pub.state == "failed" and "read timed out" in pub.error and ws.store.draft(did).status == "draft"
    w.after = None
    r = publish(ws, did)
    assert r.status == "recovered" and w.replies == 1 and len(outbox(tmp_path)) == 1


def test_a_send_that_never_reached_the_forum_is_sent_again_only_after_checking(tmp_path: Path, monkeypatch):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    w = wrap(ws, monkeypatch, before=ConnectionError("connection refused"))
    with pytest.raises(PublishError):
        publish(ws, did)
    w.before = None
    assert publish(ws, did).status == "sent"
    assert w.replies == 2 and len(outbox(tmp_path)) == 1


def test_an_unverifiable_earlier_attempt_needs_the_gm_to_say_resend(tmp_path: Path, monkeypatch):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    w = wrap(ws, monkeypatch, before=ConnectionError("reset"), find=False)
    with pytest.raises(PublishError):
        publish(ws, did)
    w.before = None
    with pytest.raises(PublishError, match="--resend"):
        publish(ws, did)
    assert outbox(tmp_path) == []
    assert publish(ws, did, resend=True).status == "sent" and len(outbox(tmp_path)) == 1


def test_dry_run_shows_target_and_text_and_touches_nothing(tmp_path: Path, capsys):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    r = publish(ws, did, dry_run=True)
    assert r.status == "dry_run" and r.outgoing.channel == "reply" and r.outgoing.thread == "game"
    assert ws.store.publication(did) is None and outbox(tmp_path) == []
    ws.close()
    code = main(["publish", "--config", str(tmp_path / "forummod.toml"), str(did), "--dry-run"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("DRY RUN — nothing sent") and "reply in thread game" in out
    assert "[b]Vote Count — Day 1[/b]" in out and outbox(tmp_path) == []


def test_role_pm_goes_by_private_message_with_the_subject_prefix(tmp_path: Path):
    g, ws, ids = drafted(tmp_path, publish='[games.g.publish]\npm_subject_prefix = "[Test 1]"')
    r = publish(ws, ids[("role_pm", "Ann")])
    [row] = outbox(tmp_path)
    assert row["kind"] == "pm" and row["to"] == "Ann" and row["subject"] == "[Test 1] Test Town — Your role, Ann"
    assert "Mafia Goon" in row["body"] and r.outgoing.marker in row["body"]


def test_gm_notes_are_never_posted(tmp_path: Path):
    g = day_one(tmp_path)
    g.post("Zed", 0.5, "[b]vote: Ann[/b]")  # not a player: a note for the GM
    g.now = at(6)
    ws = g.workspace()
    refresh_drafts(ws, "g", analyse_game(ws, "g", now=at(6)))
    ids = {(r.kind, r.slot): r.id for r in ws.store.drafts("g")}
    with pytest.raises(UsageError, match="never posted"):
        publish(ws, ids[("warnings", "gm")])
    assert outbox(tmp_path) == []


def test_markdown_posts_hide_the_marker_in_an_empty_link(tmp_path: Path):
    g, ws, ids = drafted(tmp_path, markup="markdown")
    r = publish(ws, ids[("votecount", "thread")])
    body = outbox(tmp_path)[0]["bbcode"]
    assert body.rstrip().endswith(f"[](#{r.outgoing.marker})")
    shown = render_markup(body, "markdown")
    assert f'href="#{r.outgoing.marker}"' in shown and f">{r.outgoing.marker}<" not in shown


def test_without_markers_the_post_is_sent_as_drafted(tmp_path: Path):
    g, ws, ids = drafted(tmp_path, publish="[games.g.publish]\nmarker = false")
    did = ids[("votecount", "thread")]
    publish(ws, did)
    assert outbox(tmp_path)[0]["bbcode"] == ws.store.draft(did).body


def test_the_gms_edited_text_is_what_gets_published(tmp_path: Path):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    ws.store.edit_draft(did, "[b]My own count[/b]", at(6))
    publish(ws, did)
    assert outbox(tmp_path)[0]["bbcode"].startswith("[b]My own count[/b]\n[size=1]fm-")


def test_discarded_drafts_cannot_be_published(tmp_path: Path):
    g, ws, ids = drafted(tmp_path)
    did = ids[("votecount", "thread")]
    ws.store.set_draft_status(did, "discarded", at(6))
    with pytest.raises(UsageError, match="discarded"):
        publish(ws, did)


def test_auto_publish_sends_only_the_kinds_the_game_allows(tmp_path: Path):
    g, ws, ids = drafted(tmp_path, publish='[games.g.publish]\nauto = ["votecount"]')
    results = auto_publish(ws, "g", list(ids.values()))
    assert [(r.outgoing.kind, r.status) for r in results] == [("votecount", "sent")]
    assert [row["kind"] for row in outbox(tmp_path)] == ["reply"]
    assert auto_publish(ws, "g", list(ids.values())) == []  # already published: nothing more
    assert len(outbox(tmp_path)) == 1


def test_auto_publish_never_retries_a_failed_attempt(tmp_path: Path, monkeypatch):
    g, ws, ids = drafted(tmp_path, publish='[games.g.publish]\nauto = ["votecount"]')
    w = wrap(ws, monkeypatch, before=ConnectionError("down"))
    assert auto_publish(ws, "g", [ids[("votecount", "thread")]]) == []
    w.before = None
    assert auto_publish(ws, "g", [ids[("votecount", "thread")]]) == []
    assert w.replies == 1 and outbox(tmp_path) == []


def test_nothing_is_published_automatically_by_default(tmp_path: Path):
    g, ws, ids = drafted(tmp_path)
    assert auto_publish(ws, "g", list(ids.values())) == []
    assert outbox(tmp_path) == []
