"""Extraction results as compact JSON, so a fresh process (a cron `tick`) need not read every
post body again: the service keeps them in the store, keyed by what extraction read.

A result is only reused when the extraction code, the game's extraction settings (roster,
forms, language...) and the post (id, number, author, every version's content hash) are all
unchanged: `CODE_VERSION` is a hash of this package's source and the action catalog, so a
parser fix invalidates every saved result by itself, and `replay` rebuilds from the posts.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from forummod.extract.context import ExtractContext
from forummod.model import ActionIntent, Extraction, Issue, Message, Post, Source, UnvoteIntent, VoteIntent, stored_record

EMPTY = Extraction()


def _code_version() -> str:
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    files = sorted(here.rglob("*.py")) + [here.parent / "engine" / "catalog.py", here.parent / "model.py"]
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


CODE_VERSION = _code_version()


def context_fingerprint(ctx: ExtractContext) -> str:
    """Everything in the settings that can change a result, the code version, and the catalog
    the issue messages are worded from (they are saved in the game's language, `ctx.language`:
    an edited translation must reword them, as a parser fix recounts)."""
    key = (CODE_VERSION, ctx, catalog_version(ctx.language))
    return hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).hexdigest()[:24]


_LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def catalog_version(lang: str) -> str:
    """A hash of the language's catalog files (`.po`, and the `.mo` a wheel carries); "" for
    English, whose messages are the source text. Plain file reads: no Babel on the cron path."""
    if lang == "en":
        return ""
    h = hashlib.sha256()
    for suffix in ("po", "mo"):
        f = _LOCALE_DIR / lang / "LC_MESSAGES" / f"forummod.{suffix}"
        if f.is_file():
            h.update(suffix.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def post_cache_key(post: Post) -> str:
    """Cheap to compute for 10,000 posts: bodies enter by their content hash."""
    vs = post.versions
    if len(vs) == 1:  # most posts: one version, never edited (no generator, no join)
        v = vs[0]
        versions = f"{v.version}:{v.content_hash[:16]}:{v.edited_at.timestamp() if v.edited_at else ''}" \
                   f"{'e' if v.edited else ''}"
    else:
        versions = "/".join(f"{v.version}:{v.content_hash[:16]}:{v.edited_at.timestamp() if v.edited_at else ''}"
                            f"{'e' if v.edited else ''}" for v in vs)
    return f"p|{post.thread}|{post.post_id}|{post.number}|{post.author}|{post.author_id}|" \
           f"{post.created_at.timestamp()}|{post.url}|{versions}"


def message_cache_key(msg: Message) -> str:
    return f"m|{msg.message_id}|{msg.sender}|{msg.sender_id}|{msg.created_at.timestamp()}|" \
           f"{'/'.join(msg.recipients)}|{msg.content_hash[:16] or hashlib.sha256(msg.body_html.encode()).hexdigest()[:16]}"


# --------------------------------------------------------------------------- encoding


def _src(s: Source | None) -> list | None:
    if s is None:
        return None
    return [s.kind, s.id, s.number, s.thread, s.url, s.version]


def _unsrc(v: list | None) -> Source | None:
    if v is None:
        return None
    return stored_record(Source, {"kind": v[0], "id": v[1], "number": v[2], "thread": v[3], "url": v[4],
                                  "version": v[5]})


def _t(d: datetime | None) -> str | None:
    return None if d is None else d.isoformat()


def _ut(s: str | None) -> datetime | None:
    return None if s is None else datetime.fromisoformat(s)


def encode(ex: Extraction) -> str:
    """'' for the common case of nothing found; else a JSON list of intents and issues."""
    if not ex.intents and not ex.issues:
        return ""
    items: list[Any] = []
    for i in ex.intents:
        if isinstance(i, VoteIntent):
            items.append(["v", i.voter, i.target, _t(i.at), _src(i.source), i.raw, i.channel])
        elif isinstance(i, UnvoteIntent):
            items.append(["u", i.voter, _t(i.at), _src(i.source), i.target, i.raw, i.channel])
        else:
            items.append(["a", i.actor, i.action, _t(i.at), _src(i.source), list(i.targets), i.role_hint,
                          [list(p) for p in i.args], i.raw, i.channel])
    for s in ex.issues:
        items.append(["i", s.code, s.message, _t(s.at), _src(s.source), s.player, list(s.candidates), s.rule,
                      s.severity, s.details] + ([s.spelling] if s.spelling else []))
    return json.dumps(items, ensure_ascii=False, separators=(",", ":"))


def decode(data: str) -> Extraction:
    if not data:
        return EMPTY
    intents: list[Any] = []
    issues: list[Issue] = []
    for it in json.loads(data):
        kind = it[0]
        if kind == "v":
            intents.append(stored_record(VoteIntent, {"voter": it[1], "target": it[2], "at": _ut(it[3]),
                                                      "source": _unsrc(it[4]), "raw": it[5], "channel": it[6]}))
        elif kind == "u":
            intents.append(stored_record(UnvoteIntent, {"voter": it[1], "at": _ut(it[2]), "source": _unsrc(it[3]),
                                                        "target": it[4], "raw": it[5], "channel": it[6]}))
        elif kind == "a":
            intents.append(ActionIntent(it[1], it[2], _ut(it[3]), _unsrc(it[4]), tuple(it[5]), it[6],
                                        tuple(tuple(p) for p in it[7]), it[8], it[9]))
        else:
            issues.append(Issue(it[1], it[2], _ut(it[3]), _unsrc(it[4]), it[5], tuple(it[6]), it[7], it[8], it[9],
                                it[10] if len(it) > 10 else ""))
    return Extraction(tuple(intents), tuple(issues))
