"""The `archive` engine: a game read from local JSONL files, behaving like any other forum.

GMs use it to replay archived games and rehearse a setup; the test suite uses it everywhere.

Posts file, one JSON object per line:
    id (string or number), number (int), author, created_at (ISO 8601 with offset),
    exactly one of html / bbcode / text, and optionally thread ("game" by default, or e.g.
    "graveyard"), author_id, edited_at, date_guessed (true: the original page showed no
    readable date and created_at is only a bound, as the HTML adapters flag it; issue 16).
    A later line with the same id is a newer version of the post (an edit).
Messages file (PMs to the GM), one JSON object per line:
    id, from, to (name or list of names), created_at, subject, body (BBCode or plain text;
    or `html`).
Publishing appends to an outbox file next to the posts file (`<posts>.outbox.jsonl`), so
drafts can be published and found again exactly once, offline.
"""

from __future__ import annotations

import html as htmlmod
import json
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from forummod.errors import ArchiveError
from forummod.forum.base import InboxPoll, Progress, ThreadPoll, ThreadRef
from forummod.forum.html_engine import cap_depth
from forummod.markup.bbcode import to_html
from forummod.adapter_records import Cursor, RawMessage, RawPost
from forummod.model import Published

POST_BODY_KEYS = ("html", "bbcode", "text")


def _read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ArchiveError(f"archive file not found: {path}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise ArchiveError(f"{path}:{line}: not valid UTF-8 ({e.reason} at byte {e.start})") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ArchiveError(f"{path}:{n}: not valid JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(obj, dict):
            raise ArchiveError(f"{path}:{n}: expected a JSON object, got {type(obj).__name__}")
        yield n, obj


def _need(obj: dict, key: str, where: str, types: tuple[type, ...] = (str,)) -> Any:
    if key not in obj:
        raise ArchiveError(f"{where}: missing field {key!r}")
    v = obj[key]
    if not isinstance(v, types) or isinstance(v, bool):
        raise ArchiveError(f"{where}: field {key!r} must be {' or '.join(t.__name__ for t in types)}, got {v!r}")
    return v


def _time(obj: dict, key: str, where: str, required: bool = True) -> datetime | None:
    if key not in obj or obj[key] in (None, ""):
        if required:
            raise ArchiveError(f"{where}: missing field {key!r}")
        return None
    v = obj[key]
    try:
        dt = datetime.fromisoformat(str(v))
    except ValueError:
        raise ArchiveError(f"{where}: {key} {v!r} is not ISO 8601 (e.g. 2026-12-01T21:00:00+01:00)") from None
    if dt.tzinfo is None:
        raise ArchiveError(f"{where}: {key} {v!r} has no UTC offset")
    return dt.astimezone(timezone.utc)


def _body_html(obj: dict, where: str, keys: tuple[str, ...]) -> str:
    present = [k for k in keys if k in obj]
    if len(present) != 1:
        raise ArchiveError(f"{where}: needs exactly one of {', '.join(keys)} (found {present or 'none'})")
    k = present[0]
    v = obj[k]
    if not isinstance(v, str):
        raise ArchiveError(f"{where}: field {k!r} must be a string")
    if k == "html":
        return cap_depth(v)
    if k == "bbcode" or k == "body":
        return cap_depth(to_html(v))  # a thousand nested quotes must not hide the rest of the post
    return htmlmod.escape(v).replace("\n", "<br>\n")


def load_posts(path: Path) -> list[tuple[str, RawPost]]:
    """(thread, post) pairs in file order; raises ArchiveError naming file:line and field."""
    out = []
    for n, obj in _read_jsonl(path):
        where = f"{path}:{n}"
        pid = _need(obj, "id", where, (str, int))
        number = obj.get("number")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            raise ArchiveError(f"{where}: field 'number' must be an integer, got {number!r}")
        author = _need(obj, "author", where)
        thread = obj.get("thread", "game")
        if not isinstance(thread, str) or not thread:
            raise ArchiveError(f"{where}: field 'thread' must be a non-empty string")
        aid = obj.get("author_id")
        guessed = obj.get("date_guessed", False)
        if not isinstance(guessed, bool):
            raise ArchiveError(f"{where}: field 'date_guessed' must be true or false, got {guessed!r}")
        out.append((thread, RawPost(
            post_id=str(pid), author=author, created_at=_time(obj, "created_at", where),
            html=_body_html(obj, where, POST_BODY_KEYS), number=number,
            author_id=None if aid is None else str(aid), edited_at=_time(obj, "edited_at", where, required=False),
            edited="edited_at" in obj, url=obj.get("url"), date_guessed=guessed)))
    return out


def load_messages(path: Path) -> list[RawMessage]:
    out = []
    for n, obj in _read_jsonl(path):
        where = f"{path}:{n}"
        mid = _need(obj, "id", where, (str, int))
        sender = _need(obj, "from", where)
        to = obj.get("to", [])
        if isinstance(to, str):
            to = [to]
        if not isinstance(to, list) or not all(isinstance(x, str) for x in to):
            raise ArchiveError(f"{where}: field 'to' must be a name or a list of names")
        subject = obj.get("subject", "")
        if not isinstance(subject, str):
            raise ArchiveError(f"{where}: field 'subject' must be a string")
        out.append(RawMessage(message_id=str(mid), sender=sender, created_at=_time(obj, "created_at", where),
                              body_html=_body_html(obj, where, ("body", "html")), recipients=tuple(to),
                              subject=subject, conversation_id=obj.get("conversation")))
    return out


class ArchiveAdapter:
    """A forum made of files. Thread refs name a `thread` value of the posts file."""

    engine = "archive"

    def __init__(self, posts_file: Path, messages_file: Path | None = None, *, gm_name: str = "GM",
                 clock: Callable[[], datetime] | None = None):
        self.posts_file = Path(posts_file)
        self.messages_file = Path(messages_file) if messages_file else None
        self.outbox = self.posts_file.with_name(self.posts_file.stem + ".outbox.jsonl")
        self.gm_name = gm_name or "GM"
        self.clock = clock or (lambda: datetime.now(timezone.utc))

    def thread_id(self, thread: ThreadRef) -> str:
        return thread.url

    def poll_thread(self, thread: ThreadRef, cursor: Cursor | None, progress: Progress | None = None) -> ThreadPoll:
        key = self.thread_id(thread)
        posts = [p for t, p in load_posts(self.posts_file) if t == key]
        posts += [p for t, p in self._outbox_posts() if t == key]
        if progress:
            progress(1, 1)
        last = posts[-1].post_id if posts else (cursor.last_post_id if cursor else None)
        return ThreadPoll(thread_id=key, posts=tuple(posts), pages_fetched=(),
                          cursor=Cursor(stream=f"thread:{key}", last_page=1, pages_total=1, last_post_id=last),
                          requests=1)

    def poll_inbox(self, cursor: Cursor | None, known_ids: frozenset[str] = frozenset()) -> InboxPoll:
        msgs = load_messages(self.messages_file) if self.messages_file else []
        new = tuple(m for m in msgs if m.message_id not in known_ids)
        return InboxPoll(messages=new, cursor=Cursor(stream="inbox"), requests=1 if self.messages_file else 0)

    # ---- publishing to the outbox
    def _outbox_rows(self) -> list[dict[str, Any]]:
        if not self.outbox.exists():
            return []
        return [obj for _, obj in _read_jsonl(self.outbox)]

    def _outbox_posts(self) -> list[tuple[str, RawPost]]:
        out = []
        for obj in self._outbox_rows():
            if obj.get("kind") != "reply":
                continue
            out.append((obj["thread"], RawPost(post_id=obj["id"], author=obj["author"],
                                               created_at=datetime.fromisoformat(obj["created_at"]),
                                               html=to_html(obj["bbcode"]), number=obj.get("number"))))
        return out

    def _append(self, row: dict[str, Any]) -> None:
        with self.outbox.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()

    def reply(self, thread: ThreadRef, body: str, marker: str | None = None) -> Published:
        now = self.clock()
        numbers = [p.number for t, p in load_posts(self.posts_file) if t == thread.url and p.number is not None]
        numbers += [o.get("number") or 0 for o in self._outbox_rows() if o.get("thread") == thread.url]
        pid = f"out-{uuid.uuid4().hex[:12]}"
        self._append({"kind": "reply", "id": pid, "thread": thread.url, "author": self.gm_name,
                      "created_at": now.isoformat(), "bbcode": body, "marker": marker,
                      "number": (max(numbers) + 1) if numbers else 1})
        return Published(remote_id=pid, url=f"archive:{thread.url}#{pid}", at=now)

    def send_pm(self, to: str, subject: str, body: str, marker: str | None = None) -> Published:
        now = self.clock()
        pid = f"pm-{uuid.uuid4().hex[:12]}"
        self._append({"kind": "pm", "id": pid, "to": to, "subject": subject, "body": body, "marker": marker,
                      "author": self.gm_name, "created_at": now.isoformat()})
        return Published(remote_id=pid, url=f"archive:pm#{pid}", at=now)

    def find_published(self, marker: str, thread: ThreadRef | None = None,
                       since: datetime | None = None) -> Published | None:
        for row in self._outbox_rows():
            if row.get("marker") == marker:
                return Published(remote_id=row["id"], url=f"archive:{row.get('thread', 'pm')}#{row['id']}",
                                 at=datetime.fromisoformat(row["created_at"]))
        return None

    def sent_messages(self) -> list[dict[str, Any]]:
        """What was sent as PMs (for tests and the demo)."""
        return [r for r in self._outbox_rows() if r.get("kind") == "pm"]


def make_adapter(site_name: str, site: Any, *, clock: Callable[[], datetime] | None = None) -> ArchiveAdapter:
    """The archive adapter for a configured `archive` site."""
    if site.posts_file is None:
        raise ArchiveError(f"sites.{site_name}: engine 'archive' needs posts_file")
    load_posts(Path(site.posts_file))  # a malformed file fails here, before any command writes
    if site.messages_file:
        load_messages(Path(site.messages_file))
    return ArchiveAdapter(site.posts_file, site.messages_file, gm_name=site.username or "GM", clock=clock)
