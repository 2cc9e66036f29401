"""Incremental polling of paged threads: fetch the last known page and whatever follows it.

A poll with a cursor re-fetches only the last page it saw (conditionally: a 304 ends the
poll after one request) and then follows "next" links. Every post of every re-fetched page
comes back with its page number, so the store can notice edits and deletions there. The
first poll walks the whole thread from page 1 and reports progress.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Callable

from forummod.errors import ForumError, LayoutChanged
from forummod.forum.base import ParsedPage, Progress, ThreadPoll
from forummod.forum.http import Fetched
from forummod.adapter_records import Cursor, PageRef, RawPost
from forummod.model import Issue

Fetch = Callable[[str, str | None, str | None], Fetched]  # (url, etag, last_modified)
Parse = Callable[[str, str, int | None], ParsedPage]  # (text, url, first post number or None)
Sink = Callable[[ThreadPoll], None]  # stores a finished batch of pages (in one transaction)

MAX_PAGES_PER_POLL = 10_000  # a loop guard, far above any real game
RECENT_PAGES = 12  # page URLs the cursor keeps (the newest), for re-reading recent pages for edits
PAGE_URLS_KEY = "page_urls"  # cursor extra: JSON {page number: URL} of the newest pages walked
BATCH_PAGES = 50  # pages handed to a sink at a time: a first poll of 2,000 pages holds 50, not all


class PollInterrupted(ForumError):
    """A walk over several pages failed after some pages were read whole.

    `partial` holds those pages, with a cursor at the last one (its validators dropped, so
    the next poll re-reads it and follows on): a long first read that meets a flaky forum
    or the hourly budget keeps its progress instead of starting again from page 1 forever.
    """

    def __init__(self, error: ForumError, partial: ThreadPoll):
        super().__init__(str(error))
        self.error, self.partial = error, partial


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _extra(cursor: Cursor | None) -> dict[str, str]:
    return dict(cursor.extra) if cursor else {}


def recent_page_urls(cursor: Cursor | None) -> dict[int, str]:
    """{page number: URL} of the newest pages a thread's polls walked (at most RECENT_PAGES)."""
    raw = _extra(cursor).get(PAGE_URLS_KEY)
    if not raw:
        return {}
    try:
        return {int(k): str(v) for k, v in json.loads(raw).items()}
    except (ValueError, TypeError, AttributeError):
        return {}


def _with_page_urls(extra: dict[str, str], urls: dict[int, str]) -> None:
    if urls:
        newest = sorted(urls)[-RECENT_PAGES:]
        extra[PAGE_URLS_KEY] = json.dumps({str(n): urls[n] for n in newest}, separators=(",", ":"))


@dataclass
class _Walk:
    requests: int = 0
    nbytes: int = 0


def poll_pages(*, thread_id: str, first_url: str, cursor: Cursor | None, fetch: Fetch, parse: Parse,
               progress: Progress | None = None, keep_pages: bool = True, sink: Sink | None = None,
               batch_pages: int = BATCH_PAGES, first_post_number: int = 1,
               refused: Callable[[Fetched, str], ForumError] | None = None) -> ThreadPoll:
    """One poll of a thread (see module doc). `fetch` raises on network trouble; a page that
    no longer exists (404/410) makes the poll start again from page 1 with an Issue.

    With a `sink`, a long walk hands over every `batch_pages` pages as a ThreadPoll of their
    own (their posts, pages, issues, requests and bytes; a cursor at the last of them without
    its validators, as after an interruption, so a crash before the rest is stored re-reads
    that page and follows on) and forgets them; the ThreadPoll returned is the rest. A first
    poll of a long thread then holds one batch in memory instead of every page.

    `first_post_number`: the number the forum gives the opening post (the profile's; SMF 0). A
    thread already polled goes on numbering from its cursor, so a store keeps one numbering.
    `refused(answer, url)`: the error for an HTTP error answer (the adapter reads what the page
    says: "The requested topic does not exist."); default "GET url: HTTP n"."""
    walk = _Walk()
    issues: list[Issue] = []
    stream = f"thread:{thread_id}"

    def get(url: str, ref: PageRef | None) -> Fetched:
        f = fetch(url, ref.etag if ref else None, ref.last_modified if ref else None)
        walk.requests += 1
        walk.nbytes += f.nbytes
        return f

    ref = cursor.page_ref if cursor else None
    extra = _extra(cursor)
    first_number: int | None = None
    if ref is not None:
        f = get(ref.url, ref)
        if f.not_modified:
            return ThreadPoll(thread_id=thread_id, posts=(), pages_fetched=(), cursor=cursor,  # type: ignore[arg-type]
                              requests=walk.requests, bytes=walk.nbytes, not_modified=True)
        if f.status in (404, 410):
            issues.append(Issue("page_gone", f"{ref.url} answered {f.status}; reading the thread again from page 1",
                                severity="info"))
            f = get(first_url, None)
            first_number = first_post_number
        elif "first_number" in extra:
            first_number = int(extra["first_number"])
    else:
        f = get(first_url, None)
        first_number = first_post_number

    posts: list[RawPost] = []
    pages: list[int] = []
    raw: list[tuple[str, str]] = []
    visited: set[str] = set()
    last_page: int | None = cursor.pages_total if cursor else None
    page_first = first_number
    current_url = f.url
    done = 0  # pages read this poll, handed-over batches included
    last_pno = cursor.last_page if cursor else None  # of the page before (for a page that names none)
    last_post_id = cursor.last_post_id if cursor else None
    handed = [0, 0]  # requests and bytes already reported with handed-over batches
    page_urls = recent_page_urls(cursor)

    def result(partial: bool) -> ThreadPoll:
        new_extra = {k: v for k, v in extra.items() if k not in ("first_number",)}
        if page_first is not None:
            new_extra["first_number"] = str(page_first)
        _with_page_urls(new_extra, page_urls)
        last_ref = ref if not partial or ref is None else PageRef(url=ref.url, content_hash=ref.content_hash)
        new_cursor = Cursor(stream=stream, last_page=pages[-1] if pages else last_pno, pages_total=last_page,
                            last_post_id=posts[-1].post_id if posts else last_post_id,
                            page_ref=last_ref, extra=tuple(sorted(new_extra.items())))
        return ThreadPoll(thread_id=thread_id, posts=tuple(posts), pages_fetched=tuple(pages), cursor=new_cursor,
                          requests=walk.requests - handed[0], bytes=walk.nbytes - handed[1], issues=tuple(issues),
                          pages=tuple(raw))

    def hand_over() -> None:
        nonlocal last_post_id
        batch = result(partial=True)
        sink(batch)  # type: ignore[misc]
        handed[0] += batch.requests
        handed[1] += batch.bytes
        last_post_id = batch.cursor.last_post_id
        posts.clear()
        pages.clear()
        raw.clear()
        issues.clear()

    try:
        while True:
            if f.status >= 400:
                raise refused(f, current_url) if refused else ForumError(f"GET {current_url}: HTTP {f.status}")
            visited.add(current_url)
            page = parse(f.text, current_url, first_number)
            if not page.posts:
                raise LayoutChanged("?", current_url, "?", "parser returned no posts")
            pno = page.page if page.page is not None else (last_pno + 1 if done else (last_pno or 1))
            posts.extend(replace(p, page=pno) if p.page != pno else p for p in page.posts)
            pages.append(pno)
            page_urls[pno] = current_url
            last_pno = pno
            done += 1
            issues.extend(page.issues)
            if keep_pages:
                raw.append((current_url, f.text))
            if page.last_page:
                last_page = max(page.last_page, pno)
            page_first = page.posts[0].number if page.posts[0].number is not None else first_number
            ref = PageRef(url=current_url, etag=f.etag, last_modified=f.last_modified, content_hash=content_hash(f.text))
            if progress is not None:
                progress(done if cursor is None else pno, last_page)
            nxt = page.next_url
            if not nxt or nxt in visited or done >= MAX_PAGES_PER_POLL:
                break
            last_num = page.posts[-1].number
            first_number = last_num + 1 if last_num is not None else None
            if sink is not None and len(pages) >= batch_pages:
                hand_over()
            current_url = nxt
            f = get(nxt, None)
            current_url = f.url if f.status < 400 else nxt
    except ForumError as e:
        if not done:
            raise
        raise PollInterrupted(e, result(partial=True)) from e
    return result(partial=False)


def recheck_pages(*, thread_id: str, pages: list[tuple[int, str, int | None]], fetch: Fetch,
                  parse: Parse) -> ThreadPoll:
    """Read earlier pages of a thread again, for edits made after the polls moved past them.

    `pages`: (page number, URL, number of its first post or None). Each page is fetched whole
    (an edit changes the page but not always its validators); a page that fails or shows no
    posts is skipped with an Issue, the rest still count. The cursor is not moved: the caller
    stores the posts (new versions where a body changed) and keeps the thread's cursor."""
    walk = _Walk()
    posts: list[RawPost] = []
    fetched: list[int] = []
    raw: list[tuple[str, str]] = []
    issues: list[Issue] = []
    for pno, url, first_number in pages:
        def skipped(why: object) -> None:
            issues.append(Issue("recheck_failed", f"re-reading page {pno} for edits: {why}", severity="info",
                                details=url))

        try:
            f = fetch(url, None, None)
        except ForumError as e:
            skipped(e)
            continue
        walk.requests += 1
        walk.nbytes += f.nbytes
        if f.status >= 400:
            skipped(f"HTTP {f.status}")
            continue
        try:
            page = parse(f.text, f.url, first_number)
        except ForumError as e:
            skipped(e)
            continue
        if not page.posts:
            continue
        posts.extend(replace(p, page=pno) if p.page != pno else p for p in page.posts)
        fetched.append(pno)
        raw.append((f.url, f.text))
    return ThreadPoll(thread_id=thread_id, posts=tuple(posts), pages_fetched=tuple(fetched),
                      cursor=Cursor(stream=f"thread:{thread_id}"), requests=walk.requests, bytes=walk.nbytes,
                      issues=tuple(issues), pages=tuple(raw))
