"""Issue 15 item 2 on saved Discourse pages: the Markdown marker `[](#fm-…)` cooks to an empty
in-page link, the kind of element Discourse's sanitizer keeps in real cooked posts (its heading
anchors), so a cooked post carries the marker in an attribute, never as readable text, and the
marker search (`has_marker`, outside quotes) finds it."""

from __future__ import annotations

import json
import re

import lxml.html

from forummod.forum.write import has_marker, marker_outside_quotes
from forummod.preview.html import _markdown
from forummod.render.marker import embed_marker


def test_the_markdown_marker_cooks_to_an_empty_link_that_discourse_keeps_and_the_search_finds(corpus_dir):
    posts = json.loads((corpus_dir / "discourse" / "criticalfallibilism-posts.json").read_text(encoding="utf-8"))
    cooked = [p["cooked"] for p in posts["latest_posts"]] if "latest_posts" in posts else \
        [p["cooked"] for p in posts["post_stream"]["posts"]]
    kept = [m for c in cooked for m in re.findall(r'<a [^>]*href="#[^"]+"[^>]*></a>', c)]
    assert kept  # real cooked posts keep empty in-page links
    marker = "fm-12-3f9a0c1b2d"
    body = embed_marker("**Vote count**: Eve 3", marker, "markdown")
    html = _markdown().render(body)  # CommonMark, the parser family Discourse cooks with
    assert f'href="#{marker}"' in html
    assert marker not in lxml.html.fragment_fromstring(html, create_parent="div").text_content()
    page_post = cooked[0] + html  # the marker among a real post's cooked HTML
    assert has_marker(page_post, marker) and marker_outside_quotes(page_post, marker)
