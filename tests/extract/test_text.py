"""The text model: the player's own words, bold and vote-tag spans (issue 4 item 1)."""

from __future__ import annotations

import pytest

from forummod.extract import post_text


def bold_texts(html: str) -> list[str]:
    pt = post_text(html)
    return [pt.text[s.start:s.end] for s in pt.bold]


def tag_texts(html: str) -> list[tuple[str, str]]:
    pt = post_text(html)
    return [(pt.text[s.start:s.end], s.kind) for s in pt.tags]


@pytest.mark.parametrize("html", [
    '<blockquote><div><cite>Bob wrote:</cite><b>VOTE: Luca</b></div></blockquote>mine',  # phpBB 3.0
    '<blockquote><blockquote><b>VOTE: Luca</b></blockquote><b>VOTE: Luca</b></blockquote>mine',  # nested
    '<div class="quotetitle">Bob wrote:</div><div class="quotecontent"><b>VOTE: Luca</b></div>mine',  # phpBB 2/3 custom
    '<div class="bbcode_container"><div class="bbcode_quote"><b>VOTE: Luca</b></div></div>mine',  # vBulletin
    '<div class="bbCodeBlock bbCodeBlock--quote"><b>VOTE: Luca</b></div>mine',  # XenForo
    '<aside class="quote"><b>VOTE: Luca</b></aside>mine',  # Discourse
    '<div data-fm="quote" data-fm-author="Bob"><b>VOTE: Luca</b></div>mine',  # adapter mark
    '<details><summary>spoiler</summary><b>VOTE: Luca</b></details>mine',
    '<div class="spoiler"><b>VOTE: Luca</b></div>mine',
    '<div data-fm="spoiler"><b>VOTE: Luca</b></div>mine',
    '<pre><b>VOTE: Luca</b></pre>mine',
    '<code>[b]VOTE: Luca[/b]</code>mine',
    '<div class="codebox"><b>VOTE: Luca</b></div>mine',
    '<div class="signature"><b>VOTE: Luca</b></div>mine',
    '<div data-fm="signature"><b>VOTE: Luca</b></div>mine',
    '<s><b>VOTE: Luca</b></s>mine',
    '<strike><b>VOTE: Luca</b></strike>mine',
    '<del><b>VOTE: Luca</b></del>mine',
    '<span style="text-decoration: line-through"><b>VOTE: Luca</b></span>mine',
    '<div style="display:inline-flex;text-decoration:line-through"><b>VOTE: Luca</b></div>mine',  # MafiaScum [s]
    '<div style="display:none"><b>VOTE: Luca</b></div>mine',
    '[quote="Bob"][b]VOTE: Luca[/b][quote]x[/quote][/quote]mine',  # literal BBCode, nested
    '[spoiler][b]VOTE: Luca[/b][/spoiler]mine',
    '[s][b]VOTE: Luca[/b][/s]mine',
])
def test_excluded_material_never_reaches_the_text(html: str) -> None:
    pt = post_text(html)
    assert "Luca" not in pt.text
    assert pt.text == "mine"
    assert pt.bold == ()
    assert pt.hidden, "what was left out is kept for checks"


@pytest.mark.parametrize("html, expected", [
    ("<b>VOTE: Luca</b>", ["VOTE: Luca"]),
    ("<strong>VOTE: Luca</strong>", ["VOTE: Luca"]),
    ('<span style="font-weight: bold">VOTE: Luca</span>', ["VOTE: Luca"]),  # phpBB 3
    ('<span style="font-weight:700">VOTE: Luca</span>', ["VOTE: Luca"]),
    ('<div style="display:inline;font-weight:bold">VOTE: Luca</div>', ["VOTE: Luca"]),  # MafiaScum
    ("[b]VOTE: Luca[/b]", ["VOTE: Luca"]),  # literal BBCode
    ("[B][color=red]VOTE: Luca[/color][/B]", ["VOTE: Luca"]),
    ('<b>VOTE: <span style="font-weight:normal">Luca</span></b>', ["VOTE: "]),
    ("<b>a</b><b>b</b>", ["ab"]),
])
def test_bold_spans_keep_their_positions(html: str, expected: list[str]) -> None:
    assert [t.strip() for t in bold_texts(html)] == [e.strip() for e in expected]


@pytest.mark.parametrize("html", [
    '<blockquote class="postcontent restore"><b>VOTE: Luca</b>'  # vBulletin 4 post body
    '<div class="bbcode_container"><div class="bbcode_quote"><b>VOTE: Marco</b></div></div></blockquote>',
    '<blockquote class="messageText SelectQuoteContainer ugc baseHtml"><b>VOTE: Luca</b>'  # XenForo 1 post body
    '<div class="bbCodeBlock bbCodeQuote"><aside><blockquote class="quoteContainer"><b>VOTE: Marco</b>'
    '</blockquote></aside></div></blockquote>',
])
def test_post_body_containers_built_from_blockquotes_are_not_quotes(html: str) -> None:
    assert post_text(html).text == "VOTE: Luca"


def test_unpaired_literal_bold_stays_plain_text() -> None:
    # archive index, game 17276: "[b] vote:slaxx[\b]" was not accepted as a bold vote
    pt = post_text("[b] vote:slaxx[\\b]")
    assert pt.bold == ()
    assert "vote:slaxx" in pt.text


def test_vote_tags_rendered_and_literal() -> None:
    assert tag_texts('<span class="bbvote" title="This is an official vote.">VOTE: Mr Wright</span>') == [
        ("VOTE: Mr Wright", "vote")]
    assert tag_texts('<span class="bbvote" title="This is an official unvote.">UNVOTE: </span>') == [
        ("UNVOTE:", "unvote")]
    assert tag_texts("x [vote]Luca[/vote] y [voto]Marco[/voto] [unvote][/unvote]") == [
        ("Luca", "vote"), ("Marco", "vote")]


def test_lines_follow_rendering_not_source_newlines() -> None:
    pt = post_text('one\ntwo<br>three<p>four</p><div style="display:inline">five</div> six')
    assert pt.text.split("\n") == ["one two", "three", "four", "five six"]


def test_invisible_characters_are_stripped() -> None:
    assert post_text("<b>VOTE: Lu\u200bca\u00ad</b>").text == "VOTE: Luca"


def test_plain_text_bodies_keep_their_lines() -> None:
    assert post_text("Ziener: bekijk Daan\n\nbedankt").text == "Ziener: bekijk Daan\nbedankt"


def test_quote_authors_are_recorded() -> None:
    pt = post_text('<blockquote><div><cite>boberz wrote:</cite>text</div></blockquote>'
                   '<div data-fm="quote" data-fm-author="Anna">x</div>[quote="Bob"]y[/quote]')
    assert [h.author for h in pt.hidden if h.kind == "quote"] == ["boberz", "Anna", "Bob"]


def test_empty_and_broken_input() -> None:
    assert post_text("").text == ""
    assert post_text("<b>unclosed <i>tags").text == "unclosed tags"
    assert post_text("<!-- c -->after").text == "after"


@pytest.mark.parametrize("html", [
    "I think Tom &amp; &quot;Jerry&quot; &lt;3 are cute, O&#x27;Neil",  # a body with no element (an archive's PM)
    "<div>I think Tom &amp; &quot;Jerry&quot; &lt;3 are cute, O&#39;Neil</div>",
    "I think Tom & \"Jerry\" <3 are cute, O'Neil",  # plain text stays as it is
])
def test_entities_are_text_with_or_without_elements_around_them(html: str) -> None:
    """Issue 34, item 10: a PM quoted in a GM note showed "Tom &amp; Jerry" (and "&amp;amp;" in
    Markdown) when its body had no element for the parser to decode the entities in."""
    assert post_text(html).text == "I think Tom & \"Jerry\" <3 are cute, O'Neil"
