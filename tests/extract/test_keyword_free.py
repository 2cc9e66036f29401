"""`post_text_unless_free`: posts that cannot hold a vote skip the text model, exactly.

The first recount of a game reads every body; most hold no vote. A body is skipped only when
the text model built the long way could not hold a vote keyword or tag either, so skipping it
never changes what extraction finds (the MafiaScum replays check the same on real games).
"""

from __future__ import annotations

import itertools
import random

import pytest

from forummod.extract import ExtractContext, extract_post
from forummod.extract.names import name_index
from forummod.extract.text import post_text, post_text_unless_free
from forummod.extract.votes import grammar
from forummod.model import Post, PostVersion
from tests.extract.helpers import roster

from datetime import datetime, timezone

AT = datetime(2024, 1, 1, tzinfo=timezone.utc)
ROSTER = roster("Bob", "Luca", "Ember_Fox")
LANGS = ("en", "it", "ru", "nl", "zh", "de")


def _votes(html: str, language: str = "en") -> list:
    return grammar(language).find(post_text(html), name_index(ROSTER, language), at=AT)


def _check(html: str, language: str = "en"):
    """The property: None only where the model holds no vote phrase and no tag, else the model itself."""
    got = post_text_unless_free(html, grammar(language).skeleton)
    if got is None:
        assert _votes(html, language) == [] and post_text(html).tags == (), html
    else:
        assert got == post_text(html), html
    return got


@pytest.mark.parametrize("html", [
    '<b>V</b>ote: Bob',  # a keyword split by markup is one word in the model
    'vo<span>t</span>e Bob',
    '<b>vo<s>xx</s>te Bob</b>',  # struck text left out joins the keyword's halves
    'vo<span style="display:none">x</span>te Bob',
    'vo<!-- a comment -->te Bob',
    '<p>&#86;ote: Bob</p>',  # an entity (decoded in HTML; a body without tags is read as it is)
    'vo\u200bte: Bob',  # an invisible character
    'I am<br>voting Bob',  # a keyword whose words a line break separates
    'vote&nbsp;Bob',
    '<span class="bbvote">Bob</span>',  # a vote tag needs no keyword
    '[vote]Bob[/vote]',  # literal BBCode
    '[b]VOTE: Bob[/b]',
    'vo<blockquote>vote Luca</blockquote>te Bob',  # a quote left out joins the words around it
    '<blockquote>x</blockquote><span class="bbvote">Bob</span>',
    '##vote Bob',
    'VOTE: Bob',  # plain text, no tags at all
])
def test_a_body_that_can_hold_a_vote_is_read_the_long_way(html):
    assert _check(html) is not None


@pytest.mark.parametrize("html", [
    '<div class="content">Nothing to see here.<br><br>Bob is scummy.</div>',
    '<p>Luca</p><p><b>Bob</b> reads town</p>',
    'plain words only',
    '<div>a<!-- vote Bob -->b</div>',  # a comment is not text
    '<blockquote>vote Luca</blockquote>mine',  # a keyword only in what the model leaves out
    '<div class="content"><blockquote data-fm="quote"><cite>Bob wrote:</cite>VOTE: Luca</blockquote>mine<br>'
    '<div class="signature">vote for me</div></div>',
])
def test_a_body_without_any_keyword_is_skipped(html):
    assert _check(html) is None


def test_non_ascii_text_is_always_read_the_long_way():
    assert _check('<p>Голосую за Bob</p>', "ru") is not None
    assert _check('<p>Café au lait</p>') is not None  # (no keyword, but only ASCII is decided)


def test_random_bodies_skip_only_what_holds_no_vote():
    pieces = ["vote", "Vo", "te", " ", "Bob", "<b>", "</b>", "<br>", "<s>", "</s>", "<p>", "</p>", "un", "i am ",
              "voting", ": ", "<span class=\"bbvote\">", "</span>", "<blockquote>", "</blockquote>", "&#118;",
              "<div class=\"signature\">", "</div>", "<span style=\"display:none\">", "<q>",
              "\u200b", "[", "]", "stem", "voto ", "ik stem op ", "abstain", "x", "\n", "<!--", "-->", "&amp;"]
    rng = random.Random(17)
    for language, _ in itertools.product(LANGS, range(400)):
        html = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 9)))
        _check(html, language)


def test_extract_post_finds_the_same_with_and_without_the_skip():
    ctx = ExtractContext(ruleset="mafia-majority", language="en", roster=ROSTER)
    g = grammar("en")
    bodies = ['<b>vote Bob</b>', 'Bob is town', '<p>Day 2</p><b>vote: Luca</b>', 'no votes here', '<blockquote>vote Bob</blockquote>']
    posts = [Post("s", "t", str(i), "Luca", AT, (PostVersion(1, b, str(i), AT),), number=i) for i, b in enumerate(bodies)]
    with_skip = [extract_post(p, ctx) for p in posts]
    saved, g.skeleton = g.skeleton, None
    try:
        from forummod.extract import clear_caches

        clear_caches()
        without = [extract_post(p, ctx) for p in posts]
    finally:
        g.skeleton = saved
    assert with_skip == without
    assert [len(e.intents) for e in with_skip] == [1, 0, 1, 0, 0]
