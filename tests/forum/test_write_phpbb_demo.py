"""phpBB write side over real HTTP, against the demo forum (prosilver forms and phpBB's rules):
login, reply with form token and lastclick, flood interval, PM compose with its "Add" step,
the forum's own errors as PublishError with nothing resent, and find_published after a crash."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from forummod.config import SiteConfig
from forummod.demo.site import FLOOD_ERROR, NO_SUCH_USER, PhpbbSite, RunningSite, SiteThread, thread_url
from forummod.errors import PublishError
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter
from forummod.forum.write import PublishUncertain, reset_flood_gates

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def forum(clock):
    """A demo board sharing the test's fake clock: the adapter's waits move the server's time."""
    reset_flood_gates()
    site = PhpbbSite(users={"gm": "gm-pass-123", "alice": "alice-pass", "bob": "bob-pass"}, clock=clock,
                     flood_interval=15)
    site.threads[7] = SiteThread(7, "Mafia 12")
    for i in range(25):  # three pages of 10
        site.add_post(7, "alice" if i % 2 else "bob", T0 + timedelta(minutes=i), f"post {i}")
    with RunningSite(site) as running:
        yield site, running.base_url
    reset_flood_gates()


def gm_adapter(base, clock, monkeypatch, profile=None, **site_keys):
    monkeypatch.setenv("FM_GM_PW", "gm-pass-123")
    site = SiteConfig(engine="phpbb", base_url=base, username="gm", password_env="FM_GM_PW", timezone="UTC",
                      request_interval=0.0, retries=0, **site_keys)
    http = HttpClient.from_site("demo", site, clock=clock, wall_clock=clock, sleep=clock.sleep)
    ad = make_adapter("demo", site, http=http)
    if profile is not None:
        ad.profile = profile
    return ad


def posts_by(site, author):
    return [p for p in site.threads[7].posts if p.author == author]


def posted(site, what="posting.php"):
    return [r for r in site.requests if r.startswith("POST") and what in r]


def test_reply_logs_in_sends_the_form_back_and_reads_the_new_post(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    pub = ad.reply(ThreadRef(thread_url(base, 7)), "Day 1 [b]starts[/b] fm-3f9c2a1b", marker="fm-3f9c2a1b")
    (mine,) = posts_by(site, "gm")
    assert pub.remote_id == str(mine.post_id)
    assert pub.url.endswith(f"p={mine.post_id}#p{mine.post_id}")
    assert pub.at == mine.at
    assert mine.bbcode == "Day 1 [b]starts[/b] fm-3f9c2a1b"
    assert "POST /ucp.php?mode=login" in site.requests  # the posting page asked for a login first
    assert len(posted(site)) == 1
    # the login form's minimum age (check_form_key), then phpBB ignores a submit less than 2 s
    # after the posting form (lastclick)
    assert clock.sleeps == [pytest.approx(1.1, abs=0.01), 2.0]


def test_two_replies_are_spaced_by_the_flood_interval(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    ad.reply(ThreadRef(thread_url(base, 7)), "first")
    ad.reply(ThreadRef(thread_url(base, 7)), "second")
    assert [p.bbcode for p in posts_by(site, "gm")] == ["first", "second"]
    a, b = posts_by(site, "gm")
    assert (b.at - a.at).total_seconds() >= 15


def test_the_forums_flood_error_is_a_publish_error_and_nothing_is_resent(forum, clock, monkeypatch):
    site, base = forum
    site.flood_interval = 60  # the board is stricter than phpBB's default the profile knows
    ad = gm_adapter(base, clock, monkeypatch)
    ad.reply(ThreadRef(thread_url(base, 7)), "first")
    with pytest.raises(PublishError, match="cannot make another post so soon") as err:
        ad.reply(ThreadRef(thread_url(base, 7)), "second")
    assert not isinstance(err.value, PublishUncertain)
    assert FLOOD_ERROR in str(err.value)
    assert [p.bbcode for p in posts_by(site, "gm")] == ["first"]
    assert len(posted(site)) == 2  # one POST per reply, never a second try


def test_lost_answer_is_uncertain_and_find_published_finds_the_post_after_a_restart(forum, clock, monkeypatch):
    site, base = forum
    thread = ThreadRef(thread_url(base, 7))
    started = datetime.fromtimestamp(clock(), tz=timezone.utc)
    site.drop_next_answer = True  # the post is stored, then the connection dies
    with pytest.raises(PublishUncertain, match="find_published"):
        gm_adapter(base, clock, monkeypatch).reply(thread, "Vote count\n[size=1]fm-3f9c2a1b[/size]",
                                                   marker="fm-3f9c2a1b")
    assert len(posted(site)) == 1
    fresh = gm_adapter(base, clock, monkeypatch)  # the next run of forummod
    found = fresh.find_published("fm-3f9c2a1b", thread, since=started)
    (mine,) = posts_by(site, "gm")
    assert found is not None and found.remote_id == str(mine.post_id) and found.at == mine.at
    assert fresh.find_published("fm-00000000", thread, since=started) is None
    assert len(posted(site)) == 1  # finding is reading only


def test_a_submit_faster_than_phpbb_allows_is_never_reported_as_posted(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    ad.profile = replace(ad.profile, reply=replace(ad.profile.reply, min_form_age=0))
    with pytest.raises(PublishUncertain):
        ad.reply(ThreadRef(thread_url(base, 7)), "too quick fm-11111111", marker="fm-11111111")
    assert posts_by(site, "gm") == []  # phpBB dropped it (lastclick) and the adapter did not pretend


def test_find_published_wants_our_post_not_a_quote_of_it(forum, clock, monkeypatch):
    site, base = forum
    thread = ThreadRef(thread_url(base, 7))
    site.add_post(7, "alice", T0 + timedelta(hours=1), "[quote=gm]tally fm-22222222[/quote] I disagree")
    ad = gm_adapter(base, clock, monkeypatch)
    assert ad.find_published("fm-22222222", thread) is None
    gm_post = site.add_post(7, "gm", T0 + timedelta(hours=2), "Tally [size=1]fm-22222222[/size]")
    site.add_post(7, "bob", T0 + timedelta(hours=3), "ok")
    found = ad.find_published("fm-22222222", thread)
    assert found is not None and found.remote_id == str(gm_post.post_id)


def test_find_published_walks_back_from_the_last_page(forum, clock, monkeypatch):
    site, base = forum
    thread = ThreadRef(thread_url(base, 7))
    old = site.threads[7].posts[3]  # page 1 of 3
    old.author, old.bbcode = "gm", "old tally fm-33333333"
    for i in range(20):  # now page 1 of 5
        site.add_post(7, "bob", T0 + timedelta(hours=1, minutes=i), f"later {i}")
    ad = gm_adapter(base, clock, monkeypatch)
    assert ad.find_published("fm-33333333", thread) is None  # without `since`: the last 3 pages only
    found = ad.find_published("fm-33333333", thread, since=T0)
    assert found is not None and found.remote_id == str(old.post_id)
    site.requests.clear()
    assert ad.find_published("fm-44444444", thread, since=T0 + timedelta(hours=1, minutes=30)) is None
    # page 1 (to learn the last page), the last page, and the one before, which is older than `since`
    assert site.requests == ["GET /viewtopic.php?t=7", "GET /viewtopic.php?t=7&start=40",
                             "GET /viewtopic.php?t=7&start=30"]


def test_send_pm_adds_the_recipient_then_sends_and_is_found_in_outbox_and_sent(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    pub = ad.send_pm("alice", "Your role", "You are the [b]Seer[/b]. fm-55555555", marker="fm-55555555")
    (pm,) = [p for p in site.pms if p.sender == "gm"]
    assert (pm.to, pm.subject, pm.bbcode) == ("alice", "Your role", "You are the [b]Seer[/b]. fm-55555555")
    assert pub.remote_id == str(pm.pm_id) and pub.url.endswith(f"mode=view&p={pm.pm_id}")
    assert len(posted(site, "mode=compose")) == 2  # "Add" (publishes nothing), then Submit
    again = gm_adapter(base, clock, monkeypatch).find_published("fm-55555555")
    assert again is not None and again.remote_id == str(pm.pm_id) and "f=-2" in again.url  # Outbox
    site.sessions["alice-sid"] = "alice"
    pm.read = True  # alice opened it: phpBB moves it to Sent messages
    later = gm_adapter(base, clock, monkeypatch).find_published("fm-55555555")
    assert later is not None and later.remote_id == str(pm.pm_id) and "f=-1" in later.url


def test_pm_to_an_unknown_user_fails_before_anything_is_sent(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    with pytest.raises(PublishError, match="recipient 'nobody'") as err:
        ad.send_pm("nobody", "Your role", "hello")
    assert NO_SUCH_USER in str(err.value) and not isinstance(err.value, PublishUncertain)
    assert site.pms == [] and len(posted(site, "mode=compose")) == 1  # the "Add" step only


def test_role_pms_in_a_row_respect_the_flood_interval(forum, clock, monkeypatch):
    site, base = forum
    ad = gm_adapter(base, clock, monkeypatch)
    for name in ("alice", "bob"):
        ad.send_pm(name, f"Role for {name}", f"Your role, {name}")
    times = [p.at for p in site.pms]
    assert [p.to for p in site.pms] == ["alice", "bob"] and (times[1] - times[0]).total_seconds() >= 15


def test_the_sites_flood_interval_overrides_the_profiles(forum, clock, monkeypatch):
    """Issue 28, item 10: `sites.x.flood_interval` sets the wait between two writes (a board set
    stricter than the engine's default; 0 for a moderator the forum exempts)."""
    site, base = forum
    site.flood_interval = 40  # stricter than phpBB's 15 the profile knows
    ad = gm_adapter(base, clock, monkeypatch, flood_interval=40.0)
    for name in ("alice", "bob"):
        ad.send_pm(name, f"Role for {name}", f"Your role, {name}")
    times = [p.at for p in site.pms]
    assert (times[1] - times[0]).total_seconds() >= 40  # no flood error: the adapter waited long enough
    reset_flood_gates()
    site.flood_interval = 0
    waits = len(clock.sleeps)
    fast = gm_adapter(base, clock, monkeypatch, flood_interval=0.0)
    fast.send_pm("alice", "again", "1")
    fast.send_pm("bob", "again", "2")
    assert all(w <= 2.0 for w in clock.sleeps[waits:])  # only the form's minimum age, never 15 s


def test_session_ids_and_form_tokens_never_reach_a_log_line(forum, clock, monkeypatch, caplog):
    from forummod.logsafe import redact

    site, base = forum
    caplog.set_level("DEBUG")
    pub = gm_adapter(base, clock, monkeypatch).reply(ThreadRef(thread_url(base, 7)), "hello")
    (sid,) = [s for s, user in site.sessions.items() if user == "gm"]
    tokens = list(site.forms)
    assert "POST" in caplog.text and "sid=" in caplog.text  # the form's action URL is logged...
    assert sid not in redact(caplog.text) and not any(t in redact(caplog.text) for t in tokens)  # ...redacted
    assert "sid" not in (pub.url or "")


def test_session_ids_are_cut_from_a_pages_links_before_parsing():
    """phpBB writes `sid=` into every link until it sees the cookie: a post that quotes another
    links it, and its stored HTML must be the same in every session (and carry no secret)."""
    from forummod.forum.html_adapter import drop_session_ids

    sid = "9c80d0fb48abe754dd307c44a23946f5"
    page = (f'<a href="./viewtopic.php?p=5&amp;sid={sid}#p5">x</a> <a href="./ucp.php?sid={sid}&amp;i=pm">y</a> '
            f'<a href="index.php?PHPSESSID={sid};action=pm">z</a> <a href="viewtopic.php?t=2&amp;start=10">w</a>')
    assert drop_session_ids(page) == ('<a href="./viewtopic.php?p=5#p5">x</a> <a href="./ucp.php?&amp;i=pm">y</a> '
                                      '<a href="index.php?;action=pm">z</a> <a href="viewtopic.php?t=2&amp;start=10">w</a>')
