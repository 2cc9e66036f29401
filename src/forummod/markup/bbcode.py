"""BBCode to HTML, for archive files written in BBCode and for previewing drafts.

Text is HTML-escaped first, so nothing in the input can become markup except the tags below;
unknown or unbalanced tags stay as literal text. Quotes, spoilers and code come out with the
same `data-fm` marks the forum adapters add, so extraction treats both alike.
"""

from __future__ import annotations

import html
import re

from forummod.markup.bbtags import Loose, Open, Tag, pair, tokenize

_SIMPLE = {"b": "strong", "i": "em", "u": "u", "s": "s", "strike": "s", "sub": "sub", "sup": "sup"}
_BLOCK = {"center": ('<div style="text-align:center">', "</div>"),
          "right": ('<div style="text-align:right">', "</div>"),
          "list": ("<ul>", "</ul>")}
_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,6}|[a-zA-Z]{3,20})$")
_SAFE_URL = re.compile(r"^(https?://|/|#|mailto:)[^\s\"'<>]*$", re.I)
_VERBATIM = frozenset({"code", "noparse"})  # their content is text, tags included


def bbcode_to_html(text: str) -> str:
    """Convert BBCode to safe HTML (newlines become <br>).

    The tags are read by the shared grammar (`markup.bbtags`); an unknown tag, or one whose
    argument is not safe, pairs with nothing and is printed as text, and the tags left open
    (inside a closed one, or at the end) are closed so the HTML stays balanced."""
    out: list[str] = []
    pos = 0
    opened: dict[int, str] = {}  # start of an accepted opening tag -> its HTML

    def opens(tag: Tag) -> bool:
        h = _open(tag.name, tag.arg)
        if h is not None:
            opened[tag.start] = h
        return h is not None

    found, still_open = pair(tokenize(text), opens=opens, verbatim=_VERBATIM)
    for step in found:
        out.append(_text(text[pos:step.tag.start]))
        pos = step.tag.end
        if isinstance(step, Loose):
            out.append(_text(step.tag.raw))
        elif isinstance(step, Open):
            out.append(opened[step.tag.start])
        else:
            out.extend(_close(t) for t in (*step.inner, step.opener))
    out.append(_text(text[pos:]))
    out.extend(_close(t) for t in still_open)
    return "".join(out)


def _text(s: str) -> str:
    return html.escape(s, quote=True).replace("\r\n", "\n").replace("\n", "<br>\n")


def _open(name: str, arg: str | None) -> str | None:
    if name in _SIMPLE:
        return f"<{_SIMPLE[name]}>"
    if name in _BLOCK:
        return _BLOCK[name][0]
    if name == "*":
        return "<li>"
    if name == "quote":
        author = (arg or "").strip().strip('"').split(";")[0].strip()
        attr = f' data-fm-author="{html.escape(author, quote=True)}"' if author else ""
        cite = f"<cite>{html.escape(author)} wrote:</cite>" if author else ""
        return f'<blockquote data-fm="quote"{attr}>{cite}'
    if name == "spoiler":
        title = html.escape(arg.strip()) if arg else "Spoiler"
        return f'<details data-fm="spoiler"><summary>{title}</summary>'
    if name in ("code", "noparse"):
        return '<pre data-fm="code"><code>' if name == "code" else "<span>"
    if name == "url":
        if arg is None:
            return '<a data-bb-url="1">'
        url = arg.strip().strip('"')
        if not _SAFE_URL.match(url):
            return None
        return f'<a href="{html.escape(url, quote=True)}" rel="nofollow noopener">'
    if name == "color" and arg and _COLOR.match(arg.strip()):
        return f'<span style="color:{arg.strip()}">'
    if name == "size" and arg and re.fullmatch(r"\d{1,3}", arg.strip()):
        return f'<span style="font-size:{min(int(arg.strip()), 200)}%">'
    if name == "img":
        return '<span data-bb-img="1">'
    if name == "vote":
        return '<span class="vote" data-fm-vote="1">[vote]'
    return None


def _close(o: Tag) -> str:
    n = o.name
    if n in _SIMPLE:
        return f"</{_SIMPLE[n]}>"
    if n in _BLOCK:
        return _BLOCK[n][1]
    if n == "*":
        return "</li>"
    if n == "quote":
        return "</blockquote>"
    if n == "spoiler":
        return "</details>"
    if n == "code":
        return "</code></pre>"
    if n in ("noparse", "color", "size", "img"):
        return "</span>"
    if n == "url":
        return "</a>"
    if n == "vote":
        return "[/vote]</span>"
    return ""


def finish_links(html_text: str) -> str:
    """Turn `[url]x[/url]` and `[img]x[/img]` bodies into links once their text is known."""
    def url_sub(m: re.Match) -> str:
        target = html.unescape(m.group(1))
        if _SAFE_URL.match(target):
            return f'<a href="{html.escape(target, quote=True)}" rel="nofollow noopener">{m.group(1)}</a>'
        return m.group(1)

    out = re.sub(r'<a data-bb-url="1">(.*?)</a>', url_sub, html_text, flags=re.S)

    def img_sub(m: re.Match) -> str:
        target = html.unescape(m.group(1))
        if _SAFE_URL.match(target):
            return f'<img src="{html.escape(target, quote=True)}" alt="">'
        return m.group(1)

    return re.sub(r'<span data-bb-img="1">(.*?)</span>', img_sub, out, flags=re.S)


def to_html(text: str) -> str:
    return finish_links(bbcode_to_html(text))
