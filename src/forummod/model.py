"""Frozen records passed between layers.

Adapters produce `RawPost` / `RawMessage` (in `adapter_records`); the store turns them into
versioned `Post` / `Message`; extraction turns those into intents (`VoteIntent`, `UnvoteIntent`,
`ActionIntent`) and `Issue`s. Every datetime is timezone-aware (UTC inside the tool).
Nothing here does I/O.
"""

from __future__ import annotations

from functools import cached_property
from datetime import datetime, timezone
from typing import Any, Literal

from forummod.records import frozen

#: Target of a vote for "no lynch" (in any language).
NO_LYNCH = "__no_lynch__"

Channel = Literal["thread", "pm", "gm", "config"]


def utc(dt: datetime) -> datetime:
    """The same instant in UTC; refuses naive datetimes, which would silently mean local time."""
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"naive datetime {dt!r}: forummod needs timezone-aware times")
    return dt.astimezone(timezone.utc)


def stored_record(cls: type, fields: dict) -> Any:
    """A frozen record of `cls` from all its fields, set at once instead of through the
    generated `__init__` (one `object.__setattr__` per field): a recount builds a `Post` and a
    `PostVersion` for every stored post and decodes a saved vote of every voting post. For
    records without `__post_init__` only, given every field (`tests/store` and
    `tests/service/test_saved_extractions.py` check they equal records built the usual way)."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


# --------------------------------------------------------------------------- stored records


@frozen
class PostVersion:
    """One stored version of a post's body; an edit adds a version, never overwrites."""

    version: int
    html: str
    content_hash: str
    fetched_at: datetime
    edited_at: datetime | None = None
    edited: bool = False  # the forum showed an edit mark (some show no edit time, e.g. Spirit)
    # the page showed no readable date when this version was read (RawPost.date_guessed)
    date_guessed: bool = False

    @property
    def shows_edit(self) -> bool:
        return self.edited or self.edited_at is not None


@frozen
class Post:
    """A post as the store knows it: identity, metadata and every body version seen."""

    site: str
    thread: str  # thread id inside the site (stable, e.g. "15787" or a URL path)
    post_id: str
    author: str
    created_at: datetime
    versions: tuple[PostVersion, ...]
    number: int | None = None
    author_id: str | None = None
    url: str | None = None
    deleted_at: datetime | None = None  # set when a re-fetched page no longer shows it

    @property
    def html(self) -> str:
        return self.versions[-1].html

    @property
    def edited_at(self) -> datetime | None:
        return self.versions[-1].edited_at

    @property
    def is_edited(self) -> bool:
        return len(self.versions) > 1 or self.versions[-1].shows_edit

    @property
    def original_html(self) -> str:
        return self.versions[0].html

    @property
    def date_guessed(self) -> bool:
        """`created_at` is a guess (the first version's page showed no readable date): good for
        ordering by post number, never for a deadline (issue 16)."""
        return self.versions[0].date_guessed


def guessed_date_bounds(posts: "tuple[Post, ...] | list[Post]") -> dict[str, tuple[datetime | None, datetime | None]]:
    """post id -> (earliest, latest) instant a guessed-date post can have been written: the
    nearest earlier and later posts (in post-number order) whose dates were read; None where
    the thread has none on that side. Issue 16: such a post is ordered by its number, and a
    deadline inside its bounds is the GM's call, never the guess's."""
    if not any(p.number is not None and p.versions[0].date_guessed for p in posts):
        return {}  # the common thread, every date read: nothing to bound, no sort of every post
    ordered = sorted((p for p in posts if p.number is not None), key=lambda p: p.number)  # type: ignore[arg-type,return-value]
    out: dict[str, tuple[datetime | None, datetime | None]] = {}
    lo: datetime | None = None
    pending: list[Post] = []
    for p in ordered:
        if p.date_guessed:
            pending.append(p)
            continue
        for q in pending:
            out[q.post_id] = (lo, p.created_at)
        pending = []
        lo = p.created_at
    for q in pending:
        out[q.post_id] = (lo, None)
    return out


@frozen
class Message:
    """A private message as stored (messages are not edited on the engines we read)."""

    site: str
    message_id: str
    sender: str
    created_at: datetime
    body_html: str
    recipients: tuple[str, ...] = ()
    subject: str = ""
    conversation_id: str | None = None
    sender_id: str | None = None
    url: str | None = None
    content_hash: str = ""


# --------------------------------------------------------------------------- extraction output


@frozen
class Source:
    """Where an intent, event or finding came from, so the GM can click through to it."""

    kind: Literal["post", "message", "gm", "config"]
    id: str = ""
    number: int | None = None
    thread: str | None = None  # thread role ("game", "graveyard") for posts
    url: str | None = None
    version: int | None = None

    def label(self) -> str:
        if self.kind == "post":
            return f"post #{self.number}" if self.number is not None else f"post {self.id}"
        if self.kind == "message":
            return f"PM {self.id}"
        return self.kind


@frozen
class VoteIntent:
    """A player asked to vote for `target` (a roster name or NO_LYNCH)."""

    voter: str
    target: str
    at: datetime
    source: Source
    raw: str = ""
    channel: Channel = "thread"


@frozen
class UnvoteIntent:
    """A player withdrew their vote (`target` None: whatever it was)."""

    voter: str
    at: datetime
    source: Source
    target: str | None = None
    raw: str = ""
    channel: Channel = "thread"


@frozen
class ActionIntent:
    """A role asked to use a power, as understood from a PM (or a post for day powers).

    `action` is a ruleset verb (``check``, ``kill``, ``protect``, ``secret_vote``...);
    `targets` are roster names; `args` carries extra words the verb needs, such as centre
    card positions or a building code, as sorted ``(key, value)`` pairs so it stays hashable.
    """

    actor: str
    action: str
    at: datetime
    source: Source
    targets: tuple[str, ...] = ()
    role_hint: str | None = None
    args: tuple[tuple[str, str], ...] = ()
    raw: str = ""
    channel: Channel = "pm"

    def arg(self, key: str, default: str | None = None) -> str | None:
        return dict(self.args).get(key, default)


Severity = Literal["info", "warning", "error"]


@frozen
class Issue:
    """Something the GM must look at: an odd post, an ambiguous name, a page that did not parse.

    `code` is a stable machine name (``ambiguous_name``, ``unknown_name``, ``layout_changed``...).
    """

    code: str
    message: str
    at: datetime | None = None
    source: Source | None = None
    player: str | None = None
    candidates: tuple[str, ...] = ()
    rule: str | None = None
    severity: Severity = "warning"
    details: str = ""
    # the name as typed, for a name issue (``unknown_name``...): what a GM alias would settle
    spelling: str = ""


Intent = VoteIntent | UnvoteIntent | ActionIntent


@frozen
class Extraction:
    """Everything extraction read from one post or message."""

    intents: tuple[Intent, ...] = ()
    issues: tuple[Issue, ...] = ()


# --------------------------------------------------------------------------- roster


@frozen
class Replacement:
    """`previous` played this slot until `at` (or post number `at_post`)."""

    previous: str
    at: datetime | None = None
    at_post: int | None = None


@frozen
class PlayerSlot:
    """One seat in the game; `name` is the current occupant's forum name."""

    name: str
    aliases: tuple[str, ...] = ()
    replacements: tuple[Replacement, ...] = ()
    user_id: str | None = None

    @property
    def all_accounts(self) -> tuple[str, ...]:
        return (self.name, *(r.previous for r in self.replacements))


@frozen
class Roster:
    """Players in seat order plus the moderators; what names resolve against."""

    players: tuple[PlayerSlot, ...]
    gms: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def slot(self, name: str) -> PlayerSlot | None:
        for p in self.players:
            if p.name == name:
                return p
        return None

    def slot_of_account(self, account: str) -> PlayerSlot | None:
        """The slot a forum account plays (current occupant or a replaced one), case-insensitive."""
        return self._slots_by_account.get(account.casefold())

    def is_gm(self, account: str) -> bool:
        return account.casefold() in self._gm_keys

    # Built once per roster (a recount asks for every post); the roster is frozen, so they cannot go stale.
    @cached_property
    def _gm_keys(self) -> frozenset[str]:
        return frozenset(g.casefold() for g in self.gms)

    @cached_property
    def _slots_by_account(self) -> dict[str, PlayerSlot]:
        index: dict[str, PlayerSlot] = {}
        for p in self.players:  # the first seat in order wins, as a scan would
            for a in p.all_accounts:
                index.setdefault(a.casefold(), p)
        return index


@frozen
class Published:
    """What a forum answered when we posted: the remote id and URL of the new post or PM."""

    remote_id: str
    url: str | None = None
    at: datetime | None = None


@frozen
class ThreadRef:
    """A thread as the config names it: `url` (or engine id) and its role in the game."""

    url: str
    role: str = "game"  # "game" or "graveyard"
