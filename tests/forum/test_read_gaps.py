"""A thread's stored posts against what its pages imply (issue 34, item 0): `read_gaps.read_gap`."""

from __future__ import annotations

from forummod.read_gaps import ReadGap, page_list, read_gap


def test_every_page_read_in_full_is_no_gap():
    assert read_gap("game", "7", 6, {1: 10, 2: 10, 3: 10, 4: 10, 5: 10, 6: 3}) is None
    assert read_gap("game", "7", 1, {1: 4}) is None  # one page: nothing to imply
    assert read_gap("game", "7", None, {}) is None  # a thread whose pages the poll could not count


def test_pages_never_read_are_a_gap_whatever_the_counts():
    gap = read_gap("game", "7", 6, {1: 10})  # the walk left after page 1 (MyBB's board "Next")
    assert gap is not None and gap.unread_pages == (2, 3, 4, 5, 6)
    assert (gap.read, gap.expected, gap.per_page) == (10, 51, 10)
    assert "6 pages shown, 10 posts read of at least 51 (10 a page); pages 2-6 not read" in gap.message()


def test_a_page_read_half_empty_is_a_gap_and_a_post_or_two_fewer_is_not():
    gap = read_gap("game", "7", 4, {1: 25, 2: 9, 3: 25, 4: 2})  # 25 a page, learnt from the pages
    assert gap is not None and gap.short_pages == (2,) and not gap.unread_pages
    assert "page 2 read short" in gap.message()
    assert read_gap("game", "7", 4, {1: 25, 2: 24, 3: 25, 4: 2}) is None  # a post hidden from the GM


def test_the_gap_keeps_its_key_while_new_posts_arrive_on_the_last_page():
    a = read_gap("game", "7", 5, {1: 10, 4: 10, 5: 2})
    b = read_gap("game", "7", 5, {1: 10, 4: 10, 5: 7})
    assert a is not None and b is not None and a.key == b.key and a.unread_pages == (2, 3)
    c = read_gap("game", "7", 6, {1: 10, 4: 10, 5: 10, 6: 1})
    assert c is not None and c.key != a.key  # a page more: told again


def test_a_gap_survives_its_snapshot():
    gap = read_gap("graveyard", "8", 3, {1: 10})
    assert gap is not None and ReadGap.from_payload(gap.payload()) == gap


def test_page_lists_are_written_as_runs():
    assert page_list((2, 4, 5, 6, 9)) == "2, 4-6, 9"
