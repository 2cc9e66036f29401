"""Fast paths of the thread-page parser give what the plain paths give."""

from __future__ import annotations

import random
import re

import lxml.html
import pytest
from lxml import etree

from forummod.forum import html_engine
from forummod.forum.profile import loose_test
from forummod.forum.registry import profiles

_TAGS = ["div", "span", "blockquote", "pre", "code", "table", "td", "p", "details", "cite", "h4", "b", "a", "dl",
         "script", "noscript", "strong"]


def _words(profile: object) -> list[str]:
    """Class names and attribute values the profile's body selectors test, and a few near misses."""
    out = set()
    for ex in (*profile.remove, *(m.selector for m in profile.marks)):
        out.update(re.findall(r"'([^']*)'", ex.source))
        out.update(re.findall(r"\.([\w-]+)", ex.source))
    return sorted(out | {w + "x" for w in out} | {"x" + w for w in out} | {"quote", "", "a b"})


def _body(rng: random.Random, words: list[str], depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(0, 4 if depth < 3 else 0)):
        tag = rng.choice(_TAGS)
        attrs = ""
        for name in ("class", "title", "style", "id"):
            if rng.random() < (0.7 if name == "class" else 0.15):
                value = " ".join(rng.choice(words) for _ in range(rng.randint(1, 2))).replace('"', "")
                attrs += f' {name}="{value}"'
        parts.append(f"<{tag}{attrs}>{rng.choice(['x', 'Spoiler', 'Quote', 'wrote:'])}{_body(rng, words, depth + 1)}</{tag}>")
    if rng.random() < 0.2:
        parts.append("<!-- c -->")
    return "".join(parts)


def test_loose_test_answers_what_its_xpath_condition_answers():
    conds = ["", "contains(@class, 'a')", "@id = 'p1'", "@title", "contains(@title, '')", "@rel = ''",
             "@title and contains(@class, 'a') and contains(@class, 'b')", 'contains(@class, "it\'s")',
             "@data-x = 'y'"]
    rng = random.Random(3)
    values = ["a", "b", "a b", "", "p1", "it's", "ba", "y"]
    items = []
    for _ in range(400):
        attrs = "".join(f' {n}="{rng.choice(values)}"' for n in ("class", "id", "title", "rel", "data-x")
                        if rng.random() < 0.5).replace('"it\'s"', "\"it's\"")
        items.append(f"<span{attrs}>x</span>")
    root = lxml.html.document_fromstring("<html><body>" + "".join(items) + "</body></html>")
    spans = root.xpath("//span")
    for cond in conds:
        test = loose_test(cond)
        assert test is not None, cond
        want = etree.XPath(f"self::*[{cond}]" if cond else "self::*")
        assert [bool(want(s)) for s in spans] == [test(s) for s in spans], cond
    assert loose_test("(contains(@class, 'a')) or (@rel)") is None  # :is() alternatives: not written in Python
    assert loose_test("contains(@class, concat('a', \"'\"))") is None


@pytest.mark.parametrize("name", sorted(profiles()))
def test_normalise_body_skips_only_selectors_that_find_nothing(name, monkeypatch):
    profile = profiles()[name]
    if not profile.marks and not profile.remove:
        pytest.skip("no body rules")
    rng = random.Random(name)
    words = _words(profile)
    bodies = [f"<html><body>{_body(rng, words)}</body></html>" for _ in range(150)]

    def normalised() -> list[str]:
        out = []
        for b in bodies:
            try:
                out.append(html_engine.normalise_body(profile, lxml.html.document_fromstring(b).find("body")))
            except ValueError as e:  # a `header` test on a comment (flaskbb), on either path alike
                out.append(repr(e))
        return out

    fast = normalised()
    calls = []
    monkeypatch.setattr(html_engine, "_may_match", lambda ex, tags, hits=None: calls.append(ex) or True)
    assert normalised() == fast
    assert calls  # the plain path really ran every selector


def test_extractor_text_is_text_content_and_profiles_cannot_use_exslt_regexps():
    from forummod.forum.profile import _STRING, _compile_extractor, probe_of

    root = lxml.html.document_fromstring("<html><body><div class='a'>x <b>y</b><!-- c --> z&amp;<p>é</p></div>"
                                         "<span></span></body></html>")
    def outcome(fn, node):
        try:
            return fn(node)
        except ValueError as e:  # a comment: lxml.html's text_content() refuses it alike
            return repr(e)
    for node in root.iter():
        assert outcome(_STRING, node) == outcome(lambda n: n.text_content(), node)
    with pytest.raises(etree.XPathEvalError):  # EXSLT's re: needs a declared prefix, with or without regexp=True
        etree.XPath(".//div[re:test(@class, '^a$')]")(root)
    ex = _compile_extractor("xpath:.//div[contains(@class, 'a')]", "t")
    assert probe_of([ex, _compile_extractor("span.b", "t")])(root) == ex.elements(root) == root.xpath("//div")


def test_a_selector_needing_a_tag_the_page_lacks_finds_nothing_on_it():
    from forummod.forum.html_engine import _TagsOnPage
    from forummod.forum.profile import _compile_extractor

    selectors = ["p.author time @datetime", "td.nav a", "div.a ~ span", "dl dt a:last-of-type", "time, b.x",
                 "a:not(p)", ".x", "*.a b", "span + td", "header.message-attribution time.u-dt @data-time"]
    tags = ["div", "p", "span", "a", "time", "td", "dl", "dt", "b", "header"]
    rng = random.Random(5)
    for _ in range(30):
        present = rng.sample(tags, rng.randint(1, len(tags)))
        parts = [f"<{t} class='{rng.choice(['a', 'x', 'author', 'nav'])}'>" for t in rng.choices(present, k=40)]
        root = lxml.html.document_fromstring("<html><body>" + "".join(parts) + "</body></html>")
        on_page = _TagsOnPage(root)
        for t in tags:
            assert on_page.has(t) == bool(root.xpath(f"//{t}")), t
        for css in selectors:
            ex = _compile_extractor(css, "t")
            assert ex.tags is not None
            if not on_page.may_find(ex):
                assert all(ex.nodes(ctx) == [] for ctx in root.iter()), css
    assert _compile_extractor("xpath:.//time", "t").tags is None and _compile_extractor(":self @id", "t").tags is None


def test_a_raw_xpath_mark_runs_only_when_the_probe_found_its_tag(monkeypatch):
    from forummod.forum.html_engine import _raw_result_tag

    assert _raw_result_tag(".//table[.//span[@class='genmed']/b[contains(., ']')]]") == "table"
    assert [_raw_result_tag(x) for x in (".//comment()", ".//div[a]/b", ".//div | .//p", ".//*[@x]", ".//div['")] \
        == [None] * 5
    phpbb = profiles()["phpbb"]
    quote = ("<table><tr><td><span class='genmed'><b>alice wrote:</b></span></td></tr>"
             "<tr><td>hi</td></tr></table>")
    bodies = [f"<html><body><div class='content'>{b}</div></body></html>" for b in
              (quote, "<blockquote><cite>bob wrote:</cite>x</blockquote>", "<b>wrote</b>", quote + "<pre>c</pre>")]

    def normalised() -> list[str]:
        return [html_engine.normalise_body(phpbb, lxml.html.document_fromstring(b).find("body")) for b in bodies]
    fast = normalised()
    assert 'data-fm="quote"' in fast[0] and "<table" in fast[0]
    monkeypatch.setattr(html_engine, "_may_match", lambda ex, tags, hits=None: True)
    assert normalised() == fast


def test_the_c1_check_answers_what_the_c1_search_answers():
    from forummod.forum.http import _C1_UTF8, _has_c1_utf8

    rng = random.Random(9)
    for _ in range(500):
        data = bytes(rng.choice([0x41, 0x20, 0xC2, 0x80, 0x92, 0x9F, 0xA0, 0xC3, 0xE2]) for _ in range(rng.randint(0, 12)))
        assert _has_c1_utf8(data) == (_C1_UTF8.search(data) is not None), data
