"""Every post of a long game thread is read on a busy board (issue 34, item 0), on the real MyBB,
phpBB and SMF.

A MyBB poll read page 1 of the game thread and nothing after it once the game's board had more
than one page of threads: MyBB's thread page carries the board's page list (a hidden breadcrumb
menu) before the thread's own, whose "Next" leads to the board's next page. Here each engine's
board gets 60 more threads through the engine's own functions (four pages of threads, ten of them
newer than the game thread, which stays on the board's first page as an active game's does) and
the game thread 32 more replies (six pages of ten), and a poll from scratch must read every post
the database holds, page by page, with no finding.
"""

from __future__ import annotations

import pytest
import requests

from forummod.config import SiteConfig
from forummod.forum.base import ThreadRef
from forummod.forum.http import HttpClient
from forummod.forum.registry import make_adapter

pytestmark = pytest.mark.realforum

MORE_THREADS = 60
NEWER = 10  # threads above the game thread on the board's first page
MORE_POSTS = 32  # 28 + 32 = 60 posts: six pages of ten


def _adapter(forum):
    cfg = SiteConfig(engine=forum.engine, base_url=forum.base_url, timezone=forum.page_timezone,
                     language=forum.page_language, request_interval=0.0, retries=1, timeout=20.0)
    return make_adapter("realforum", cfg, http=HttpClient.from_site("realforum", cfg))


@pytest.fixture(params=["mybb", "phpbb", "smf"])
def busy_forum(request):
    forum = request.getfixturevalue(f"{request.param}_fresh")
    forum.make_board_busy(threads=MORE_THREADS, posts=MORE_POSTS, newer=NEWER)
    return forum


def test_every_post_of_a_long_game_thread_on_a_board_of_many_pages_is_read(busy_forum):
    forum = busy_forum
    board_page3 = requests.get(forum.board_url(3), timeout=30).text
    assert "Altra partita" in board_page3  # the board has at least three pages of threads
    if forum.engine == "mybb":  # the page list that misled the poll: the board's, in the breadcrumb, with a "Next"
        page2 = requests.get(forum.thread_url(2), timeout=30).text
        menu = page2[page2.index('id="breadcrumb_multipage_popup"'):page2.index('class="float_left"')]
        assert "forumdisplay.php?fid=2&amp;page=2\" class=\"pagination_next\"" in menu
    stored = forum.db_posts()
    assert len(stored) == 28 + MORE_POSTS

    poll = _adapter(forum).poll_thread(ThreadRef(forum.thread_url()), None)

    assert sorted(p.post_id for p in poll.posts) == sorted(str(p.id) for p in stored)
    assert poll.pages_fetched == (1, 2, 3, 4, 5, 6) and poll.cursor.pages_total == 6
    assert [p.page for p in poll.posts] == [n // 10 + 1 for n in range(len(stored))]
    assert not [i for i in poll.issues if i.severity == "error"], poll.issues
