"""The faster XPath forms of selectors select exactly what the plain forms select."""

from __future__ import annotations

import random

import lxml.html
from lxml import etree

from forummod.forum.html_engine import _first_step
from forummod.forum.profile import _TRANSLATOR, class_steps_on_attribute, compile_css

_CLASSES = ["a", "b", "ab", "a-b", "post-signature", "signature", "", " a ", "a\tb", "A"]


def _page(seed: int) -> object:
    rng = random.Random(seed)
    parts = []
    for _ in range(300):
        tag = rng.choice(["div", "p", "a", "span", "li"])
        cls = rng.choice([None, *_CLASSES])
        attr = "" if cls is None else f' class="{cls}"'
        rel = rng.choice(["", ' rel="next"', ' rel="nextx"', ' rel=""'])
        parts.append(f"<{tag}{attr}{rel}>x" if rng.random() < 0.6 else f"<{tag}{attr}{rel}>y</{tag}>")
    return lxml.html.document_fromstring("<html><body>" + "".join(parts) + "</body></html>")


def test_class_steps_on_attribute_select_the_same_elements():
    selectors = ["div.a", "p.a span.b", ".post-signature", "div.signature, .post-signature", "div.a > p.b",
                 "div.a + p.b", "div.a ~ a.b", "li.a:not(.b)", "div.a.b", "span.ab a:first-of-type",
                 "p.a-b a.a", "*.A", "a:is(.a, [rel='next'])", "div.a:not(.ab)", ":not(.a)", "div.a[rel^=n]",
                 "li.a.b:not(.ab)", "span:not(.a):not(.b)", "div.a:not(.b) > span.ab",
                 "a:is(.a, [rel^='n'])", "a:is(.ab, .b, [rel='next'])", ":is(.a, [rel*=ex])", "p a:is(.a, [rel^='n'])",
                 "a[rel=next]", "a[rel]", "span[rel*=ex]", ":not([rel])", "div.a[rel^=n]", "p a[rel='next'].ab"]
    for seed in range(4):
        root = _page(seed)
        ctxs = [root, *root.xpath("//div")[:20]]
        for css in selectors:
            plain = etree.XPath(_TRANSLATOR.css_to_xpath(css, prefix="descendant::"))
            fast = compile_css(css)
            for ctx in ctxs:
                assert fast(ctx) == plain(ctx), css
    assert "/@class[" in compile_css("div.a span.b").path  # the form is really used
    assert compile_css("div.a:not(.b)").path.startswith("descendant::div/@class[")
    assert "/@class[" not in compile_css(":not(.a)").path  # true without a class: kept as it is
    assert " | " in compile_css("a:is(.a, [rel^='n'])").path


def test_page_scope_first_steps_select_the_same_elements():
    conds = [("div", "contains(@class, 'a')"), ("a", "@rel = 'next'"), ("a", "@rel = ''"),
             ("span", "contains(@class, 'a') and contains(@class, 'b')"), ("div", "@rel and contains(@class, 'a')"),
             ("*", "contains(@class, 'signature')")]
    for seed in range(4):
        root = _page(seed)
        for element, cond in conds:
            plain = etree.XPath(f"descendant::{element}[{cond}]")
            assert etree.XPath(_first_step(element, cond))(root) == plain(root), cond
    assert _first_step("a", "@rel = 'next'") == "descendant::a/@rel[. = 'next']/.."
    assert _first_step("div", "@rel and contains(@class, 'a')") == "descendant::div[@rel and contains(@class, 'a')]"


def test_grouped_first_steps_read_the_pagination_a_search_per_step_reads(monkeypatch):
    """vBulletin's div.pagenav / div.pagination / div.pages found by one walk: same page numbers."""
    from forummod.forum import html_engine as H
    from forummod.forum.registry import profiles

    pages = ['<div class="pagenav"><td class="alt1"><a href="t?page=2">2</a></td></div>',
             '<div class="pagination x"><span><a href="t?page=3">3</a></span></div><div class="pages">'
             '<a href="t?page=4">4</a></div>', '<div class="pagesx"><a href="t?page=5">5</a></div>'
             '<span class="first_last"><a href="t?page=9">Last</a></span><span class="prev_next">'
             '<a rel="next" href="t?page=2">&gt;</a></span>', "<div>none</div>"]
    prof = profiles()["vbulletin"]
    assert H._scope_groups(prof.pagination)
    for body in pages:
        root = lxml.html.document_fromstring(f"<html><body>{body}</body></html>")
        grouped = H.read_pagination(prof, root, "https://f.invalid/t?page=1")
        monkeypatch.setattr(H, "_scope_groups", lambda spec: {})
        plain = H.read_pagination(prof, root, "https://f.invalid/t?page=1")
        monkeypatch.undo()
        assert grouped == plain
