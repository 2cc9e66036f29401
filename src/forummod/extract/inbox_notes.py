"""The GM's notes on inbox PMs that are not read for this game (issue 28, item 7), worded in the
game's language like every extraction issue: one received before the game's start
(`pm_before_start`, info: listed once, never alerted), one carrying another game's subject tag
(`pm_other_game`, info) and one that could be this game's or another's (`pm_game_unclear`,
warning: the GM enters it where it belongs). Pure."""

from __future__ import annotations

from datetime import datetime

from forummod.i18n import gm_language, join_names, pgettext
from forummod.model import Issue, Message, Source


def _src(m: Message) -> Source:
    return Source("message", m.message_id, url=m.url)


def _said(m: Message) -> str:
    from forummod.extract.text import post_text

    text = " ".join(((m.subject or "") + " " + post_text(m.body_html).text).split())
    return text if len(text) <= 200 else text[:199] + "…"


def before_start(m: Message, start: datetime, lang: str | None) -> Issue:
    with gm_language(lang):
        msg = pgettext("gm-issue", "PM %(id)s from %(sender)s arrived before the game's start (%(start)s): not read as "
                       "an action: “%(text)s”", id=m.message_id, sender=m.sender,
                       start=f"{start:%Y-%m-%d %H:%M %Z}", text=_said(m))
    return Issue("pm_before_start", msg, m.created_at, _src(m), m.sender, severity="info", details=_said(m))


def other_tag(m: Message, lang: str | None) -> Issue:
    with gm_language(lang):
        msg = pgettext("gm-issue", "PM %(id)s from %(sender)s carries another game's tag in its subject "
                       "(“%(subject)s”): not read for this game", id=m.message_id, sender=m.sender,
                       subject=m.subject)
    return Issue("pm_other_game", msg, m.created_at, _src(m), m.sender, severity="info", details=_said(m))


def unclear(m: Message, games: tuple[str, ...], lang: str | None) -> Issue:
    with gm_language(lang):
        msg = pgettext("gm-issue", "PM %(id)s from %(sender)s could belong to %(games)s (the sender plays in each and "
                       "they were all running): not used; enter it in its game (forummod gm action) or have "
                       "the subject carry the game's pm_tag: “%(text)s”", id=m.message_id, sender=m.sender,
                       games=join_names(games), text=_said(m))
    return Issue("pm_game_unclear", msg, m.created_at, _src(m), m.sender, severity="warning", details=_said(m))
