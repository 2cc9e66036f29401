"""The console page's link to the vote history (issue 32): its one hook in `console/page.py`."""

from __future__ import annotations

from urllib.parse import quote

from markupsafe import Markup

from forummod.i18n import gm_language, pgettext


def history_nav(game: str, lang: str, token: str) -> Markup:
    """The console page's link to the vote history (a small hook in console/page.py)."""
    with gm_language(lang):
        label = pgettext("history", "Vote history, wagon charts and players' pages")
    return Markup('<a href="/history?token={}&amp;game={}" id="history-link">{}</a>').format(
        token, quote(game, safe=""), label)
