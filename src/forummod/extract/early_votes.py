"""A post with votes dated before the game's start (issue 28, item 5): the engine counts no vote
before its first phase, so such a post is shown to the GM instead of being dropped silently.
Its usual cause is a `sites.x.timezone` that is not the zone the forum shows (every post then
lands an hour or more early); fixing the key re-dates the stored posts on the next poll. Pure."""

from __future__ import annotations

from datetime import datetime, tzinfo

from forummod.i18n import gm_language, pgettext
from forummod.model import Extraction, Issue, Post, Source


def before_start(p: Post, ex: Extraction, start: datetime, site: str, zone: str, tz: tzinfo,
                 lang: str | None) -> Issue:
    said = "; ".join(f"“{raw}”" for raw in (getattr(i, "raw", "") for i in ex.intents) if raw)
    with gm_language(lang):
        where = pgettext("gm-issue", "post #%(number)s", number=p.number) if p.number is not None \
            else pgettext("gm-issue", "post %(id)s", id=p.post_id)
        msg = pgettext("gm-issue", "%(post)s by %(author)s holds a vote but is dated %(time)s, before the game's start "
                       "(%(start)s): not counted. If the forum shows its times in another zone than sites.%(site)s."
                       "timezone = “%(zone)s”, set it there: the next poll re-dates the stored posts: %(said)s",
                       post=where, author=p.author, time=f"{p.created_at.astimezone(tz):%Y-%m-%d %H:%M %Z}",
                       start=f"{start.astimezone(tz):%Y-%m-%d %H:%M %Z}", site=site, zone=zone, said=said)
    return Issue("vote_before_start", msg, p.created_at, Source("post", p.post_id, p.number, "game", p.url),
                 p.author, severity="warning", details=said)
