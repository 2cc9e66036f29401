"""Which page links of a thread page are this thread's own (issue 34, item 0).

A thread page can carry more than one page list: MyBB puts the board's pages in a hidden
breadcrumb menu before the thread's own, a "similar topics" box lists other threads with their
pages, a sidebar pages the board's latest topics. Taking the first "Next" of the page walked a
MyBB poll off the thread after page 1. So a page link counts only when it points at this
thread: the same thread id (by the profile's URL patterns) as the page's URL, its canonical
link or its title link. Where the profile cannot read a thread id from the page's URL (a forum's
own URL scheme), the page list nearest the posts decides: links grouped with it count, a list
that shares no link with it (the board's) does not.

Numbers and texts outside links (the current page, "Page 2 of 5") count when the nearest page
list around them is this thread's. Pure: an lxml tree and URLs in, verdicts out.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from forummod.forum.profile import Profile

THREAD = "t:"  # an identity by thread id: "t:1234"
ADDRESS = "u:"  # an identity by address (page marker and fragment removed), for URLs the profile cannot read


def first_page_url(profile: Any, url: str) -> str:
    """The URL of page 1 of the thread `url` points into (page markers removed)."""
    parts = urlsplit(url)
    p = profile.pagination
    query = parts.query
    path = parts.path
    if p.param:
        q = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k != p.param]
        query = urlencode(q)
    if p.path_regex:
        def drop(m: re.Match[str]) -> str:
            s = m.group(0)
            for i in range(1, (m.lastindex or 0) + 1):
                if m.group(i):
                    a, b = m.span(i)
                    a -= m.start(0)
                    b -= m.start(0)
                    repl = "0" if p.kind == "offset" else "1"
                    return s[:a] + repl + s[b:]
            return s
        newpath = re.sub(p.path_regex, drop, path)
        newquery = re.sub(p.path_regex, drop, query)
        path, query = newpath, newquery
    return urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def thread_id_of(profile: Profile, url: str) -> str | None:
    m = profile.match_thread(url)
    if not m:
        return None
    gd = m.groupdict()
    return gd.get("thread") or (m.group(1) if m.groups() else None)


def identity(profile: Profile, url: str) -> str:
    """What thread an absolute URL is a page of: "t:<id>" where the profile reads an id from
    it, else "u:<its page-1 address>"."""
    tid = thread_id_of(profile, url)
    return THREAD + tid if tid else ADDRESS + first_page_url(profile, url)


def usable_href(href: str | None) -> bool:
    return bool(href) and not href.startswith(("#", "javascript"))  # type: ignore[union-attr]


def canonical_href(root: Any) -> str | None:
    """The page's `<link rel="canonical">` (in the head, where engines write it)."""
    head = root.find("head")
    for el in (head if head is not None else ()):
        if el.tag == "link" and (el.get("rel") or "").lower() == "canonical" and el.get("href"):
            return el.get("href")
    return None


def own_identities(profile: Profile, root: Any, url: str) -> set[str]:
    """What thread the page itself says it is: its URL (unless the URL names a post, `[urls] post`)
    and its canonical link."""
    own = set() if profile.names_post(url) else {identity(profile, url)}
    canon = canonical_href(root)
    if canon:
        absu = urljoin(url, canon)
        if not profile.names_post(absu):
            own.add(identity(profile, absu))
    return own


def title_identities(profile: Profile, root: Any, url: str) -> set[str]:
    """The thread the page's title links to (phpBB's `h2.topic-title a`): a page reached by a
    post link (`viewtopic.php?p=N`, whose URL names a post) still names its thread there."""
    for ex in profile.title_sel:
        found = ex.elements(root)
        if not found:
            continue
        el = found[0]  # the title: its link, or none
        link = el if el.tag == "a" else next(el.iter("a"), None)
        href = link.get("href") if link is not None else None
        if usable_href(href):
            ident = identity(profile, urljoin(url, href))  # type: ignore[arg-type]
            return {ident} if ident.startswith(THREAD) else set()
        return set()
    return set()


def has_thread_id(identities: Iterable[str]) -> bool:
    return any(i.startswith(THREAD) for i in identities)


def nearest_block_identities(candidates: Sequence[tuple[Any, str]], posts: Sequence[Any], root: Any) -> set[str]:
    """The identities of the page list nearest the posts and of every list sharing one with it.

    `candidates`: (anchor element, identity). A list ("block") is the outermost element around
    an anchor that holds no post; blocks are ordered by how many elements lie between them and
    the posts. Used only where the page's own thread cannot be told by id."""
    if not candidates:
        return set()
    post_set = set(posts)
    holding: set[Any] = set()  # every element that holds a post
    for p in posts:
        holding.update(p.iterancestors())
    order = {el: i for i, el in enumerate(root.iter())}
    first = min((order.get(p, 0) for p in posts), default=0)
    last_el = posts[-1] if posts else None
    last = max((order.get(d, 0) for d in last_el.iter()), default=first) if last_el is not None else first

    blocks: dict[Any, set[str]] = {}
    far: set[Any] = set()  # anchors inside a post: a list quoted in a body is no page list
    for a, ident in candidates:
        block = a
        inside = a in post_set
        for anc in a.iterancestors():
            if anc in post_set:
                inside = True
            if anc in holding:
                break
            block = anc
        blocks.setdefault(block, set()).add(ident)
        if inside:
            far.add(block)

    def distance(block: Any) -> int:
        if block in far:
            return 1 << 30
        start = order.get(block, 0)
        end = max((order.get(d, start) for d in block.iter()), default=start)
        if end < first:
            return first - end
        if start > last:
            return start - last
        return 0

    nearest = min(blocks, key=distance)
    chosen = set(blocks[nearest])
    return set().union(*(ids for ids in blocks.values() if ids & chosen))


class Verdicts:
    """Whether an element that is not a link (a current page number, a "Page 2 of 5" text)
    belongs to this thread's page list: the lowest element around it that holds any page link
    decides, by whether that holds one of this thread's. Everything counts where no link was
    refused (the common page: nothing to tell apart)."""

    def __init__(self, accepted: Iterable[Any], refused: Iterable[Any]):
        self.refused_any = False
        self.ok: set[Any] = set()
        self.bad: set[Any] = set()
        for a in accepted:
            self.ok.add(a)
            self.ok.update(a.iterancestors())
        for a in refused:
            self.refused_any = True
            self.bad.add(a)
            self.bad.update(a.iterancestors())

    def counts(self, node: Any) -> bool:
        if not self.refused_any:
            return True
        el = node if hasattr(node, "iterancestors") else getattr(node, "getparent", lambda: None)()
        if el is None:
            return True
        for x in (el, *el.iterancestors()):
            if x in self.ok:
                return True
            if x in self.bad:
                return False
        return True
