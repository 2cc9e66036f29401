"""Text model of a post: what the player wrote themselves, with bold and vote-tag spans.

`post_text(html)` walks the lxml tree once. It drops everything a vote must never come
from: quotes (nested too), spoilers, code, signatures, struck-through and hidden text. It
keeps the positions of bold runs and of vote tags so the vote grammar can ask "is this
phrase bold?". Adapters mark excluded containers with ``data-fm`` (see
`forummod.forum.base.FM_ATTR`); archive files and corpus records are not normalised, so the
raw markup of common engines is recognised as well (phpBB ``blockquote``/``quotecontent``,
vBulletin ``bbcode_quote``, XenForo ``bbCodeBlock--quote``, Discourse ``aside.quote``,
``details`` spoilers, ``div.signature``, ``s``/``del``/``line-through``...). Literal BBCode
left unrendered by a forum (``[b]VOTE: x[/b]``, ``[quote]...[/quote]``) is handled by
`forummod.extract.bbcode` afterwards. The result types live in `forummod.extract.spans`.

Line structure follows the rendering: ``br`` and block elements start a new line, source
newlines inside text are just spaces, and inline ``div``s (MafiaScum renders bold as
``<div style="display:inline;font-weight:bold">``) stay inline.
"""

from __future__ import annotations

import html as htmlmod
import re
import threading
from functools import lru_cache
from typing import NamedTuple

import lxml.etree

from forummod.extract.bbcode import apply_bbcode
from forummod.extract.normalize import INVISIBLE
from forummod.extract.spans import Hidden, PostText, Span, merge_spans
from forummod.markup.depth import MAX_DEPTH as _CAPPED_DEPTH, cap_depth

FM_ATTR = "data-fm"  # same name as forummod.forum.base.FM_ATTR (kept local: extract imports no forum code)
FM_KINDS = frozenset({"quote", "spoiler", "code", "signature"})


# --------------------------------------------------------------------------- markup tables

_BLOCK = frozenset({
    "p", "div", "li", "ul", "ol", "tr", "table", "tbody", "thead", "h1", "h2", "h3", "h4", "h5",
    "h6", "hr", "dd", "dt", "dl", "section", "article", "header", "footer", "center", "fieldset",
    "legend", "figure", "figcaption", "address", "main", "nav", "form", "td", "th", "caption",
})
_DROP = frozenset({"script", "style", "noscript", "template", "head", "title", "iframe", "object",
                   "button", "select", "textarea", "audio", "video"})
_CODE_TAGS = frozenset({"code", "pre", "samp", "xmp", "listing"})
_STRIKE_TAGS = frozenset({"s", "strike", "del"})
_CODE_CLASSES = frozenset({"code", "codebox", "codecontent", "codeblock", "codeheader", "codetitle",
                           "bbcode_code", "bbcodecode", "prettyprint", "highlight-code", "codemain"})
_SIG_CLASSES = frozenset({"sig", "postsig", "post_sig", "post-sig", "signaturecontainer"})
#: Post-body containers some engines build from a blockquote (vBulletin 4, XenForo 1): not quotes.
_CONTAINER_CLASSES = frozenset({"postcontent", "messagetext", "selectquotecontainer", "bbwrapper", "message-body"})
_VOTE_TAG_CLASSES = frozenset({"bbvote", "vote", "votetag", "vote-tag", "bbcode-vote", "bbcode_vote"})
_WS = re.compile(r"[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
#: Where `_WS` would change a text: two spaces, or a space character that is not " ".
_WS_ODD = re.compile(r"[^\S ]|[\u00a0\u2000-\u200a\u202f\u205f\u3000]|  ")
_WROTE = re.compile(r"^\s*(.+?)\s+(?:wrote|said|scrive|ha scritto|писал|писала|пишет|schreef|schrieb|写道|寫道|說|说)\b", re.I)
_MAX_DEPTH = 400


def _style(el) -> str:
    return (el.get("style") or "").lower().replace(" ", "")


def _classes(el) -> list[str]:
    return (el.get("class") or "").lower().split()


def _excluded_kind(el, tag: str, classes: list[str] | None = None, st: str | None = None) -> str | None:
    """Why this element is not the player's own text, or None. (`classes` and `st` are
    `_classes(el)` and `_style(el)` when the caller already has them.)"""
    fm = el.get(FM_ATTR)
    if fm in FM_KINDS:
        return fm
    if classes is None:
        classes = _classes(el)
    if any(c in _CONTAINER_CLASSES for c in classes):
        return None
    if tag in _STRIKE_TAGS:
        return "strike"
    if tag in _CODE_TAGS:
        return "code"
    if tag == "details":
        return "spoiler"
    if tag in _DROP:
        return "hidden"
    for c in classes:
        if "quote" in c and not c.startswith(("js-", "user-action", "u-icon")):
            return "quote"
        if "spoiler" in c or c in ("sp-wrap", "sp-body", "sp-head"):
            return "spoiler"
        if c in _CODE_CLASSES or c.endswith("--code"):
            return "code"
        if "signature" in c or c in _SIG_CLASSES:
            return "signature"
    if tag in ("blockquote", "q") or "quote" in tag:  # and an unknown engine's own <content-quote>
        return "quote"
    if st is None:
        st = _style(el)
    if st:
        if "line-through" in st:
            return "strike"
        if "display:none" in st or "visibility:hidden" in st:
            return "hidden"
    return None


def _bold_state(el, tag: str, st: str | None = None) -> bool | None:
    """True/False when this element sets the weight, None when it inherits."""
    if tag in ("b", "strong"):
        return True
    if st is None:
        st = _style(el)
    if "font-weight:" in st:
        w = st.split("font-weight:", 1)[1].split(";", 1)[0].replace("!important", "")
        if w in ("bold", "bolder") or (w.isdigit() and int(w) >= 600):
            return True
        if w in ("normal", "lighter") or (w.isdigit() and int(w) < 600):
            return False
    return None


def _is_inline_div(el) -> bool:
    st = _style(el)
    return "display:inline" in st


def _quote_author(el) -> str | None:
    a = el.get("data-fm-author")
    if a:
        return a
    for cite in el.iter("cite"):
        m = _WROTE.match(_text_content(cite) or "")
        return (m.group(1) if m else (_text_content(cite) or "").strip()) or None
    return None


# --------------------------------------------------------------------------- builder


class _Builder:
    """Accumulates text with collapsed whitespace and records span offsets."""

    __slots__ = ("parts", "pos", "last", "bold", "bold_start", "bold_spans", "tags", "hidden")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.last = ""
        self.bold = False
        self.bold_start = 0
        self.bold_spans: list[tuple[int, int]] = []
        self.tags: list[Span] = []
        self.hidden: list[Hidden] = []

    def add(self, s: str | None) -> None:
        if not s:
            return
        # most texts have single spaces only: nothing to collapse
        if s.isascii():  # (every invisible character and every odd space but \t\n\v\f\r\x1c-\x1f is outside ASCII)
            if "  " in s or not s.isprintable():  # (those six are not printable, nor is any other control)
                # most such texts are markup's line breaks and indents, alone or around one line
                # of text (XenForo's "<br>\n..."): the runs at the ends, each one space, by strip
                # (its whitespace is \s's), without the regex
                t = s.strip()
                if not t:
                    s = " "
                elif "  " in t or not t.isprintable():
                    s = _WS.sub(" ", s)
                else:  # (t is shorter than s: s had a run to collapse, and it is not inside t)
                    s = (" " + t if s[0] != t[0] else t) + (" " if s[-1] != t[-1] else "")
        else:
            s = s.translate(INVISIBLE)
            if _WS_ODD.search(s) is not None:
                s = _WS.sub(" ", s)
        if s[:1] == " " and self.last in ("", " ", "\n"):
            s = s[1:]
        if not s:
            return
        self.parts.append(s)
        self.pos += len(s)
        self.last = s[-1]

    def newline(self) -> None:
        if self.last in ("", "\n"):
            return
        if self.last == " ":
            self.parts[-1] = self.parts[-1][:-1]
            self.pos -= 1
        self.parts.append("\n")
        self.pos += 1
        self.last = "\n"

    def set_bold(self, on: bool) -> None:
        if on == self.bold:
            return
        if on:
            self.bold_start = self.pos
        elif self.pos > self.bold_start:
            self.bold_spans.append((self.bold_start, self.pos))
        self.bold = on

    def result(self) -> PostText:
        self.set_bold(False)
        text = "".join(self.parts)
        text = text.rstrip(" \n")
        n = len(text)
        bold = merge_spans((min(s, n), min(e, n)) for s, e in self.bold_spans) if self.bold_spans else ()
        tags = tuple(Span(min(t.start, n), min(t.end, n), t.kind) for t in self.tags if min(t.end, n) > t.start) \
            if self.tags else ()
        return PostText(text, bold, tags, tuple(self.hidden))


def _walk(el, b: _Builder, depth: int) -> None:
    tag = el.tag
    if not isinstance(tag, str):  # comment or processing instruction: only its tail is text
        b.add(el.tail)
        return
    tag = tag.lower()
    if depth > _MAX_DEPTH:
        b.add(_text_content(el))
        b.add(el.tail)
        return
    key = (tag, el.get("class"), el.get("style"), el.get(FM_ATTR))
    plan = _PLANS.get(key)
    if plan is None:
        plan = _plan(key, el)
    kind, record, breaks, block, weight, is_tag = plan
    if kind is not None:
        if record:
            b.hidden.append(Hidden(kind, " ".join(_text_content(el).split()),
                                   _quote_author(el) if kind == "quote" else None))
        if breaks:
            b.newline()
        b.add(el.tail)
        return
    if tag == "br":
        b.newline()
        b.add(el.tail)
        return
    if block:
        b.newline()
    saved_bold = b.bold
    if weight is not None:
        b.set_bold(weight)
    tag_start = b.pos
    t = el.text
    if t:
        b.add(t)
    for child in el:
        _walk(child, b, depth + 1)
    if is_tag and b.pos > tag_start:
        title = (el.get("title") or "").lower()
        b.tags.append(Span(tag_start, b.pos, "unvote" if "unvote" in title else "vote"))
    if weight is not None:
        b.set_bold(saved_bold)
    if block:
        b.newline()
    t = el.tail
    if t:
        b.add(t)


class _Plan(NamedTuple):
    """How `_walk` reads an element: what `_excluded_kind`, `_bold_state` and the block and
    vote-tag tests say of its tag, class, style and data-fm (none of them reads anything else)."""

    kind: str | None  # why it is left out (None: read)
    record: bool  # left out: kept as `Hidden` (not a script, style... dropped outright)
    breaks: bool  # left out: a line break in its place
    block: bool  # read: starts and ends a line
    weight: bool | None  # read: bold on or off (None: inherited)
    is_tag: bool  # read: a vote tag


#: Plans by (tag, class, style, data-fm): pages repeat the same few markups.
_PLANS: dict[tuple, _Plan] = {}


def _plan(key: tuple, el) -> _Plan:
    tag, cls, sty, _ = key
    classes = cls.lower().split() if cls else []
    st = sty.lower().replace(" ", "") if sty else ""
    kind = _excluded_kind(el, tag, classes, st)  # (reads the element's data-fm only: key[3])
    if kind is not None:
        plan = _Plan(kind, kind != "hidden" or tag not in _DROP,
                     tag in _BLOCK or tag == "blockquote" or kind in ("quote", "spoiler", "code", "signature"),
                     False, None, False)
    else:
        plan = _Plan(None, False, False, tag in _BLOCK and not (tag == "div" and "display:inline" in st),
                     _bold_state(el, tag, st), bool(classes) and not _VOTE_TAG_CLASSES.isdisjoint(classes))
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    _PLANS[key] = plan
    return plan


def _entities(text: str) -> str:
    """HTML entities decoded (`&amp;` is "&"): the parser does it for a body with elements, and a
    PM quoted in a GM note must not show "&amp;", nor "&amp;amp;" once escaped for Markdown."""
    return htmlmod.unescape(text) if "&" in text else text


def _from_plain(text: str) -> PostText:
    lines = [_WS.sub(" ", ln.translate(INVISIBLE)).strip() for ln in text.splitlines()]
    return PostText("\n".join(ln for ln in lines if ln))


# The tree is only read here, so it is parsed with lxml's plain element classes: lxml.html's
# classes are looked up in Python for every element touched, which cost more than the walk.
_text_content = lxml.etree.XPath("string()")  # what lxml.html's HtmlElement.text_content() is
_FULL_HTML = re.compile(r"^\s*<(?:html|!doctype)", re.I)  # lxml.html's test for a whole document
_PARSERS = threading.local()
_DEPTH_ERRORS = [lxml.etree.ErrorTypes.ERR_RESOURCE_LIMIT]
#: With no more "<" than this, `cap_depth` returns the text as it is and a second parse would build
#: the same tree: the parser's error log (which reading copies) is not read.
_DEPTH_CAP = _CAPPED_DEPTH


def _body(html: str):
    """The ``body`` of `html` parsed as `lxml.html.fragments_fromstring` parses it (the same
    parser settings, wrapping and errors) with plain elements; None for a document without one."""
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = lxml.etree.HTMLParser()
    if not _FULL_HTML.match(html):
        html = "<html><body>%s</body></html>" % html
    doc = lxml.etree.fromstring(html, parser)
    if html.count("<") > _DEPTH_CAP and parser.error_log.filter_types(_DEPTH_ERRORS):
        # libxml2 stopped at its nesting limit and dropped the rest: parse again with deep tags capped
        doc = lxml.etree.fromstring(cap_depth(html), parser)
    if doc is None:
        raise lxml.etree.ParserError("Document is empty")
    assert doc.tag == "html"
    for e in doc:
        if e.tag == "body":
            return e
    return None  # a "document" with a head only ("<!DOCTYPE><script>"): no visible text


def _parts(body) -> list:
    """The body's leading text, if any, then its elements (`lxml.html.fragments_fromstring`)."""
    if body is None:
        return []
    parts: list = [body.text] if body.text and body.text.strip() else []
    parts.extend(body)
    return parts


def _fragments(html: str) -> list:
    """`lxml.html.fragments_fromstring(html)` with plain elements."""
    return _parts(_body(html))


def post_text(html: str) -> PostText:
    """The text model of one post or PM body (HTML, or plain text when it has no tags).

    Recent bodies are remembered (the model is immutable): the checks read again posts that
    extraction has just read, and a recount reads the same posts as the one before."""
    if isinstance(html, str) and len(html) <= _CACHED_LEN:
        return _remembered(html)
    return _post_text(html)


_CACHED_LEN = 100_000  # a 5 MB post is read each time rather than kept


def read_post_text(html: str) -> PostText:
    """`post_text(html)`, not remembered: extraction reads each body once (its results are
    remembered instead), so a first recount of 50,000 posts keeps none of their models."""
    return _post_text(html)


def _post_text(html: str) -> PostText:
    if not html or not html.strip():
        return PostText("")
    if "<" not in html:  # no element: its entities are still HTML's ("Tom &amp; Jerry", a one-line
        pt = _from_plain(_entities(html))  # body written from BBCode or text), read as a parser reads them
    else:
        try:
            parts = _fragments(html)
        except (lxml.etree.ParserError, ValueError):
            pt = _from_plain(_entities(re.sub(r"<[^>]*>", " ", html)))
        else:
            return _from_parts(parts)
    return apply_bbcode(pt)


def _from_parts(parts: list) -> PostText:
    b = _Builder()
    if parts and isinstance(parts[0], str):
        b.add(parts[0])
        parts = parts[1:]
    for child in parts:
        _walk(child, b, 1)
    return apply_bbcode(b.result())


_remembered = lru_cache(maxsize=20_000)(_post_text)
