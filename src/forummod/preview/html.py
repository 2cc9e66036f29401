"""A draft as the forum would show it: BBCode or Markdown to sanitized HTML (pure).

Two layers, so one mistake is not enough for a quoted post to run script in the GM's
browser: the converters never pass raw HTML through (BBCode text is HTML-escaped first;
markdown-it runs with `html` off), and nh3 then keeps only a small list of tags,
attributes, URL schemes and CSS properties. The page adds a CSP without any script source.
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

from forummod.markup.bbcode import to_html as bbcode_to_html

TAGS = {
    "a", "b", "blockquote", "br", "cite", "code", "del", "details", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "i", "img", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "th", "thead", "tr", "u", "ul",
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "span": {"style"},
    "div": {"style"},
    "td": {"align"},
    "th": {"align"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}
STYLE_PROPERTIES = {"color", "font-size", "text-align"}


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(["strikethrough", "table"])


def sanitize(html: str) -> str:
    """Only harmless markup survives: no script, no event handlers, no javascript: URLs."""
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES,
                     filter_style_properties=STYLE_PROPERTIES, link_rel="noopener noreferrer nofollow",
                     strip_comments=True)


def render_markup(body: str, markup: str) -> str:
    """The post's text as sanitized HTML, the way the forum would show it."""
    if markup == "markdown":
        return sanitize(_markdown().render(body))
    if markup == "bbcode":
        return sanitize(bbcode_to_html(body))
    return sanitize("<pre>" + nh3.clean_text(body) + "</pre>")
