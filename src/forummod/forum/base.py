"""What every forum adapter offers the rest of the tool.

An adapter knows one forum engine. Its parsing half is pure (HTML/JSON in, records out) so
it can be tested on saved pages; its fetching half goes through `forum.http.HttpClient`,
which owns retries, politeness and timeouts. The service never sees HTML selectors or URLs
patterns: it calls `poll_thread`, `poll_inbox`, `reply`, `send_pm` and `find_published`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Protocol, runtime_checkable

from forummod.adapter_records import Cursor, RawMessage, RawPost
# ThreadRef lives in model, so the service names a thread without importing the forum package
from forummod.model import Issue, Published, ThreadRef


@dataclass(frozen=True)
class ParsedPage:
    """The pure result of parsing one thread page."""

    posts: tuple[RawPost, ...]
    page: int | None = None  # this page's number (1-based)
    last_page: int | None = None  # number of pages the thread has, if the page says
    next_url: str | None = None
    thread_id: str | None = None
    title: str | None = None
    issues: tuple[Issue, ...] = ()


@dataclass(frozen=True)
class ThreadPoll:
    """What one incremental poll of a thread brought back."""

    thread_id: str  # stable id of the thread inside the site (store key)
    posts: tuple[RawPost, ...]  # every post on every page fetched this poll
    pages_fetched: tuple[int, ...]  # page numbers that were (re)parsed this poll
    cursor: Cursor
    requests: int = 0  # HTTP requests made (conditional 304s included)
    bytes: int = 0
    not_modified: bool = False  # the server answered 304 for the last known page
    issues: tuple[Issue, ...] = ()
    pages: tuple[tuple[str, str], ...] = ()  # (url, body) of fetched pages, to keep raw input


@dataclass(frozen=True)
class InboxPoll:
    messages: tuple[RawMessage, ...]  # new messages only (by message id)
    cursor: Cursor
    requests: int = 0
    bytes: int = 0
    issues: tuple[Issue, ...] = ()


Progress = Callable[[int, int | None], None]  # (pages done, pages total or None)


@runtime_checkable
class ForumAdapter(Protocol):
    """The interface the service uses. `engine` is the profile name, e.g. "phpbb"."""

    engine: str

    def thread_id(self, thread: ThreadRef) -> str:
        """A stable id for a thread URL (the store keys posts by it)."""

    def poll_thread(self, thread: ThreadRef, cursor: Cursor | None,
                    progress: Progress | None = None) -> ThreadPoll:
        """Fetch what changed since `cursor` (None: the whole thread)."""

    def poll_inbox(self, cursor: Cursor | None, known_ids: frozenset[str] = frozenset()) -> InboxPoll:
        """Fetch private messages not in `known_ids`, without marking unread ones as read where possible."""

    def reply(self, thread: ThreadRef, body: str, marker: str | None = None) -> Published:
        """Post `body` (already carrying `marker`) as a reply in the thread, sent exactly once.

        Waits for the engine's flood interval first. `PublishError` (with the forum's own
        words) when the forum refused it; `forum.write.PublishUncertain`, a subclass, when it
        may have been posted (lost answer, an answer that does not say): the caller must then
        use `find_published`, never send again blindly. `marker` lets the adapter check the
        post it is pointed at and find it when the answer names no id."""

    def send_pm(self, to: str, subject: str, body: str, marker: str | None = None) -> Published:
        """Send a private message to one recipient; same contract as `reply`."""

    def find_published(self, marker: str, thread: ThreadRef | None = None,
                       since: datetime | None = None) -> Published | None:
        """Our post (in `thread`) or sent PM (without `thread`) whose body carries `marker`,
        searching back to `since`; None when the forum shows none (exactly-once after a crash).
        Only reads."""


#: Adapters normalise post bodies: every quote, spoiler, code block and signature container in
#: `RawPost.html` / `RawMessage.body_html` carries `data-fm="quote" | "spoiler" | "code" |
#: "signature"` (quotes may add `data-fm-author="<quoted name>"`), whatever the engine's own
#: markup. Extraction excludes those elements without knowing any engine.
FM_ATTR = "data-fm"
FM_KINDS = ("quote", "spoiler", "code", "signature")
