"""Malformed input is data: no post or PM makes extraction raise (DESIGN, principles)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from forummod.extract import extract_message, extract_post, post_text

from .helpers import ctx, message, post, roster

R = roster("Anna", "Marco", "Marco Rossi", "Маша", "小明", "[b]x", "a_b")
PIECES = st.sampled_from([
    "<b>", "</b>", "<blockquote>", "</blockquote>", "<div style='font-weight:bold'>", "</div>", "<br>", "[b]",
    "[/b]", "[quote]", "[/quote]", "[vote]", "[/vote]", "VOTE:", "vote", "unvote", "Голосую за", "投票", "投",
    "Marco", "Маша", "Машу", "小明", " ", "\n", ",", "<s>", "</s>", "&amp;", "\u200b", "<", ">", "[", "]",
    "indago", "刀", "Ziener:", "Links en", "no lynch", "##vote", "<span class='bbvote'>", "</span>",
])
TEXT = st.lists(st.one_of(PIECES, st.text(max_size=6)), max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(TEXT, st.sampled_from([("en", "mafia-majority"), ("it", "lupus-eresia"), ("ru", "witch-hunt"),
                               ("nl", "one-night"), ("zh", "village")]))
def test_any_post_or_pm_is_read_without_raising(html: str, game: tuple[str, str]) -> None:
    lang, ruleset = game
    c = ctx(R, lang, ruleset, forms=("bold", "tag", "hash", "plain", "pm"))
    pt = post_text(html)
    for span in pt.bold + pt.tags:
        assert 0 <= span.start < span.end <= len(pt.text)
    extract_post(post(html), c)
    extract_message(message(html), c)
