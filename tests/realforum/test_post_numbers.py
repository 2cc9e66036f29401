"""Post numbers are the forum's own where its page prints one (issue 28, item 10): SMF prints
"Reply #N" (#N beside each reply) counting the opening post as 0; forummod numbered from 1, one
more than the GM read on the page. Polled from the real SMF on 127.0.0.1 and compared with the
numbers its thread page prints."""

from __future__ import annotations

import re

import lxml.html
import pytest
import requests

from forummod.forum.base import ThreadRef

from tests.realforum.test_write_side import gm  # noqa: F401 (fixture)

pytestmark = pytest.mark.realforum


def _printed(html: str) -> dict[str, int]:
    """{post id: the number SMF prints beside it} of one thread page."""
    out = {}
    for inner in lxml.html.fromstring(html).cssselect("div.post_wrapper"):
        ids = [d.get("id") for d in inner.cssselect("div.inner[id^='msg_']")]
        shown = [s.text_content() for s in inner.cssselect("span.page_number")]
        if ids and shown:
            out[ids[0][4:]] = int(re.search(r"\d+", shown[0]).group())
    return out


def test_smf_post_numbers_are_the_numbers_the_forum_prints(fresh_forum, gm):  # noqa: F811
    if fresh_forum.engine != "smf":
        pytest.skip("the engine prints no per-post number forummod could disagree with here")
    poll = gm().poll_thread(ThreadRef(fresh_forum.thread_url()), None)
    ours = {p.post_id: p.number for p in poll.posts}
    printed: dict[str, int] = {}
    for page in range(1, 6):
        printed |= _printed(requests.get(fresh_forum.thread_url(page=page), timeout=20).text)
    assert printed and all(ours[pid] == n for pid, n in printed.items()), (ours, printed)
    opening = min(poll.posts, key=lambda p: p.created_at)
    assert opening.number == 0  # SMF prints none for it: "Reply #1" is the post after it
