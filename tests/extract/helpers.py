"""Small builders for extraction tests."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

from forummod.extract import ExtractContext
from forummod.model import Message, PlayerSlot, Post, PostVersion, Roster, UnvoteIntent, VoteIntent

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)


def roster(*seats: str | PlayerSlot, gms: tuple[str, ...] = ("GM",)) -> Roster:
    return Roster(tuple(PlayerSlot(s) if isinstance(s, str) else s for s in seats), gms)


def post(*versions: str, author: str = "Anna", number: int = 7, edited_at: datetime | None = None,
         author_id: str | None = None) -> Post:
    vs = [PostVersion(i + 1, html, hashlib.sha256(html.encode()).hexdigest(), T0 + timedelta(minutes=i),
                      edited_at if i == len(versions) - 1 else None)
          for i, html in enumerate(versions)]
    return Post("site", "t1", f"p{number}", author, T0, tuple(vs), number=number, author_id=author_id,
                url=f"https://forum.example/p{number}")


def message(body: str, sender: str = "Anna", subject: str = "") -> Message:
    return Message("site", "m1", sender, T0, body, subject=subject, url="https://forum.example/pm/m1")


def ctx(seats: Roster, language: str = "en", ruleset: str = "mafia-majority", **kw) -> ExtractContext:
    return ExtractContext(ruleset, language, seats, **kw)


def votes(ex) -> list[str]:
    """The vote-related intents as short strings: 'vote:X', 'unvote', 'unvote:X'."""
    out = []
    for i in ex.intents:
        if isinstance(i, VoteIntent):
            out.append(f"vote:{i.target}")
        elif isinstance(i, UnvoteIntent):
            out.append("unvote" + (f":{i.target}" if i.target else ""))
    return out


def codes(ex) -> list[str]:
    return [i.code for i in ex.issues]
