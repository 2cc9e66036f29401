"""The lean parse of thread pages (plain element classes, UTF-8 bytes handed to libxml2) builds
the tree the default parse of the text builds, byte for byte once serialised."""

from __future__ import annotations

import lxml.html
import pytest
from lxml import etree

from forummod.forum.html_engine import parse_html
from forummod.forum.http import decode_body, decode_utf8_body

TRICKY = [
    "<html><body>\x00nul</body></html>",
    "<p>caf\u00e9 \u2019 \U0001F600</p>",  # Latin-1, UCS-2 and UCS-4 strings
    "<p>plain ascii</p>",
    "<meta charset='iso-8859-1'><p>\u00e9</p>",
    "<html><head><meta http-equiv='Content-Type' content='text/html; charset=windows-1251'></head><body>\u041f\u0440\u0438</body></html>",
    "<meta charset=utf-16><p>\u00e9</p>",
    "\ufeff<html><body>x</body></html>",
    "<?xml version='1.0' encoding='utf-8'?><html><body>decl</body></html>",
    "<?xml version='1.0'?><?xml version='1.0' encoding='latin-1'?><p>two declarations</p>",
    "<?xml version='1.0' encoding='utf-8'><p>unclosed declaration</p>",
    "", "   ", "<!-- only a comment -->", "<p>\r\n\r</p>", "<p>lone \ud800 surrogate</p>",
]


def _tree(root) -> str:
    return etree.tostring(root, encoding="unicode")


@pytest.mark.parametrize("text", TRICKY)
def test_lean_parse_is_the_default_parse(text):
    want = _tree(parse_html(text))
    assert _tree(parse_html(text, lean=True)) == want
    try:
        utf8 = text.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert _tree(parse_html(text, lean=True, utf8=utf8)) == want


def test_lean_elements_are_plain_html_elements():
    root = parse_html("<form><input name='a'></form>", lean=True)
    assert {type(e) for e in root.iter()} == {lxml.html.HtmlElement}


def test_decode_utf8_body_gives_the_text_decode_body_gives():
    for raw in ["caf\u00e9 \U0001F600".encode(), b"caf\xe9", b"\xc2\x92quote", b"ascii", b"bad \xff utf-8 \xc3\xa9"]:
        text, utf8 = decode_utf8_body(raw)
        assert text == decode_body(raw, None)
        assert utf8 is None or utf8 == text.encode("utf-8")


def test_corpus_pages_parse_to_the_same_tree():
    from tests.conftest import corpus_root

    root = corpus_root()
    if not root.is_dir():
        pytest.skip("no corpus")
    pages = sorted(root.rglob("*.html"))
    for page in pages:
        text, utf8 = decode_utf8_body(page.read_bytes())
        assert _tree(parse_html(text, lean=True, utf8=utf8)) == _tree(parse_html(text)), page.name
    assert pages


def test_decode_utf8_body_hands_over_the_fixed_bytes_of_a_page_with_c1_characters():
    raw = "caf\u00e9 ".encode() + b"\xc2\x92quote\xc2\x85 and \xc2\x81" + "\U0001F600".encode()
    text, utf8 = decode_utf8_body(raw)
    assert text == decode_body(raw, None) and "\u2019quote\u2026" in text
    assert utf8 == text.encode("utf-8")


def test_decode_body_counts_the_characters_beyond_ascii_as_before():
    for raw in [b"caf\xe9 na\xefve \xe9t\xe9", "caf\u00e9 \u00e9t\u00e9".encode() + b" \xff",
                "\u00e9\u00e9\u00e9".encode() + b"\xe9\xe9\xe9\xe9", b"\xe9" + "\u00e9".encode()]:
        text = raw.decode("utf-8", errors="replace")
        broken = text.count("\ufffd")
        multibyte = sum(1 for ch in text if ord(ch) > 0x7F) - broken
        expected = text if broken <= multibyte else raw.decode("cp1252")
        assert decode_body(raw, None) == expected


def test_lean_parse_keeps_no_id_table_and_the_same_tree():
    text = "<html><body><div id='p1'>a</div><div id='p1'>b</div><p id='x'>c</p></body></html>"
    lean, plain = parse_html(text, lean=True, utf8=text.encode(), ids=False), parse_html(text)
    assert _tree(lean) == _tree(plain)
    assert [e.text for e in lean.xpath("//*[@id='p1']")] == ["a", "b"]
    assert plain.xpath("id('x')") and not lean.xpath("id('x')")  # XPath's id() alone reads the table; no selector does
    assert parse_html(text, lean=True).xpath("id('x')")  # the id table stays unless asked


def test_only_a_profile_whose_texts_could_call_id_parses_pages_without_the_id_table():
    from dataclasses import replace

    from forummod.forum.html_engine import _reads_ids
    from forummod.forum.registry import profiles

    assert not any(_reads_ids(p) for p in profiles().values())
    phpbb = profiles()["phpbb"]
    raw = {**phpbb.raw, "post": {**phpbb.raw["post"], "author": ["xpath:id('x')//b"]}}
    assert _reads_ids(replace(phpbb, raw=raw))


def test_the_blank_page_test_is_strip():
    for t in ["", " ", "\n\t\r\x0b\x0c", "\u3000\u2028\x85\xa0\x1c", "\u200b", "x", " x ", "\ufeff"]:
        assert (not t or t.isspace()) == (not t.strip()), repr(t)
    assert _tree(parse_html("\u3000\n")) == _tree(parse_html(""))
