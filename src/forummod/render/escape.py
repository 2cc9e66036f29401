"""Escaping for the markup a post is written in, so text from players cannot become markup.

Player names and anything taken from posts reach a draft only through these functions (the
Jinja environment applies them to every `{{ value }}`; the phrasebook to every parameter).

- BBCode: a zero-width joiner after every `[` so `[b]`, `[url=...]` or `[/quote]` in a name is
  shown as typed but never parsed as a tag. Forums already escape HTML in BBCode posts.
- Markdown: `<` and `&` become entities (no raw HTML, no entity tricks) and every character
  Markdown gives a meaning to is backslash-escaped (emphasis, links, images, code, headings,
  lists, quotes, tables), so `*x*`, `_x_` or `[x](http://evil)` stay literal text.
- plain: PM subjects and titles; nothing is markup there.

`Safe` marks text that is already markup (a rendered phrase, a template's own output) so it
is not escaped twice.
"""

from __future__ import annotations

import re
from typing import Callable, Literal
from urllib.parse import quote, urlsplit

from markupsafe import Markup

MarkupKind = Literal["bbcode", "markdown", "plain", "html"]

ZWJ = "\u200d"
_NEWLINES = re.compile(r"[\r\n\u2028\u2029]+")


class Safe(Markup):
    """Text already in the target markup; emitted as is by templates and phrases.

    A subclass of markupsafe's `Markup` so Jinja treats it as already escaped. Markup would
    HTML-escape plain text mixed into it (`Safe + str`), which is wrong for BBCode, so that
    mixing raises instead: escape the text for the post's markup first (`escape()`).
    """

    __slots__ = ()

    @classmethod
    def escape(cls, s: object) -> "Safe":
        if hasattr(s, "__html__"):
            return cls(s.__html__())
        raise TypeError("plain text mixed into Safe markup: escape it for the post's markup first")


def escape_bbcode(text: str) -> str:
    """Neutralise every BBCode tag opener; the text reads the same on the forum."""
    return text.replace("[", "[" + ZWJ)


_MD_ALWAYS = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE_START = re.compile(r"^([ \t]*)([#>+=-])", re.M)
_MD_ORDERED = re.compile(r"^([ \t]*\d+)([.)])", re.M)


def escape_markdown(text: str) -> str:
    """HTML-escape `&` and `<`, then backslash-escape what Markdown would read as markup.

    Emphasis, code, links and tables can start anywhere; headings, quotes, lists and setext
    underlines only at a line start. Parentheses, dots and the like are left alone elsewhere:
    a stray backslash shows on forums whose Markdown differs (Spirit reads `\\(...\\)` as math).
    """
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = _MD_ALWAYS.sub(r"\\\1", text)
    text = _MD_LINE_START.sub(r"\1\\\2", text)
    return _MD_ORDERED.sub(r"\1\\\2", text)


_MD_INLINE = re.compile(r"([\\`*_\[\]|~])")


def escape_literal(text: str, markup: str) -> Safe:
    """Trusted text (a phrase's own words): only what could open inline markup is escaped,
    so a phrase reads cleanly in the raw post (no "night\\." noise) and stays markup-neutral."""
    if markup == "markdown":
        return Safe(_MD_INLINE.sub(r"\\\1", text.replace("&", "&amp;").replace("<", "&lt;")))
    return Safe(escaper(markup)(text))


def escape_plain(text: str) -> str:
    return text


def escape_html(text: str) -> str:
    """HTML text and attribute values (the post-game archive's page, issue 32)."""
    import html

    return html.escape(text, quote=True)


ESCAPERS: dict[str, Callable[[str], str]] = {
    "bbcode": escape_bbcode,
    "markdown": escape_markdown,
    "plain": escape_plain,
    "html": escape_html,
}


def escaper(markup: str) -> Callable[[str], str]:
    try:
        return ESCAPERS[markup]
    except KeyError:
        raise ValueError(f"unknown markup {markup!r} (bbcode, markdown or plain)") from None


def escape(value: object, markup: str) -> Safe:
    """`value` as safe markup: Safe values pass, everything else is escaped as text."""
    if isinstance(value, Safe) or hasattr(value, "__html__"):
        return Safe(str(value))
    return Safe(escaper(markup)("" if value is None else str(value)))


def one_line(text: str) -> str:
    """Names are inline: a newline in one must not start a new paragraph, list or quote."""
    return _NEWLINES.sub(" ", text).strip()


def bold(inner: Safe, markup: str) -> Safe:
    if markup == "bbcode":
        return Safe(f"[b]{inner}[/b]")
    if markup == "markdown":
        return Safe(f"**{inner}**") if str(inner) else inner
    if markup == "html":
        return Safe(f"<strong>{inner}</strong>")
    return inner


def italic(inner: Safe, markup: str) -> Safe:
    if markup == "bbcode":
        return Safe(f"[i]{inner}[/i]")
    if markup == "markdown":
        return Safe(f"*{inner}*") if str(inner) else inner
    if markup == "html":
        return Safe(f"<em>{inner}</em>")
    return inner


_URL_KEEP = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "[]()<>\"' `{}|\\^")


def safe_url(url: str | None) -> str:
    """An http(s) URL with every character that could end a link in BBCode or Markdown
    percent-encoded; anything else (javascript:, data:, relative junk) becomes ""."""
    if not url:
        return ""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return ""
    return quote(url, safe=_URL_KEEP)
