"""The profile-driven HTML parser: thread pages, inbox pages and message pages to records.

Everything here is pure (text in, records out; `now` is a parameter) and runs on lxml with
selectors compiled once per profile, because a poll of a long game parses many pages.
A page that yields no posts is a `LayoutChanged`, never an empty success.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any, Iterable, Iterator, Mapping, Sequence
from urllib.parse import parse_qsl, urljoin, urlsplit

import lxml.html
from lxml import etree

from forummod.errors import LayoutChanged
from forummod.forum.base import FM_ATTR, ParsedPage
from forummod.forum.date_memo import DateShapes
from forummod.forum.date_precision import imprecision, out_of_order
from forummod.forum.dates import DateNotUnderstood, parse_attr_value, parse_forum_date
from forummod.forum.page_css import any_ancestor, visible_posts
from forummod.forum.page_links import (  # noqa: F401 (first_page_url, thread_id_of: the adapters import them here)
    Verdicts,
    first_page_url,
    has_thread_id,
    identity,
    nearest_block_identities,
    own_identities,
    thread_id_of,
    title_identities,
    usable_href,
)
from forummod.forum.profile import Extractor, Fields, Profile, loose_test, probe_of
from forummod.markup.depth import MAX_DEPTH, cap_depth  # noqa: F401 (archive, discourse and tests use them)
from forummod.adapter_records import RawMessage, RawPost
from forummod.model import Issue

_XML_DECL = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")


def parse_html(text: str | bytes, *, lean: bool = False, utf8: bytes | None = None, ids: bool = True) -> Any:
    """An lxml root for a page (tolerant of XML declarations and stray bytes).

    `lean`: every element is a plain `HtmlElement` (lxml.html gives <form>, <input>, <select>,
    <textarea> and <label> their own classes, through a lookup written in Python that runs for
    every element object lxml hands out). Reading posts needs none of those classes' methods,
    and the Python lookup was about a third of the cost of an XPath on a post; login and
    posting code, which fills forms, keeps the default. A lean parse also hands libxml2 the
    text's UTF-8 bytes (`utf8`, when the caller has them, else encoded here), which it reads
    without the conversion a Python string needs (UCS-2/UCS-4 for any page with a character
    beyond Latin-1): the same tree. `ids=False` (lean only): libxml2 keeps no table of id
    attributes, which only XPath's `id()` reads (4-7% of a page's parse)."""
    if isinstance(text, bytes):
        from forummod.forum.http import decode_body

        text = decode_body(text, None)
    decl = _XML_DECL.match(text)  # = _XML_DECL.sub("", text, count=1): the pattern is anchored at ^
    if decl:
        text, utf8 = text[decl.end():], None
    if not text or text.isspace():  # = not text.strip(), without copying a whole page that ends in a newline
        text, utf8 = "<html></html>", None
    source: str | bytes = text
    if lean and not _HAS_XML_ENCODING(text):  # lxml refuses such a string (ValueError, handled below)
        if utf8 is None:
            try:
                utf8 = text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: libxml2 gets the string as before
                utf8 = None
        if utf8 is not None:
            source = utf8
    try:
        parser = _html_parser(lean, utf8=source is not text, ids=ids or not lean)
        root = lxml.html.document_fromstring(source, parser=parser)
        if not parser.error_log.filter_types(_DEPTH_ERRORS):
            return root
        # libxml2 stopped at its depth limit (and said so): parse again with deep elements capped.
        # Measuring every page's depth in Python first would cost more than parsing it.
        return lxml.html.document_fromstring(cap_depth(text))
    except (etree.ParserError, ValueError):
        return lxml.html.document_fromstring("<html><body></body></html>")


# lxml's own test for a string it will not parse (lxml/apihelpers.pxi, __RE_XML_ENCODING)
_HAS_XML_ENCODING = re.compile(r'^(<\?xml[^>]+)\s+encoding\s*=\s*["\'][^"\']*["\'](\s*\?>|)', re.U).match
_DEPTH_ERRORS = [etree.ErrorTypes.ERR_RESOURCE_LIMIT]
_PARSERS = threading.local()


def _html_parser(lean: bool = False, utf8: bool = False, ids: bool = True) -> Any:
    """lxml.html's parser (or the lean one, see `parse_html`; `utf8`: for UTF-8 bytes; `ids`:
    with the id table), one per thread and kind (its error log tells whether the depth limit
    was hit)."""
    name = (("lean_utf8" if utf8 else "lean") + ("" if ids else "_noids")) if lean else "parser"
    p = getattr(_PARSERS, name, None)
    if p is None:
        kw: dict[str, Any] = {} if ids else {"collect_ids": False}
        p = lxml.html.HTMLParser(encoding="utf-8", **kw) if utf8 else lxml.html.HTMLParser(**kw)
        if lean:
            p.set_element_class_lookup(etree.ElementDefaultClassLookup(
                element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
                pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
        setattr(_PARSERS, name, p)
    return p


#: Caches keyed by the identity of profile data (the key's object is kept in the value, so its
#: id stays its own). Profiles live as long as the process, but a daemon's config reload makes
#: new ones: each cache is emptied when it reaches this size, so it never grows without end.
_ID_CACHE_MAX = 256


def _remember(cache: dict[int, Any], obj: Any, value: tuple) -> tuple:
    if len(cache) >= _ID_CACHE_MAX:
        cache.clear()
    cache[id(obj)] = value
    return value


_READS_IDS: dict[int, tuple[Any, bool]] = {}
_ID_CALL = re.compile(r"(?<![\w.-])id\s*\(").search  # XPath's id(...), not a name ending in "id" ("pid(" of a regex)


def _reads_ids(profile: Profile) -> bool:
    """Whether any text of the profile could call XPath's `id()` (a raw XPath selector of a
    user's profile might): only then does a thread page's parse keep libxml2's id table."""
    hit = _READS_IDS.get(id(profile.raw))
    if hit is None or hit[0] is not profile.raw:
        def texts(v: Any) -> Iterable[str]:
            if isinstance(v, str):
                yield v
            elif isinstance(v, Mapping):
                for x in v.values():
                    yield from texts(x)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    yield from texts(x)
        hit = _remember(_READS_IDS, profile.raw, (profile.raw, any(_ID_CALL(t) for t in texts(profile.raw))))
    return hit[1]


def first(extractors: Sequence[Extractor], el: Any) -> str | None:
    for ex in extractors:
        v = ex.first(el)
        if v:
            return v
    return None


class _Sticky:
    """Ordered fallbacks that try first the extractor that worked on the previous post:
    posts of one page share a layout, so long fallback lists cost one XPath per post."""

    __slots__ = ("extractors", "best")

    def __init__(self, extractors: Sequence[Extractor]):
        self.extractors = tuple(extractors)
        self.best = 0

    def order(self) -> Iterable[tuple[int, Extractor]]:
        if self.extractors:
            yield self.best, self.extractors[self.best]
        for i, ex in enumerate(self.extractors):
            if i != self.best:
                yield i, ex

    def first(self, el: Any) -> str | None:
        exs, best = self.extractors, self.best
        if not exs:
            return None
        v = exs[best].first(el)  # the order() walk written out: this runs for every field of every post
        if v:
            return v
        for i, ex in enumerate(exs):
            if i != best:
                v = ex.first(el)
                if v:
                    self.best = i
                    return v
        return None

    def first_element(self, el: Any) -> Any | None:
        exs, best = self.extractors, self.best
        if not exs:
            return None
        found = exs[best].elements(el)
        if found:
            return found[0]
        for i, ex in enumerate(exs):
            if i != best:
                found = ex.elements(el)
                if found:
                    self.best = i
                    return found[0]
        return None


def first_element(extractors: Sequence[Extractor], el: Any) -> Any | None:
    for ex in extractors:
        found = ex.elements(el)
        if found:
            return found[0]
    return None


def all_elements(extractors: Sequence[Extractor], el: Any) -> tuple[list[Any], Extractor | None]:
    """Elements of the first extractor that finds any (ordered fallbacks)."""
    for ex in extractors:
        found = ex.elements(el)
        if found:
            return found, ex
    return [], None


def _maybe_found(probe: Any, el: Any) -> bool:
    """False only when `probe` (see `profile.probe_of`) proves its extractors find nothing in `el`."""
    if probe is None:
        return True
    try:
        return bool(probe(el))
    except etree.XPathError:
        return True


_EDIT_PROBES: dict[int, tuple[Fields, Any]] = {}


def _edits_probe(f: Fields) -> Any:
    """`probe_of` the edit-mark selectors of `f` (edit time, then edit mark), built once per
    `Fields`. Keyed by the Fields, not by the tuple `f.edited_at + f.edited`: that sum is a new
    tuple at every page, so a cache keyed by its id grew by one entry a page (issue 34)."""
    hit = _EDIT_PROBES.get(id(f))
    if hit is None or hit[0] is not f:
        hit = _remember(_EDIT_PROBES, f, (f, probe_of(f.edited_at + f.edited)))
    return hit[1]


class _TagsOnPage:
    """Which element names a page has, told by libxml2's name dictionary: lxml's `iter(tag)`
    looks a tag up in the document's dictionary first and yields nothing at once when the
    parser never met the name (about 1 us), else walks to its first element. A selector
    alternative needing a tag the page lacks finds nothing anywhere on it, so a list of fallbacks
    tried on every post (the dates) loses it for the page: the same values, one XPath less."""

    __slots__ = ("root", "seen", "found")

    def __init__(self, root: Any):
        self.root = root
        self.seen: dict[str, bool] = {}
        self.found: dict[int, tuple[Extractor, bool]] = {}  # id(extractor) -> (it, may_find)

    def has(self, tag: str) -> bool:
        hit = self.seen.get(tag)
        if hit is None:
            hit = self.seen[tag] = next(self.root.iter(tag), None) is not None
        return hit

    def may_find(self, ex: Extractor) -> bool:
        """False only when every alternative of `ex` needs a tag the page does not have."""
        if ex.tags is None:
            return True
        hit = self.found.get(id(ex))
        if hit is None or hit[0] is not ex:
            hit = self.found[id(ex)] = (ex, any(all(self.has(t) for t in alt) for alt in ex.tags))
        return hit[1]


def _sources(extractors: Sequence[Extractor]) -> str:
    return " | ".join(e.source for e in extractors) or "(none)"


def text_of(el: Any) -> str:
    return " ".join(el.text_content().split())


def text_without_marks(html: str) -> str:
    """Plain text of a normalised body without its quotes, spoilers, code and signatures."""
    frag = lxml.html.fragment_fromstring(html, create_parent="div")
    for bad in frag.xpath(f".//*[@{FM_ATTR}]"):
        parent = bad.getparent()
        if parent is not None:
            bad.drop_tree()
    for br in frag.iter("br"):
        br.tail = "\n" + (br.tail or "")
    for blk in frag.iter("p", "div", "li", "blockquote"):
        blk.tail = "\n" + (blk.tail or "")
    text = frag.text_content()
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- dates


@dataclass(frozen=True)
class DateContext:
    tz: tzinfo
    now: datetime
    order: str = "DMY"
    formats: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()


class DateMemo:
    """What the posts read so far taught about this page's dates: once one date was read
    without dateparser the page's format is known, so dateparser (slow) is not tried on the
    others; a strptime format that worked is tried first on the next post."""

    __slots__ = ("known", "formats", "shapes")

    def __init__(self, formats: tuple[str, ...] = (), shapes: DateShapes | None = None):
        self.known = False
        self.formats = formats
        self.shapes = shapes if not formats else None  # learnt shapes (date_memo) where no format is given

    def worked(self, text: str) -> None:
        self.known = True
        if len(self.formats) > 1:
            for i, fmt in enumerate(self.formats):
                try:
                    datetime.strptime(" ".join(text.split()), fmt)
                except ValueError:
                    continue
                if i:
                    self.formats = (fmt, *self.formats[:i], *self.formats[i + 1:])
                return


def read_date(extractors: Sequence[Extractor], el: Any, ctx: DateContext, memo: DateMemo | None = None,
              seen: list[tuple[str, bool]] | None = None) -> datetime | None:
    """The first date any extractor yields: attributes as ISO/Unix, text via the tolerant parser,
    dateparser only when nothing else understood any candidate (and never on a page whose
    format an earlier post showed, see `DateMemo`). `seen` gets the value read and whether it
    was a machine-readable attribute (for `date_precision`)."""
    texts: list[str] = []
    formats = memo.formats if memo is not None else ctx.formats
    shapes = memo.shapes if memo is not None else None
    for ex in extractors:
        for v in ex.values(el):
            if ex.attr:
                dt = parse_attr_value(v, ctx.tz)
                if dt is not None:
                    if seen is not None:
                        seen.append((v, True))
                    return dt
            if seen is not None:
                seen.append((v, False))
            if shapes is not None:
                dt = shapes.read(v)  # the shape of an earlier post's date: one regex, not the whole parser
                if dt is not None:
                    return dt
            try:
                dt = parse_forum_date(v, tz=ctx.tz, now=ctx.now, order=ctx.order, formats=formats,
                                      languages=ctx.languages, allow_dateparser=False)
            except DateNotUnderstood:
                texts.append(v)
                if seen is not None:
                    seen.pop()
            else:
                if memo is not None and (not memo.known or len(formats) > 1):
                    memo.worked(v)
                if shapes is not None:
                    shapes.learn(v, dt)
                return dt
            break  # one value per extractor: the first match is the one the profile meant
    if memo is not None and memo.known:
        return None
    for v in texts[:1]:
        try:
            dt = parse_forum_date(v, tz=ctx.tz, now=ctx.now, order=ctx.order, formats=formats,
                                  languages=ctx.languages, allow_dateparser=True)
        except DateNotUnderstood:
            pass
        else:
            if seen is not None:
                seen.append((v, False))
            return dt
    return None


def date_context(profile: Profile, tz: tzinfo, now: datetime) -> DateContext:
    return DateContext(tz=tz, now=now, order=profile.date_order, formats=profile.date_formats,
                       languages=profile.languages)


def _page_date_context(profile: Profile, root: Any, html: str, tz: tzinfo, now: datetime, url: str,
                       issues: list[Issue], utf8: bytes | None = None) -> DateContext:
    """Dates as the page itself prints them: day/month order and month names from its `lang`
    (unless the profile pins them), its stated zone before the configured one (a GM is told
    when they differ: a wrong zone must never pass silently)."""
    from forummod.forum.page_locale import order_for, read_page_locale, same_offset

    loc = read_page_locale(root, html if isinstance(html, str) else "", utf8 if isinstance(html, str) else None)
    order = profile.date_order if profile.date_pinned else order_for(loc.lang, loc.region, profile.date_order)
    languages = profile.languages
    if loc.lang and loc.lang not in languages:
        languages = (loc.lang, *languages)
    zone = tz
    if loc.zone is not None:
        if not same_offset(loc.zone, tz, now):
            issues.append(Issue("zone_differs", f"the forum says its times are {loc.zone_text}, but the site's "
                                f"timezone is {getattr(tz, 'key', None) or tz}: reading them in {loc.zone_text}; "
                                f"set the site's timezone to the forum's", severity="warning", details=url))
            zone = loc.zone
        elif isinstance(loc.zone, tzinfo) and hasattr(loc.zone, "key"):
            zone = loc.zone  # the IANA name knows summer time; an equal offset today may differ in winter
    return DateContext(tz=zone, now=now, order=order, formats=profile.date_formats, languages=languages)


def saved_page_clock(profile: Profile, html: str | bytes, *, tz: tzinfo, now: datetime) -> datetime | None:
    """The moment a saved page says it was made (`page_clock.stated_clock`), read in the page's
    own date order, languages and stated zone; None when it says none."""
    from forummod.forum.page_clock import stated_clock

    utf8: bytes | None = None
    if isinstance(html, bytes):
        from forummod.forum.http import decode_utf8_body

        html, utf8 = decode_utf8_body(html)
    root = parse_html(html, lean=True, utf8=utf8)
    return stated_clock(root, ctx=_page_date_context(profile, root, html, tz, now, "", [], utf8))


# --------------------------------------------------------------------------- bodies


def normalise_body(profile: Profile, body: Any) -> str:
    """Mark quotes/spoilers/code/signatures with data-fm (and quote authors), drop clutter,
    and return the body's HTML. Mutates `body`, which belongs to a tree parsed for this call."""
    hits = _probe_hits(_body_probe(profile), body)  # the first elements any selector needs
    if hits is not None and not hits:  # most posts hold no quote, spoiler or code
        return _body_html(body)
    tags = {hit.tag for hit in hits} if hits is not None else None
    for ex in profile.remove:
        if not _may_match(ex, tags, hits):
            continue
        for el in ex.elements(body):
            if el is not body and el.getparent() is not None:
                el.drop_tree()
    for mark in profile.marks:
        if not _may_match(mark.selector, tags, hits):
            continue
        for el in mark.selector.elements(body):
            if el.get(FM_ATTR):
                continue
            el.set(FM_ATTR, mark.kind)
            author = first(mark.author, el) if mark.author else None
            if mark.header is not None:
                prev = _element_before(el)
                if prev is not None and mark.header(prev):
                    prev.set(FM_ATTR, mark.kind)
                    if author is None and mark.author_from_header is not None:
                        m = mark.author_from_header.search(text_of(prev))
                        if m:
                            author = m.group(1).strip()
            if author and mark.kind == "quote":
                if mark.author_from_header is not None and not mark.header:
                    m = mark.author_from_header.search(author)
                    author = m.group(1).strip() if m else author
                el.set("data-fm-author", author)
    return _body_html(body)


def _element_before(el: Any) -> Any:
    """The element just before `el`, past comments and processing instructions (invisible on
    the page; lxml refuses an XPath on them), or None."""
    for sib in el.itersiblings(preceding=True):
        if isinstance(sib.tag, str):
            return sib
    return None


def _body_html(body: Any) -> str:
    """`lxml.html.tostring(body, encoding="unicode", with_tail=False)`, whose only addition to
    etree's serialisation is dropping `<meta http-equiv="Content-Type"...>` tags: done only
    when the text has one."""
    html = etree.tostring(body, method="html", encoding="unicode", with_tail=False)
    if '<meta http-equiv="Content-Type"' in html:
        return lxml.html.tostring(body, encoding="unicode", with_tail=False)
    return html


def _probe_hits(probe: Any, el: Any) -> list[Any] | None:
    """What `probe` finds below `el` (None: no probe, anything may match)."""
    if probe is None:
        return None
    try:
        hits = probe(el)
    except (etree.XPathError, AttributeError, TypeError):  # a raw XPath probe that gave no node-set
        return None
    if not isinstance(hits, list) or not all(hasattr(hit, "tag") for hit in hits):
        return None
    return hits


def _may_match(ex: Extractor, tags: set[Any] | None, hits: list[Any] | None = None) -> bool:
    """False when `ex` cannot match: no probe hit is an element its first compound's loose
    condition accepts (every element meeting any selector's loose condition is among the hits,
    which were taken before any removal). A condition `loose_test` cannot write in Python falls
    back to the tag alone; a raw XPath (no element) may always match."""
    if tags is None or ex.probe is None:
        return True
    tests = _loose_tests(ex)
    for element, test in tests:
        if not element:  # a raw XPath, among the probe's own branches: its matches are hits
            if test is None or test in tags:
                return True
            continue
        if test is None:
            if element == "*" or element in tags:
                return True
            continue
        for hit in hits or ():
            if (element == "*" and isinstance(hit.tag, str) or hit.tag == element) and test(hit):
                return True
    return False


_LOOSE_TESTS: dict[int, tuple[Extractor, tuple[tuple[str, Any], ...]]] = {}


def _loose_tests(ex: Extractor) -> tuple[tuple[str, Any], ...]:
    """(element, `loose_test` of its condition or None) for each step of `ex.probe`, once per extractor."""
    hit = _LOOSE_TESTS.get(id(ex))
    if hit is None or hit[0] is not ex:
        hit = _remember(_LOOSE_TESTS, ex, (ex, tuple((element, loose_test(cond) if element else _raw_result_tag(cond))
                                                     for element, cond in ex.probe or ())))
    return hit[1]


_RAW_STEP = re.compile(r"\.//([A-Za-z][\w-]*)")


def _raw_result_tag(xpath: str) -> str | None:
    """The tag of every node a raw XPath `.//E[...]...[...]` selects (its one step's predicates
    run to the end: phpBB's `.//table[.//span[...]/b[...]]`), else None."""
    m = _RAW_STEP.match(xpath)
    if m is None:
        return None
    depth, quote, k = 0, "", m.end()
    for k in range(m.end(), len(xpath)):
        ch = xpath[k]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            return None  # a second step, a union, a function call after the step
    return m.group(1) if depth == 0 and not quote else None


_BODY_PROBES: dict[int, tuple[Any, Any, Any]] = {}


def _body_probe(profile: Profile) -> Any:
    """One XPath for every `remove` and mark selector of a profile (cached per profile data)."""
    key = id(profile.marks)
    hit = _BODY_PROBES.get(key)
    if hit is None or hit[0] is not profile.marks or hit[1] is not profile.remove:
        hit = _remember(_BODY_PROBES, profile.marks, (profile.marks, profile.remove,
                                                      probe_of((*profile.remove, *(m.selector for m in profile.marks)))))
    return hit[2]


# --------------------------------------------------------------------------- pagination


@dataclass(frozen=True)
class PageInfo:
    current: int | None
    last: int | None
    next_url: str | None
    links: dict[int, str]  # page number -> absolute URL, as the page links them
    per_page: int | None  # learned from offset links


def page_of_url(profile: Profile, url: str, per_page: int | None = None) -> int | None:
    """The page number a URL asks for, if the profile knows how pages are written."""
    p = profile.pagination
    if p.kind == "offset":
        off = _offset_of(profile, url)
        if off is None:
            return None
        if off == 0:
            return 1
        return (off // per_page) + 1 if per_page else None
    if p.path_regex:
        m = re.search(p.path_regex, url)
        if m:
            return int(next(g for g in m.groups() if g) if m.groups() else m.group(0))
    if p.param:
        q = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
        if p.param in q:
            v = _DIGITS.search(q[p.param])
            if v:
                return int(v.group(0))
    return None


def _offset_of(profile: Profile, url: str) -> int | None:
    """Index of the first post a URL asks for (offset-style engines: phpBB start=, SMF topic=N.15)."""
    p = profile.pagination
    if p.kind != "offset":
        return None
    if p.path_regex:
        m = re.search(p.path_regex, url)
        if m:
            return int(next(g for g in m.groups() if g) if m.groups() else m.group(0))
    if p.param:
        q = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
        v = q.get(p.param)
        if v is None:
            return 0
        m = _DIGITS.search(v)
        return int(m.group(0)) if m else None
    return 0 if p.path_regex else None


class _PageScope:
    """Whole-page lookups that share the search for their first element: every pagination
    selector of phpBB starts at `div.pagination`, so the page is searched once for that and
    each selector only below what was found. `nodes(ex)` equals `ex.nodes(root)`: the chains
    found below the first elements, in document order, are all the chains of the page."""

    MAX_ANCHORS = 8  # more first elements than this: searching below each would cost more

    def __init__(self, root: Any, groups: dict[str, tuple[str, tuple[tuple[str, Any], ...]]] | None = None,
                 on_page: _TagsOnPage | None = None):
        self.root = root
        self.found: dict[str, list[Any]] = {}
        self.groups = groups or {}  # first step -> (one XPath for its group, (first step, test) of each member)
        self.on_page = on_page if on_page is not None else _TagsOnPage(root)

    def nodes(self, ex: Extractor) -> list[Any]:
        if not self.on_page.may_find(ex):  # a tag the page lacks (phpBB's td.nav on prosilver): no walk
            return []
        plan = _scope_plan(ex)
        if plan is None:
            return ex.nodes(self.root)
        first_step, below = plan
        anchors = self.found.get(first_step)
        if anchors is None and first_step in self.groups:  # one walk for every first step on that tag
            union, members = self.groups[first_step]
            hits = _xpath(union)(self.root)
            for step, test in members:
                self.found[step] = [a for a in hits if test(a)]
            anchors = self.found[first_step]
        if anchors is None:
            anchors = self.found[first_step] = _xpath(first_step)(self.root)
        if len(anchors) > self.MAX_ANCHORS:
            return ex.nodes(self.root)
        if len(anchors) == 1:
            return below(anchors[0])
        out: list[Any] = []
        seen: set[int] = set()
        for a in anchors:  # in document order; a nested anchor's chains were found below its ancestor
            for n in below(a):
                if id(n) not in seen:
                    seen.add(id(n))
                    out.append(n)
        return out

    def first(self, extractors: Sequence[Extractor]) -> str | None:
        for ex in extractors:
            v = ex.first_in(self.nodes(ex))
            if v:
                return v
        return None

    def all_elements(self, extractors: Sequence[Extractor]) -> tuple[list[Any], Extractor | None]:
        for ex in extractors:
            found = [el for el in self.nodes(ex) if isinstance(el, etree._Element)] if ex.path is not None \
                else [self.root]
            if found:
                return found, ex
        return [], None


_SCOPE_PLANS: dict[int, tuple[Extractor, tuple[str, Any] | None]] = {}


def _scope_plan(ex: Extractor) -> tuple[str, Any] | None:
    """(XPath of the first element's loose test, the selector as XPath from such an element
    down, itself included), or None for selectors that cannot be split that way."""
    hit = _SCOPE_PLANS.get(id(ex))
    if hit is not None and hit[0] is ex:
        return hit[1]
    plan = None
    src = ex.path.path if ex.path is not None else ""
    if ex.probe is not None and len(ex.probe) == 1 and ex.probe[0][0] and ex.probe[0][1] \
            and src.startswith("descendant::") and " | " not in src:  # a union's later branches would stay below
        element, cond = ex.probe[0]
        try:
            plan = (_first_step(element, cond), etree.XPath("descendant-or-self::" + src[len("descendant::"):],
                                                            regexp=False))  # from CSS: no EXSLT
        except etree.XPathError:
            plan = None
    _remember(_SCOPE_PLANS, ex, (ex, plan))
    return plan


_ATTR_TERM = r"(?:contains\(@([\w.-]+), '[^']+'\)|@([\w.-]+) = '[^']*')"
_ONE_ATTR = re.compile(rf"{_ATTR_TERM}(?: and {_ATTR_TERM})*")


def _first_step(element: str, cond: str) -> str:
    """`descendant::E[cond]`, written `descendant::E/@a[...]/..` when every test of `cond` is on
    one attribute `a` (`contains(@a, 'x')` with x not empty, `@a = 'x'`): the same elements in
    the same order, but libxml2 then reads the attribute once instead of evaluating a predicate
    on every E of the page (`a[@rel = 'next']`: 4x faster on a phpBB page)."""
    m = _ONE_ATTR.fullmatch(cond)
    names = {n for n in (m.groups() if m else ()) if n}
    if len(names) != 1 or len(re.findall(r"@[\w.-]+", cond)) != cond.count(" and ") + 1:
        return f"descendant::{element}[{cond}]"
    (name,) = names
    terms = [t.replace(f"contains(@{name}, ", "contains(., ").replace(f"@{name} = ", ". = ") for t in cond.split(" and ")]
    return f"descendant::{element}/@{name}[{' and '.join(terms)}]/.."


def _attribute_test(cond: str) -> tuple[str, list[str], Any] | None:
    """(attribute, its tests written on `.`, the same test in Python on an element) for a
    condition `_first_step` writes on one attribute; None for any other."""
    m = _ONE_ATTR.fullmatch(cond)
    names = {n for n in (m.groups() if m else ()) if n}
    if len(names) != 1 or len(re.findall(r"@[\w.-]+", cond)) != cond.count(" and ") + 1:
        return None
    (name,) = names
    checks: list[tuple[bool, str]] = []  # (substring test, literal)
    on_attr = []
    for term in cond.split(" and "):
        lit = term[term.index("'") + 1:term.rindex("'")]
        checks.append((term.startswith("contains("), lit))
        on_attr.append(f"contains(., '{lit}')" if term.startswith("contains(") else f". = '{lit}'")

    def test(el: Any) -> bool:
        v = el.get(name)
        return v is not None and all((lit in v) if sub else (v == lit) for sub, lit in checks)
    return name, on_attr, test


_SCOPE_GROUPS: dict[int, tuple[Any, dict[str, tuple[str, tuple[tuple[str, Any], ...]]]]] = {}


def _scope_groups(spec: Any) -> dict[str, tuple[str, tuple[tuple[str, Any], ...]]]:
    """First steps of a pagination spec's selectors on the same tag and attribute, grouped: vBulletin's
    div.pagenav, div.pagination and div.pages are found by one walk over the page's divs and
    told apart in Python by the same test (`contains(@class, 'x')` is `'x' in class`)."""
    hit = _SCOPE_GROUPS.get(id(spec))  # per pagination spec (profiles live as long as the process)
    if hit is not None and hit[0] is spec:
        return hit[1]
    extractors = (*spec.links, *spec.current, *spec.last, *spec.next)
    by_key: dict[tuple[str, str], dict[str, tuple[list[str], Any]]] = {}
    for ex in extractors:
        if _scope_plan(ex) is None or ex.probe is None:
            continue
        element, cond = ex.probe[0]
        t = _attribute_test(cond)
        if t is not None:
            by_key.setdefault((element, t[0]), {})[_scope_plan(ex)[0]] = (t[1], t[2])  # type: ignore[index]
    groups: dict[str, tuple[str, tuple[tuple[str, Any], ...]]] = {}
    for (element, name), steps in by_key.items():
        if len(steps) < 2:
            continue
        union = f"descendant::{element}/@{name}[" + " or ".join(
            "(" + " and ".join(on_attr) + ")" for on_attr, _ in steps.values()) + "]/.."
        members = tuple((step, test) for step, (_, test) in steps.items())
        for step in steps:
            groups[step] = (union, members)
    _remember(_SCOPE_GROUPS, spec, (spec, groups))
    return groups


_XPATHS: dict[str, Any] = {}


def _xpath(expr: str) -> Any:
    x = _XPATHS.get(expr)
    if x is None:
        x = _XPATHS[expr] = etree.XPath(expr, regexp=False)  # our own first steps, from CSS: no EXSLT
    return x


def read_pagination(profile: Profile, root: Any, url: str, on_page: _TagsOnPage | None = None,
                    posts: Sequence[Any] | None = None) -> PageInfo:
    """Page numbers and links of a thread page (current page, last page, next URL), read from
    this thread's own page list only (`page_links`: a board's or another thread's pages on the
    same page are ignored); `on_page`: the page's tag lookups when the caller keeps them for its
    own searches; `posts`: the page's post containers, when the caller has them."""
    p = profile.pagination
    scope = _PageScope(root, _scope_groups(p), on_page)
    resolved: dict[str, tuple[str, int | None, str]] = {}  # href -> (URL, offset, identity): lists repeat links

    def resolve(href: str) -> tuple[str, int | None, str]:
        hit = resolved.get(href)
        if hit is None:
            absu = urljoin(url, href)
            hit = resolved[href] = (absu, _offset_of(profile, absu) if p.kind == "offset" else None,
                                    identity(profile, absu))
        return hit

    def next_values() -> Iterator[str]:  # lazily: the first is usually the one (each selector is a walk)
        for ex in p.next:
            for v in ex.values_in(scope.nodes(ex)):
                if not v.startswith(("#", "javascript")):
                    yield v

    nexts = next_values()
    first_next = next(nexts, None)
    found_links: list[list[Any]] = []  # anchors of each link selector tried, in order
    for ex in p.links:  # as before, the first selector that finds links: the others only if it finds no own one
        found_links.append([a for a in scope.all_elements((ex,))[0] if usable_href(a.get("href"))])
        if found_links[-1]:
            break
    seen_next = [first_next] if first_next else []
    ok = _own_page_lists(profile, root, url, found_links, seen_next, resolve, posts)
    if found_links and not any(resolve(a.get("href"))[2] in ok for a in found_links[-1]) \
            and len(found_links) < len(p.links):
        found_links += [[a for a in scope.all_elements((ex,))[0] if usable_href(a.get("href"))]
                        for ex in p.links[len(found_links):]]
        ok = _own_page_lists(profile, root, url, found_links, seen_next, resolve, posts)
    anchors: list[Any] = []
    refused: list[Any] = []
    for found in found_links:
        mine = [a for a in found if resolve(a.get("href"))[2] in ok]
        refused.extend(a for a in found if resolve(a.get("href"))[2] not in ok)
        if mine:
            anchors = mine
            break
    verdicts = Verdicts(anchors, refused)
    links: dict[int, str] = {}
    offsets: set[int] = set()
    numbered: dict[int, int] = {}  # page number shown -> offset in its link
    for a in anchors:
        absu, off, _ = resolve(a.get("href"))
        if off is not None:
            offsets.add(off)
        txt = text_of(a)
        n = int(txt) if txt.isdigit() else None
        if n is None and p.kind != "offset":
            n = page_of_url(profile, absu)
        if n is not None:
            links.setdefault(n, absu)
            if off:
                numbered.setdefault(n, off)

    def values(extractors: Sequence[Extractor]) -> Iterable[str]:
        for ex in extractors:
            for node in scope.nodes(ex):
                if verdicts.counts(node):
                    v = ex.value_of(node)
                    if v:
                        yield v

    per_page = _per_page(numbered, offsets) or _int_in(next(iter(values(p.per_page_of)), None)) or (p.per_page or None)
    current = None
    cur = next(iter(values(p.current)), None)
    if cur:
        m = _DIGITS.search(cur)
        current = int(m.group(0)) if m else None
    if current is None:
        current = page_of_url(profile, url, per_page)
    if current is None:
        current = 1  # every engine leaves the page indicator out of the first page's URL
    last = None
    for v in values(p.last):
        m = re.findall(r"\d+", v)
        if m:
            last = max(last or 0, int(m[-1]))
    if links:
        last = max(last or 0, max(links))
    if current is not None and (last is None or last < current):
        last = current
    next_url = None
    nxt = first_next if first_next is None or resolve(first_next)[2] in ok else \
        next((v for v in nexts if resolve(v)[2] in ok), None)
    if nxt:
        next_url = urljoin(url, nxt)
    elif current is not None and current + 1 in links:
        next_url = links[current + 1]
    if current is not None and last is not None and current >= last:
        next_url = None
    return PageInfo(current=current, last=last, next_url=next_url, links=links, per_page=per_page)


def _own_page_lists(profile: Profile, root: Any, url: str, found_links: list[list[Any]], next_values: list[str],
                    resolve: Any, posts: Sequence[Any] | None) -> set[str]:
    """The identities (`page_links.identity`) of this thread's page links on the page: the page's
    own (URL, canonical link; its title link when no link carries those), or, where none of them
    gives a thread id, those of the page list nearest the posts."""
    own = own_identities(profile, root, url)
    seen = {resolve(a.get("href"))[2] for found in found_links for a in found}
    seen.update(resolve(v)[2] for v in next_values)
    if seen <= own:
        return own  # the common page: every page link is this thread's
    if not has_thread_id(own) or (not seen & own and has_thread_id(seen)):
        own |= title_identities(profile, root, url)  # the thread the title links, e.g. on a post link's page
    if has_thread_id(own):
        return own
    if posts is None:
        posts = all_elements(profile.posts.container, root)[0]
    candidates = [(a, resolve(a.get("href"))[2]) for found in found_links for a in found]
    return own | nearest_block_identities(candidates, list(posts), root)


# --------------------------------------------------------------------------- thread pages


def _per_page(numbered: dict[int, int], offsets: set[int]) -> int | None:
    """Posts a page from the pager's offset links. A numbered link says it exactly (page n
    starts at offset (n-1)*per_page); the smallest gap between offsets is the fallback, wrong
    on a middle page whose pager skips it ("1 … 4 [5] 6 … 10": the gap 4→6 is two pages)."""
    exact = [off // (n - 1) for n, off in numbered.items() if n > 1 and off % (n - 1) == 0]
    if exact:
        return min(exact)
    positive = sorted(o for o in offsets if o > 0)
    return min(b - a for a, b in zip([0, *positive], positive) if b > a) if positive else None


def _int_in(v: str | None) -> int | None:
    """The first number in a text (None without one)."""
    m = _DIGITS.search(v) if v else None
    return int(m.group(0)) if m else None


def _int(v: str | None) -> int | None:
    if not v:
        return None
    m = _DIGITS.search(v.replace(",", "").replace(".", ""))
    return int(m.group(0)) if m else None


def parse_thread_page(profile: Profile, html: str | bytes, *, url: str, tz: tzinfo, now: datetime,
                      first_number: int | None = None, root: Any = None, clock_known: bool = True) -> ParsedPage:
    """Posts, page numbers and title of one thread page; LayoutChanged when no post is found.
    `clock_known`: `now` is when the page was fetched or saved (False: a saved page read against
    the present, so relative and year-less dates are guesses)."""
    utf8: bytes | None = None  # the page's UTF-8 bytes, when at hand
    if isinstance(html, bytes):
        from forummod.forum.http import decode_utf8_body

        html, utf8 = decode_utf8_body(html)
    if root is None:
        root = parse_html(html, lean=True, utf8=utf8, ids=_reads_ids(profile))
    f = profile.posts
    containers, used = all_elements(f.container, root)
    if not containers:
        raise LayoutChanged(profile.name, url, _sources(f.container), "no post container on the page")
    containers = visible_posts(unnest_posts(containers), root)  # decoys hidden by the page's CSS
    on_page = _TagsOnPage(root)  # shared by the pagination's searches and the date fallbacks
    info = read_pagination(profile, root, url, on_page, containers)
    issues: list[Issue] = []
    ctx = _page_date_context(profile, root, html, tz, now, url, issues, utf8)
    if first_number is None and info.current is not None:
        per = info.per_page or profile.pagination.per_page or None
        off = _offset_of(profile, url)
        # a URL without the offset (a post link `viewtopic.php?p=N`, a saved page) reads as
        # offset 0: the page's own indicator of a later page is then the better witness
        base = profile.pagination.first_number  # the opening post's number as the forum prints it
        if off is not None and profile.pagination.kind == "offset" and (off or info.current == 1):
            first_number = off + base
        elif info.current == 1:
            first_number = base
        elif per:
            first_number = (info.current - 1) * per + base
    posts: list[RawPost] = []
    seen: set[str] = set()
    missing_dates: list[int] = []
    imprecise: dict[int, str] = {}  # post index -> why its printed date lacks the minute
    exact: set[int] = set()  # posts dated by a machine-readable time (threaded replies may run out of order)
    no_author = 0
    f_id, f_author, f_author_id, f_number, f_body = (_Sticky(f.id), _Sticky(f.author), _Sticky(f.author_id),
                                                     _Sticky(f.number), _Sticky(f.body))
    date_order = _Sticky(f.date)
    edits_probe = _edits_probe(f) if (f.edited_at or f.edited) else None
    memo = DateMemo(ctx.formats, DateShapes(ctx.tz, ctx.now))
    # date_order.best never moves: one list a page, less the selectors whose tags the page lacks
    dates_in_order = [ex for _, ex in date_order.order() if on_page.may_find(ex)]
    anchor = urljoin(url, "#_")[:-1]  # = urljoin(url, "#" + pid) less the id, computed once a page
    for el in containers:
        if f.skip and any(ex.elements(el) for ex in f.skip):
            continue
        pid = f_id.first(el)
        if not pid or pid in seen:
            continue  # ads and duplicated anchors carry no (new) post id
        seen.add(pid)
        author = f_author.first(el) or ""
        if not author:
            no_author += 1
        printed: list[tuple[str, bool]] | None = [] if profile.date_flag_imprecise else None
        created = read_date(dates_in_order, el, ctx, memo, printed)
        if created is None and not author and profile.need_author_or_date:
            no_author -= 1
            continue
        if created is None:
            missing_dates.append(len(posts))
        elif printed:
            why = imprecision(printed[-1][0], created.astimezone(ctx.tz), from_attr=printed[-1][1],
                              clock_known=clock_known, languages=ctx.languages,
                              order_known=profile.date_pinned or bool(ctx.languages))
            if why:
                imprecise[len(posts)] = why
            elif printed[-1][1]:
                exact.add(len(posts))
        if _maybe_found(edits_probe, el):
            edited_at = read_date(f.edited_at, el, ctx) if f.edited_at else None
            edited = bool(edited_at) or any(ex.elements(el) for ex in f.edited)
        else:  # no edit mark anywhere in the post: every edited/edited_at selector would miss
            edited_at, edited = None, False
        number = _int(f_number.first(el))
        if number is None and first_number is not None:
            number = first_number + len(posts)
        body = f_body.first_element(el)
        if body is None:
            issues.append(Issue("post_without_body", f"post {pid}: no body matched {_sources(f.body)}",
                                severity="warning", details=url))
            html_body = ""
        else:
            html_body = normalise_body(profile, body)
        posts.append(RawPost(post_id=pid, author=author, created_at=created or now, html=html_body,
                             number=number, author_id=f_author_id.first(el), edited_at=edited_at,
                             edited=edited, page=info.current, url=anchor + (el.get("id") or pid)))
    if not posts:
        raise LayoutChanged(profile.name, url, _sources(f.id),
                            f"{len(containers)} post containers ({used.source if used else '?'}) but no post id")
    if no_author == len(posts):
        issues.append(Issue("author_unreadable", f"no post author found on the page ({_sources(f.author)}); "
                            "the posts are kept without authors", severity="warning", details=url))
    if missing_dates:
        posts = _bound_missing_dates(posts, set(missing_dates), now, _sources(f.date), url, issues)
    if profile.date_flag_imprecise:
        dated = [i for i in range(len(posts)) if i not in missing_dates and i not in exact]
        for j, why in out_of_order([posts[i].created_at for i in dated], now).items():
            imprecise.setdefault(dated[j], why)
    if imprecise:
        posts = flag_imprecise(posts, imprecise, url, issues)
    title = first(profile.title_sel, root)
    return ParsedPage(posts=tuple(posts), page=info.current, last_page=info.last, next_url=info.next_url,
                      thread_id=thread_id_of(profile, url), title=title, issues=tuple(issues))


def unnest_posts(containers: list[Any]) -> list[Any]:
    """Post containers moved out of one another, as a browser's HTML5 parser would have built
    them: one unclosed <div> in a post body makes libxml2 keep the post open, so every later
    post is parsed inside it (and the first post's edit mark, date fallbacks and text would be
    read from them). Each nested post is moved to just after the outermost post holding it,
    in page order; shared ancestors are looked at once, nothing moves when nothing is nested."""
    live = {id(c) for c in containers}
    nested = [c for c, inside in zip(containers, any_ancestor(containers, lambda a: id(a) in live)) if inside]
    if not nested:
        return containers
    last_moved: dict[int, Any] = {}
    for c in nested:
        outer = [a for a in c.iterancestors() if id(a) in live][-1]
        anchor = last_moved.get(id(outer), outer)
        anchor.addnext(c)  # lxml moves the element (with its tail) out of the post that swallowed it
        last_moved[id(outer)] = c
    return containers


def flag_imprecise(posts: list[RawPost], why: dict[int, str], url: str, issues: list[Issue]) -> list[RawPost]:
    """Posts whose printed date lacks the minute keep the date read, flagged `date_guessed` and
    told to the GM with the reason: no date is silently wrong."""
    from dataclasses import replace

    out = list(posts)
    for i, reason in sorted(why.items()):
        out[i] = replace(posts[i], date_guessed=True)
        issues.append(Issue("date_imprecise", f"post {posts[i].post_id}: {reason}; kept as "
                            f"{posts[i].created_at:%Y-%m-%d %H:%M} UTC and flagged as guessed: its votes count in "
                            "post order, and a deadline ruling that depends on it is yours",
                            severity="warning", details=url))
    return out


def _bound_missing_dates(posts: list[RawPost], missing: set[int], now: datetime, sources: str, url: str,
                         issues: list[Issue]) -> list[RawPost]:
    """Posts whose date could not be read keep their place: the time of the nearest earlier
    post with a date (they were written after it), else the next one's, else the fetch time,
    flagged `date_guessed` and told to the GM. A page is never refused for a missing date."""
    from dataclasses import replace

    known = [(i, p.created_at) for i, p in enumerate(posts) if i not in missing]
    out = list(posts)
    for i in sorted(missing):
        before = [t for j, t in known if j < i]
        after = [t for j, t in known if j > i]
        when = before[-1] if before else (after[0] if after else now)
        if before and after:
            span = f"between {before[-1]:%Y-%m-%d %H:%M} and {after[0]:%Y-%m-%d %H:%M} UTC"
        elif before or after:
            span = f"{'after' if before else 'before'} {when:%Y-%m-%d %H:%M} UTC"
        else:
            span = f"no post on the page has a readable date; fetched at {now:%Y-%m-%d %H:%M} UTC"
        out[i] = replace(posts[i], created_at=when, date_guessed=True)
        issues.append(Issue("date_unreadable", f"post {posts[i].post_id}: date not readable ({sources}); "
                            f"kept with a guessed time ({span}): its votes count in post order, and a "
                            "deadline ruling that depends on it is yours", severity="warning", details=url))
    return out


# --------------------------------------------------------------------------- whole pages

_DOC_OPEN = re.compile(r"<(?:html|body)[\s>]", re.IGNORECASE)
_DOC_CLOSE = re.compile(r"</(?:html|body)\s*>", re.IGNORECASE)


def page_complete(text: str) -> bool:
    """False for an empty answer or a document that stops before its end (`</body>`/`</html>`):
    a server that dies mid-render sends a well-formed HTTP answer with half a page, and lxml
    would happily parse the posts it has (the last one cut). Fragments (no `<html>`/`<body>`
    near the top) are not judged."""
    if not text.strip():
        return False
    if not _DOC_OPEN.search(text, 0, 16384):
        return True
    return bool(_DOC_CLOSE.search(text, max(0, len(text) - 65536)) or _DOC_CLOSE.search(text))


# --------------------------------------------------------------------------- inbox


@dataclass(frozen=True)
class InboxRow:
    """One line of the inbox list: a message or a conversation."""

    id: str
    url: str
    subject: str = ""
    sender: str = ""
    sender_id: str | None = None
    at: datetime | None = None
    unread: bool = False
    recipients: tuple[str, ...] = ()
    version: str = ""  # changes when a conversation gets a new message (reply count, last date)


def parse_inbox(profile: Profile, html: str | bytes, *, url: str, tz: tzinfo, now: datetime) -> list[InboxRow]:
    """Rows of the inbox page. An empty inbox is legitimate, so no LayoutChanged here."""
    root = parse_html(html)
    spec = profile.inbox
    f = spec.rows
    rows, _ = all_elements(f.container, root)
    ctx = date_context(profile, tz, now)
    out: list[InboxRow] = []
    for el in rows:
        link = first(f.link, el)
        rid = first(f.id, el)
        if not rid and link:
            rid = link
        if not rid:
            continue
        if not link and spec.message_url:
            link = spec.message_url.format(id=rid)
        if not link:
            continue
        recips = tuple(v for ex in f.recipients for v in ex.values(el))
        version = first(f.version, el) or ""
        at = read_date(f.date, el, ctx)
        out.append(InboxRow(id=rid, url=urljoin(url, link), subject=first(f.subject, el) or "",
                            sender=first(f.author, el) or "", sender_id=first(f.author_id, el), at=at,
                            unread=any(ex.elements(el) for ex in f.unread), recipients=recips,
                            version=version or (at.isoformat() if at else "")))
    return out


def parse_message_page(profile: Profile, html: str | bytes, *, url: str, tz: tzinfo, now: datetime,
                       row: InboxRow | None = None, me: str = "") -> list[RawMessage]:
    """Messages on a message or conversation page; LayoutChanged when none is found."""
    root = parse_html(html)
    spec = profile.inbox
    f = spec.page
    containers, _ = all_elements(f.container, root)
    if not containers:
        raise LayoutChanged(profile.name, url, _sources(f.container), "no message on the message page")
    ctx = date_context(profile, tz, now)
    subject = first(spec.page_subject, root) or (row.subject if row else "")
    page_recips = tuple(v for ex in spec.page_recipients for v in ex.values(root))
    conv_id = row.id if row else None
    out: list[RawMessage] = []
    for i, el in enumerate(containers):
        mid = first(f.id, el)
        if not mid:
            mid = row.id if (row and len(containers) == 1) else (f"{conv_id}:{i + 1}" if conv_id else None)
        if not mid:
            continue
        sender = first(f.author, el) or (row.sender if row and len(containers) == 1 else "")
        created = read_date(f.date, el, ctx) or (row.at if row else None)
        if created is None:
            raise LayoutChanged(profile.name, url, _sources(f.date), f"message {mid}: no date")
        body = first_element(f.body, el)
        body_html = normalise_body(profile, body) if body is not None else ""
        recips = tuple(v for ex in f.recipients for v in ex.values(el)) or page_recips
        if not recips and row is not None:
            recips = row.recipients
        participants = set(recips) | ({row.sender} if row and row.sender else set())
        if not recips or set(recips) == {sender}:
            others = tuple(sorted(p for p in participants if p and p != sender))
            recips = others or ((me,) if me and me != sender else ())
        recips = tuple(r for r in dict.fromkeys(recips) if r and r != sender) or recips
        out.append(RawMessage(message_id=str(mid), sender=sender, created_at=created, body_html=body_html,
                              recipients=recips, subject=subject, conversation_id=conv_id,
                              sender_id=first(f.author_id, el), url=url))
    if not out:
        raise LayoutChanged(profile.name, url, _sources(f.id), "message containers without ids")
    return out


def iter_marked(html: str) -> Iterable[tuple[str, str | None]]:
    """(kind, author) of every data-fm element in a body, for tests and debugging."""
    frag = lxml.html.fragment_fromstring(html, create_parent="div")
    for el in frag.xpath(f".//*[@{FM_ATTR}]"):
        yield el.get(FM_ATTR), el.get("data-fm-author")
