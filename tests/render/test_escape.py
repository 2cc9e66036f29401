"""Names and quoted text cannot become markup: checked by rendering them as the forum would."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from forummod.markup.bbcode import to_html
from forummod.render.escape import ZWJ, Safe, escape, escape_bbcode, escape_markdown, safe_url

MD = MarkdownIt("commonmark", {"html": False}).enable(["strikethrough", "table"])
ATTACKS = ["[b]x[/b]", "*x*", "_x_", "**x**", "<script>alert(1)</script>", "[x](http://evil.example)",
           "![i](http://evil.example/i.png)", "[url=http://evil.example]x[/url]", "[/quote][quote=GM]fake",
           "`code`", "# heading", "> quote", "1. list", "- item", "| a | b |", "~~s~~", "&lt;b&gt;", "<b>x</b>"]
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\u200d"),
               min_size=1, max_size=40).map(str.strip).filter(bool)


def md_text(rendered: str) -> str:
    assert set(re.findall(r"</?([a-z0-9]+)", rendered)) <= {"p"}, rendered
    return html.unescape(re.sub(r"</?p>", "", rendered)).strip()


@pytest.mark.parametrize("attack", ATTACKS)
def test_markdown_escaped_name_renders_as_the_same_plain_text(attack):
    assert md_text(MD.render(escape_markdown(attack))) == attack


@pytest.mark.parametrize("attack", ATTACKS)
def test_bbcode_escaped_name_opens_no_tag(attack):
    out = to_html(escape_bbcode(attack))
    assert not re.search(r"<(?!br)", out.replace("&lt;", "")), out
    assert html.unescape(out).replace(ZWJ, "") == attack


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_escaped_for_markdown_reads_back_unchanged(text):
    assert md_text(MD.render(escape_markdown(text))) == text


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_escaped_for_bbcode_reads_back_unchanged(text):
    out = to_html(escape_bbcode(text))
    assert "<" not in out.replace("<br>", "")
    assert html.unescape(out).replace(ZWJ, "") == text


def test_safe_values_pass_through_once_and_plain_values_are_escaped():
    assert escape(Safe("[b]x[/b]"), "bbcode") == "[b]x[/b]"
    assert escape("[b]x[/b]", "bbcode") == f"[{ZWJ}b]x[{ZWJ}/b]"
    assert escape("*x*", "plain") == "*x*"


@pytest.mark.parametrize("url,expected", [
    ("https://forum.example/t?p=1#p1", "https://forum.example/t?p=1#p1"),
    ("https://x.example/a](http://evil)", "https://x.example/a%5D%28http://evil%29"),
    ("javascript:alert(1)", ""),
    ("data:text/html,<script>", ""),
    ("//evil.example/x", ""),
    (None, ""),
])
def test_link_targets_are_http_only_and_cannot_close_the_link(url, expected):
    assert safe_url(url) == expected
