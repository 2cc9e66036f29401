"""The moment a saved page says it was made: "It is currently …", "Current time: …".

A page read live is read against the fetch time, but a page saved earlier and read later
(`forummod parse PAGE.html`) has its relative dates ("Today at 09:03", "5 minutes ago")
anchored to the moment it was saved, which many engines print in their header or footer
(phpBB "It is currently", MyBB "Current time:", localised). Pure: the parsed page and a
date context in, an instant or None out.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from forummod.forum.dates import DateNotUnderstood, parse_forum_date

#: the labels engines put before the page's own clock, in the languages their packs use
_LABEL = re.compile(
    r"(?:It is currently|Current time|The current time is|Current date and time|Date and time now"
    r"|Data e ora attuali|È attualmente|Aktuelle Zeit|Es ist jetzt"
    r"|Nous sommes le|Heure actuelle|Текущее время|Het is nu|Het is momenteel|Huidige tijd"
    r"|当前时间|现在时间)\s*(?:is\s*)?[:：]?\s*", re.IGNORECASE)
_MAX_WORDS = 8  # a clock reading is a few words ("Wed Dec 02, 2026 3:07 pm"); what follows is chrome


def stated_clock(root: Any, *, ctx: Any) -> datetime | None:
    """The page's own "now", read with the page's date context (`html_engine.DateContext`),
    or None when it states none. A reading later than a day after `ctx.now` is no clock."""
    for node in root.xpath("//body//text()[normalize-space()]"):
        if not _LABEL.search(node):
            continue
        holder = node.getparent()
        for _ in range(3):  # the label may sit in its own <strong>, the reading beside it
            if holder is None:
                break
            whole = " ".join(holder.text_content().split())
            m = _LABEL.search(whole)
            rest = whole[m.end():] if m else ""
            if re.search(r"\d", rest[:40]):
                at = _first_date(rest.split()[:_MAX_WORDS], ctx)
                if at is not None and at <= ctx.now + timedelta(days=1):
                    return at
                break
            holder = holder.getparent()
    return None


def _first_date(words: list[str], ctx: Any) -> datetime | None:
    """The longest run of leading words that reads as a whole date and time."""
    for n in range(len(words), 1, -1):
        text = " ".join(words[:n]).rstrip(".,;|-")
        # a whole reading: a clock and a calendar date (a year, or day and month in digits), not
        # "12:30" alone, which a player's post could say
        if not re.search(r"\d{1,2}[:.h]\d{2}", text) or not re.search(r"\d{4}|\d{1,2}[./-]\d{1,2}[./-]", text):
            continue
        try:
            return parse_forum_date(text, tz=ctx.tz, now=ctx.now, order=ctx.order, formats=ctx.formats,
                                    languages=ctx.languages, allow_dateparser=False)
        except DateNotUnderstood:
            continue
    return None
