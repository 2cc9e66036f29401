"""Smiley codes stay text on the real forums (issue 28, item 9): SMF turned a count's "(8)" into
a smiley. A reply and a PM published through the engine profile's forms ("disable smileys" sent,
or on SMF's PM form the codes kept text with a word joiner) read back from the forum's own pages
with every code as text: what a reader sees is what the preview showed."""

from __future__ import annotations

import pytest

from forummod.forum.write import WORD_JOINER

from tests.realforum.test_write_side import _publish_marked, _visible_text, gm  # noqa: F401 (fixture)

pytestmark = pytest.mark.realforum

#: A count line and a chat line holding the codes of the three engines' default smiley sets.
TEXT = "Conta: Fede (8), Gina (2), Ugo (1). Ciao :) e 8) ;) :D :P"
PHP_ENGINES = ("mybb", "phpbb", "smf")


def _shown(html: str) -> str:
    """The page's text as a reader sees it (the invisible word joiner is no character to them)."""
    return _visible_text(html).replace(WORD_JOINER, "")


def test_a_published_count_keeps_its_smiley_codes_as_text(fresh_forum, gm):  # noqa: F811
    if fresh_forum.engine not in PHP_ENGINES:
        pytest.skip("FlaskBB and Spirit write Markdown without smileys")
    *_, html = _publish_marked(fresh_forum, gm, "fm-907-5a11e5aa", TEXT + "\n")
    assert TEXT in _shown(html)  # a code turned into an image leaves only its alt text, never a text node


def test_a_pm_keeps_its_smiley_codes_as_text(fresh_forum, gm):  # noqa: F811
    if fresh_forum.engine not in PHP_ENGINES:
        pytest.skip("FlaskBB and Spirit write Markdown without smileys")
    player = fresh_forum.players[0]
    gm().send_pm(fresh_forum.account(player).login, "Risultato della notte", TEXT + "\n")
    (conv,) = [c for c in fresh_forum.db_conversations(player) if c.subject == "Risultato della notte"]
    session = fresh_forum.login(player)
    page = fresh_forum._get(session, fresh_forum.conversation_url(conv.id)).text
    assert TEXT in _shown(page)
