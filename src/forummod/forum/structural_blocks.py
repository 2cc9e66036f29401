"""Which repeated block of a page is the post: the choice, its runner-up and how sure it is.

A kind of element (its signature: tag, class kinds, numbered id pattern) is a candidate when
its members hold an author and a date. Repetition alone misleads: every list item of a
sidebar, every cell of a class-less table repeats too. So each candidate is scored on what a
post is made of: an author, a date *and a body*, the words its author wrote, that is text
outside links, author names and dates (a list of thread links has none; a header row alone has
none, its message row follows it). The candidate whose complete blocks carry the most such
text explains the page best; nothing here names a forum.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from lxml import etree

_SKIP = {"script", "style", "head", "title", "option", "select", "textarea", "button"}  # not noscript: a crawler view holds its posts there
_WORD = re.compile(r"[^\W\d_]{3,}")  # words of the body; "By", "On", "#3", "12:04" are not
MIN_BODY_LETTERS = 3  # one word: "vote p1"; a header's labels ("By … On …", "#3") stay below
MAX_AUTHORS_IN_ONE_POST = 12  # quotes add a few; a wrapper of many posts holds more
# an unclassed div, cell or list repeats everywhere: it names no kind of block
_ANONYMOUS = ("div", "td", "dd", "ul", "form", "span", "p")


@dataclass(frozen=True)
class BlockGroup:
    """One candidate kind of post block and what its members hold."""

    sig: tuple
    blocks: tuple[Any, ...]
    complete: int  # members with an author, a date and a body
    words: int  # letters of body words in the complete members
    text: int  # characters of text in all members

    @property
    def share(self) -> float:
        return self.complete / len(self.blocks) if self.blocks else 0.0


def body_letters(root: Any, banned: set[int]) -> dict[int, int]:
    """Letters of words below each element that are no link text, author name or date (`banned`
    element ids): one walk of the tree, children before parents."""
    out: dict[int, int] = {}
    # iterative (a page of unclosed <font> tags nests deeper than Python's recursion limit)
    stack: list[tuple[Any, bool, list[int]]] = []  # (element, muted, [letters so far])
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            parent_muted = stack[-1][1] if stack else False
            skip = not isinstance(el.tag, str) or el.tag in _SKIP
            muted = parent_muted or skip or el.tag == "a" or id(el) in banned
            stack.append((el, muted, [0 if muted else _letters(el.text)]))
            continue
        _, muted, acc = stack.pop()
        n = 0 if not isinstance(el.tag, str) or el.tag in _SKIP else acc[0]
        out[id(el)] = n
        if stack:
            parent = stack[-1]
            parent[2][0] += n + (0 if parent[1] else _letters(el.tail))
    return out


def _posts_not_wrappers(members: list[Any]) -> list[Any]:
    """Of an anonymous tag's members, the outermost that hold at most one other member (a post
    table holding its header table), not the layout ones holding several posts."""
    ids = {id(m) for m in members}
    inner: dict[int, int] = {}
    for m in members:
        for a in m.iterancestors():
            if id(a) in ids:
                inner[id(a)] = inner.get(id(a), 0) + 1
    posts = [m for m in members if inner.get(id(m), 0) <= 1]
    post_ids = {id(m) for m in posts}
    return [m for m in posts if not any(id(a) in post_ids for a in m.iterancestors())]


def _letters(text: str | None) -> int:
    return sum(len(w) for w in _WORD.findall(text)) if text else 0


def rank_groups(groups: dict[tuple, list[Any]], a_below: dict[int, int], letters: dict[int, int],
                next_of: Callable[[Any], Any]) -> list[BlockGroup]:
    """Candidate groups, best first: the most complete blocks, discounted by the share of blocks
    that are not (a kind of cell that holds the posts' words in some members and nothing in the
    others is no post), then the most text (a post's box before its parts). A group's members are those holding one post's
    worth of authors, outermost first (a post table inside a layout table is the post); a
    member's body may be the row after it (a two-row post: header, then message)."""
    ranked = []
    for sig, members in groups.items():
        if not sig[1] and not sig[2] and len(sig) == 3 and sig[0] in _ANONYMOUS:
            continue
        anonymous = not sig[1] and not sig[2]
        # a kind named by a class or id: its members of one post's size, outermost first; an
        # anonymous tag ("tr"): only members no other one holds, as the container's XPath will
        # find every one of them (a layout row holding the thread is no post, nor its inner rows)
        if anonymous:
            outer = _posts_not_wrappers(members)
            outer = [m for m in outer if a_below[id(m)] <= MAX_AUTHORS_IN_ONE_POST]
        else:
            small = [m for m in members if a_below[id(m)] <= MAX_AUTHORS_IN_ONE_POST]
            small_ids = {id(m) for m in small}
            outer = [m for m in small if not any(id(a) in small_ids for a in m.iterancestors())]
        ids = {id(m) for m in outer}
        if not outer:
            continue
        complete = words = 0
        for m in outer:
            n = letters.get(id(m), 0)
            nxt = next_of(m)
            if nxt is not None and id(nxt) not in ids and (n < MIN_BODY_LETTERS or m.tag == nxt.tag == "tr"):
                n += letters.get(id(nxt), 0)  # a header row ("rank, Beitrag #2") and its message row
            if n >= MIN_BODY_LETTERS:
                complete += 1
                words += n
        text = sum(len(m.text_content()) for m in outer)
        ranked.append(BlockGroup(sig, tuple(outer), complete, words, text))
    # equal counts: the more text, so a post's outer box wins over a part of it (its body, its row)
    ranked.sort(key=lambda g: (round(g.complete * g.share, 1), g.text), reverse=True)
    return ranked
