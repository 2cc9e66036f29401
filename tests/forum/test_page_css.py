"""Decoy posts and words hidden by the page's own stylesheet are not read (issue 16: SMF 1.1
pages "can also hold decoy posts hidden by per-page CSS classes"). The page below is written
from SMF 1.1's default-theme Display template (not a saved page)."""

from __future__ import annotations

from datetime import datetime, timezone

from forummod.extract.text import post_text
from forummod.forum.detect import detect_engine
from forummod.forum.html_engine import parse_html, parse_thread_page
from forummod.forum.page_css import hidden_rules

NOW = datetime(2010, 1, 1, 12, 0, tzinfo=timezone.utc)

SMF11_POST = """<tr{attrs}><td style="padding: 1px 1px 0 1px;"><a name="msg{mid}"></a>
<table width="100%" cellpadding="3" cellspacing="0" border="0"><tr><td class="windowbg{alt}">
<table width="100%" cellpadding="5" cellspacing="0" style="table-layout: fixed;"><tr>
<td valign="top" width="16%" rowspan="2" style="overflow: hidden;">
<b><a href="https://f.test/index.php?action=profile;u={uid}" title="View the profile of {who}">{who}</a></b>
<div class="smalltext">Newbie<br />Posts: 12</div></td>
<td valign="top" width="85%" height="100%"><table width="100%" border="0"><tr>
<td valign="middle"><a href="https://f.test/index.php?topic=5.msg{mid}#msg{mid}"><img src="xx.gif" alt="" /></a></td>
<td valign="middle"><div style="font-weight: bold;" id="subject_{mid}">
<a href="https://f.test/index.php?topic=5.msg{mid}#msg{mid}">Re: Village game</a></div>
<div class="smalltext">&#171; <b>Reply #{n} on:</b> {when} &#187;</div></td></tr></table>
<hr width="100%" size="1" class="hrcolor" /><div class="post">{body}</div></td></tr></table>
</td></tr></table></td></tr>"""


def smf11_page(style: str, posts: list[str]) -> str:
    return ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />'
            '<script type="text/javascript">var smf_theme_url = "https://f.test/Themes/default";</script>'
            f"<style type=\"text/css\">{style}</style></head><body>"
            '<table cellpadding="0" cellspacing="0" border="0" width="100%" class="bordercolor">'
            + "".join(posts) + "</table>"
            '<span class="smalltext"><a href="http://www.simplemachines.org/">Powered by SMF 1.1.21</a></span>'
            "</body></html>")


STYLE = ("/* per page */ .q8z { display : none !important } "
         "@media print { .windowbg2 { display: none } } td.zz1, #p999 {visibility:hidden}")


def _page():
    posts = [
        SMF11_POST.format(attrs='', mid=101, alt="", uid=2, who="ann", n=0, when="December 12, 2009, 02:11:37 PM",
                          body='I vote <b>bob</b><span class="q8z"> vote carol</span>'),
        SMF11_POST.format(attrs=' class="q8z"', mid=102, alt="2", uid=9, who="mallory", n=1,
                          when="December 12, 2009, 02:20:00 PM", body="vote ann"),
        SMF11_POST.format(attrs='', mid=103, alt="2", uid=3, who="bob", n=2, when="December 12, 2009, 03:05:10 PM",
                          body="no, <b>vote ann</b>"),
    ]
    return smf11_page(STYLE, posts)


def test_the_page_stylesheet_rules_that_hide_are_read_outside_media_blocks():
    rules = hidden_rules(parse_html(_page()))
    assert rules.classes == {("", "q8z"), ("td", "zz1")}
    assert rules.ids == {("", "p999")}  # print-only ".windowbg2" is not a hiding rule on screen


def test_smf11_posts_are_read_and_a_post_hidden_by_a_page_class_is_not(profiles):
    html = _page()
    assert detect_engine(profiles, html) == "smf"
    page = parse_thread_page(profiles["smf"], html, url="https://f.test/index.php?topic=5.0", tz=timezone.utc, now=NOW)
    assert [(p.post_id, p.author) for p in page.posts] == [("101", "ann"), ("103", "bob")]
    assert [p.created_at.strftime("%Y-%m-%d %H:%M:%S") for p in page.posts] == \
        ["2009-12-12 14:11:37", "2009-12-12 15:05:10"]


def test_words_hidden_by_a_page_class_inside_a_post_are_not_the_players_text(profiles):
    page = parse_thread_page(profiles["smf"], _page(), url="https://f.test/index.php?topic=5.0", tz=timezone.utc, now=NOW)
    text = post_text(page.posts[0].html).text
    assert "bob" in text and "carol" not in text


def test_a_post_with_an_inline_display_none_is_not_read(profiles):
    posts = [SMF11_POST.format(attrs='', mid=201, alt="", uid=2, who="ann", n=0, when="December 12, 2009, 02:11:37 PM", body="hi"),
             SMF11_POST.format(attrs=' style="display: none"', mid=202, alt="", uid=9, who="mallory", n=1,
                               when="December 12, 2009, 02:12:00 PM", body="x")]
    page = parse_thread_page(profiles["smf"], smf11_page("", posts), url="https://f.test/index.php?topic=5.0",
                             tz=timezone.utc, now=NOW)
    assert [p.author for p in page.posts] == ["ann"]


def test_a_page_without_hiding_rules_keeps_every_post(profiles):
    posts = [SMF11_POST.format(attrs='', mid=300 + i, alt="", uid=2 + i, who=f"p{i}", n=i, when="December 12, 2009, 02:11:37 PM",
                               body="hi") for i in range(3)]
    page = parse_thread_page(profiles["smf"], smf11_page(".x { color: red }", posts),
                             url="https://f.test/index.php?topic=5.0", tz=timezone.utc, now=NOW)
    assert len(page.posts) == 3


def test_the_inline_style_test_is_the_xpath_it_replaced():
    """`_inline_hidden` (per element) selects what the whole-page `_INLINE_XPATH` selected."""
    import lxml.html
    from lxml import etree as ET

    from forummod.forum.page_css import _INLINE_XPATH, _inline_hidden

    styles = ["display:none", "DISPLAY: NONE", "Display : None", "display:\tnone", "display: block",
              "visibility:hidden", "VISIBILITY:HIDDEN", "Visibility: Hidden", "visibility :  hidden",
              "color:red; display :none !important", "displaynone", "x", "", "DİSPLAY:NONE", "display:nonE"]
    html = "<html><body>" + "".join(f'<div id="d{i}" style="{s}">x</div>' for i, s in enumerate(styles)) \
        + "<p>no style</p><!-- c --></body></html>"
    root = lxml.html.document_fromstring(html)
    want = {e.get("id") for e in _INLINE_XPATH(root)}
    got = {e.get("id") for e in root.iter() if isinstance(e.tag, str) and _inline_hidden(e)}
    assert got == want and want  # and the XPath does find some
    assert not _inline_hidden(ET.Comment("display:none"))


def test_any_ancestor_answers_what_a_walk_per_element_answers():
    import lxml.html

    from forummod.forum.page_css import any_ancestor

    root = lxml.html.document_fromstring(
        "<html><body><div id='a' class='x'><p id='b'><i id='c'></i></p></div><div id='d'><p id='e'></p>"
        "<span class='x'><b id='f'></b></span></div><p id='g'></p></body></html>")
    els = [e for e in root.iter() if isinstance(e.tag, str)]
    els = els + els[::-1]  # memo hits in both orders
    test = lambda a: a.get("class") == "x"  # noqa: E731
    assert any_ancestor(els, test) == [any(test(a) for a in e.iterancestors()) for e in els]


def test_text_hidden_inside_posts_is_what_a_walk_over_every_descendant_finds():
    import random

    import lxml.html

    from forummod.forum.page_css import _inline_hidden, hidden_rules, visible_posts

    def old_marks(root, containers):
        rules = hidden_rules(root)
        for c in containers:
            for el in c.iterdescendants():
                if isinstance(el.tag, str) and (el.get("class") or el.get("id")) and not _inline_hidden(el) \
                        and rules.hides(el):
                    el.set("style", "display:none;" + (el.get("style") or ""))

    rng = random.Random(5)
    for _ in range(30):
        body = []
        for n in range(6):
            inner = []
            for _ in range(20):
                tag = rng.choice(["span", "div", "b"])
                cls = rng.choice(["", ' class="h1"', ' class="xh1"', ' class="a h1"', ' class="h2"', ' class="h1x"'])
                ident = rng.choice(["", ' id="i1"', ' id="i11"'])
                style = rng.choice(["", ' style="color:red"', ' style="display: none"'])
                inner.append(f"<{tag}{cls}{ident}{style}>t<!-- c --></{tag}>")
            body.append(f'<div class="post">{"".join(inner)}</div>')
        html = ("<html><head><style>.h1 {display:none} span.h2 {visibility: hidden} #i1 {display:none}</style>"
                "</head><body>" + "".join(body) + "</body></html>")
        new, old = lxml.html.document_fromstring(html), lxml.html.document_fromstring(html)
        visible_posts(new.xpath("//div[@class='post']"), new)
        old_marks(old, old.xpath("//div[@class='post']"))
        assert lxml.html.tostring(new) == lxml.html.tostring(old)
