"""What forum adapters read and the poller keeps: raw posts and messages, page validators and
poll cursors.

Apart from `forummod.model` because a recount or a cron `tally` never builds one: creating
these classes at import costs process start-up time a read-only command does not need. The
forum adapters, the poller and the store's poll methods import them from here. Nothing here
does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class RawPost:
    """One post as an adapter read it from a thread page (or an archive file)."""

    post_id: str
    author: str
    created_at: datetime
    html: str
    number: int | None = None  # position in the thread, counted across pages (first post = 1 or 0)
    author_id: str | None = None
    edited_at: datetime | None = None
    edited: bool = False  # an edit marker was shown even if no time was
    page: int | None = None
    url: str | None = None
    # the page showed no readable date: created_at is a bound from the neighbours or the fetch
    # time, good for ordering only, never for a deadline
    date_guessed: bool = False


@dataclass(frozen=True)
class RawMessage:
    """One private message as an adapter read it from the GM's inbox."""

    message_id: str
    sender: str
    created_at: datetime
    body_html: str
    recipients: tuple[str, ...] = ()
    subject: str = ""
    conversation_id: str | None = None
    sender_id: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class PageRef:
    """A fetched page's identity and HTTP validators, for conditional requests."""

    url: str
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None


@dataclass(frozen=True)
class Cursor:
    """Where the last poll of a thread or inbox stopped."""

    stream: str  # "thread:<id>" or "inbox"
    last_page: int = 1
    pages_total: int | None = None
    last_post_id: str | None = None
    page_ref: PageRef | None = None
    extra: tuple[tuple[str, str], ...] = field(default_factory=tuple)
