"""Engine profiles: TOML data that tells the HTML engine how one forum engine looks.

A profile names URL patterns, CSS selectors with ordered fallbacks, date habits, pagination,
the login form, inbox and message pages, and the fingerprints that recognise the engine.
Profiles are found on `resources.search_path("adapters", user_dir)`; a user file with the
same `name` as a bundled one replaces it, so a GM fixes or adds a forum without Python.

Extractor syntax (every field takes a list, first hit wins):
  "CSS"                  text of the first match inside the context element
  "CSS @attr"            an attribute of the first match
  "@attr"                an attribute of the context element itself
  "xpath:EXPR"           XPath relative to the context element (same "@attr" suffix rule)
  {css|xpath = ..., attr = ..., regex = ..., own = true}
                         the table form adds a regex (group 1, or the whole match) and `own`
                         (only the element's own text, not its children's)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from cssselect import HTMLTranslator
from cssselect.parser import (
    Attrib, Class, CombinedSelector, Element, Function, Hash, Matching, Negation, Pseudo, SelectorError,
    parse as parse_css,
)
from lxml import etree

from forummod.errors import ConfigError
from forummod.forum_engines import profile_files, profile_name, read_profile_table

_TRANSLATOR = HTMLTranslator()
# Selectors' XPaths are compiled with `regexp=False`: lxml would register EXSLT's regular
# expression functions on every call (a tenth of a post's XPath), and no profile can use them,
# since their `re:` prefix is declared only through a `namespaces` argument, which profiles lack.
# lxml.html's `text_content()` is this XPath (`string()`, with EXSLT regexps and a "smart" string
# result); without either the same text comes back faster: it runs for most fields of every post
_STRING = etree.XPath("string()", regexp=False, smart_strings=False)
FM_KINDS = ("quote", "spoiler", "code", "signature")


@lru_cache(maxsize=4096)
def compile_css(css: str, scope: str = "descendant::") -> etree.XPath:
    """A CSS selector as a compiled XPath, searched below the context element."""
    if css.startswith("xpath:"):
        return etree.XPath(css[6:].strip(), regexp=False)
    plain = _TRANSLATOR.css_to_xpath(css, prefix=scope)
    try:  # regexp=False: see the note above _STRING
        return etree.XPath(class_steps_on_attribute(alternatives_on_attributes(plain)), regexp=False)
    except etree.XPathSyntaxError:  # never expected; the plain form is the meaning
        return etree.XPath(plain, regexp=False)


_STEP_START = re.compile(r"(?:\b(descendant|child|descendant-or-self|following-sibling)::|(?<=/))([\w-]+|\*)\[")  # or E's child F: E/F[
_LITERAL = re.compile(r"'[^']*'|\"[^\"]*\"")


def class_steps_on_attribute(xpath: str) -> str:
    """Steps `E[P]` whose predicate reads only @class and is false without it (cssselect's
    `E[@class and contains(@class, 'x') and contains(concat(' ', normalize-space(@class), ' '),
    ' x ')]`, several classes, `:not(.y)`) written `E/@class[P']/..`, P' being P on the
    attribute node itself: the same elements in the same order, but libxml2 tests one
    attribute node instead of evaluating a predicate that looks @class up again and again on
    every E (about a fifth off a post's `div.content`, two fifths off `*` steps such as
    `.post-signature`). Any other step is left as it is."""
    out, pos = [], 0
    quoted = [lit.span() for lit in _LITERAL.finditer(xpath)]
    for m in _STEP_START.finditer(xpath):
        if m.start() < pos or any(a <= m.start() < b for a, b in quoted):
            continue
        end = _closing_bracket(xpath, m.end())
        if end is None:
            continue
        pred = xpath[m.end():end]
        name = _the_attribute(pred) if re.match(r"\s*(?:/|\||$)", xpath[end + 1:]) else None
        if name is None:
            continue
        axis = f"{m.group(1)}::" if m.group(1) else ""
        out.append(xpath[pos:m.start()] + f"{axis}{m.group(2)}/@{name}[{_on_attribute(pred, name)}]/..")
        pos = end + 1
    return "".join(out) + xpath[pos:]


_ONE_STEP = re.compile(r"descendant::([\w-]+|\*)\[(.*)\]")


def alternatives_on_attributes(xpath: str) -> str:
    """A whole selector `descendant::E[(A) or (B)]` (cssselect's `E:is(.x, [title^='y'])`) whose
    alternatives each read one attribute and are false without it, written as the union
    `descendant::E/@class[A']/.. | descendant::E/@title[B']/..`: the same elements in the same
    order, each walk testing attribute nodes only (phpBB's post number, a quarter off)."""
    m = _ONE_STEP.fullmatch(xpath)
    if m is None or _closing_bracket(xpath, len(m.group(1)) + len("descendant::") + 1) != len(xpath) - 1:
        return xpath
    pred, parts, depth, start = m.group(2), [], 0, 0
    if any("@" in lit or "(" in lit or ")" in lit for lit in _LITERAL.findall(pred)):
        return xpath
    for k, ch in enumerate(pred):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and pred.startswith(" or ", k):
            parts.append(pred[start:k])
            start = k + 4
        elif depth == 0 and pred.startswith(" and ", k):
            return xpath
    parts.append(pred[start:])
    if len(parts) < 2:
        return xpath
    out = []
    for alt in parts:
        alt = alt.strip()
        if not (alt.startswith("(") and _closing_paren(alt) == len(alt) - 1):
            return xpath
        alt = alt[1:-1]
        name = _the_attribute(alt)
        if name is None:
            return xpath
        out.append(f"descendant::{m.group(1)}/@{name}[{_on_attribute(alt, name)}]/..")
    return " | ".join(out)


def _closing_bracket(x: str, i: int) -> int | None:
    """Index of the `]` closing the predicate that starts at `i` (None: nested or unclosed)."""
    quote = None
    for k in range(i, len(x)):
        ch = x[k]
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            return None
        elif ch == "]":
            return k
    return None


_PRED_FUNCS = r"\b(?:and|or|not|contains|concat|normalize-space|starts-with)\b|[()=, ]"


def _the_attribute(pred: str) -> str | None:
    """The one attribute `pred` reads when it reads one only and is false on an element
    without it, with string functions and and/not only at its top (no `or` there), its first
    term being `@a`, `@a = '...'` or `@a and ...` (cssselect's forms): then `pred` on an element with @a
    equals `pred` evaluated on the attribute node with every `@a` written `.`."""
    if any("@" in lit for lit in _LITERAL.findall(pred)):
        return None
    bare = _LITERAL.sub("''", pred)
    names = set(re.findall(r"@([A-Za-z_][\w.-]*)", bare))
    if len(names) != 1:
        return None
    (name,) = names
    if re.sub(rf"@{re.escape(name)}(?![\w.-])|{_PRED_FUNCS}", "", bare.replace("''", "")):
        return None  # some other word, axis, attribute or number
    terms, depth, start = [], 0, 0
    for k, ch in enumerate(bare):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and bare.startswith(" or ", k):
            return None
        if depth == 0 and bare.startswith(" and ", k):
            terms.append(bare[start:k])
            start = k + 5
    terms.append(bare[start:])
    first = terms[0].strip()
    while first.startswith("(") and _closing_paren(first) == len(first) - 1:
        first = first[1:-1].strip()
    ok = first in (f"@{name}", f"@{name} = ''") or (first.startswith(f"@{name} and ") and _no_top_or(first))
    return name if ok else None


def _on_attribute(pred: str, name: str) -> str:
    """`pred` evaluated on the attribute node `name` itself (see `_the_attribute`)."""
    return re.sub(rf"@{re.escape(name)}(?![\w.-])", ".", pred.replace(f"@{name} and ", ""))


def _closing_paren(x: str) -> int:
    depth = 0
    for k, ch in enumerate(x):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return k
    return -1


def _no_top_or(x: str) -> bool:
    depth = 0
    for k, ch in enumerate(x):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and x.startswith(" or ", k):
            return False
    return True


@dataclass(frozen=True)
class Extractor:
    """One way to read one value out of an element."""

    source: str
    path: etree.XPath | None  # None: the context element itself
    attr: str | None = None
    regex: re.Pattern[str] | None = None
    own: bool = False
    # What every match needs below the context: (element, XPath condition) of the leftmost
    # compound of each CSS alternative, or ("", xpath) for a raw XPath itself; None when that
    # cannot be told. `probe_of` joins them, so one cheap XPath proves that a whole list of
    # fallbacks finds nothing.
    probe: tuple[tuple[str, str], ...] | None = None
    # The element names each CSS alternative needs somewhere in the document (every compound's
    # tag), or None when that cannot be told (raw XPath, `:self`, the context itself): an
    # alternative with a tag the page lacks matches nothing there (see `html_engine._TagsOnPage`).
    tags: tuple[frozenset[str], ...] | None = None

    def elements(self, el: Any) -> list[Any]:
        if self.path is None:
            return [el]
        found = self.path(el)
        return [e for e in found if isinstance(e, etree._Element)] if isinstance(found, list) else []

    def _raw(self, node: Any) -> str | None:
        if self.attr:
            v = node.get(self.attr)
            return v if v is not None else None
        if self.own:
            return "".join(t for t in [node.text, *(c.tail for c in node)] if t)
        return _STRING(node) if hasattr(node, "text_content") else "".join(node.itertext())

    def nodes(self, el: Any) -> list[Any]:
        """What the path finds below `el` (XPath string/number results as one string)."""
        if self.path is None:
            return [el]
        found = self.path(el)
        return found if isinstance(found, list) else [str(found)]

    def value_of(self, node: Any) -> str | None:
        """The cleaned value one found node gives ('' or None: it gives none)."""
        raw = node if isinstance(node, str) else self._raw(node)
        if raw is None:
            return None
        if self.regex is not None:
            m = self.regex.search(raw)
            if not m:
                return None
            raw = m.group(1) if m.groups() else m.group(0)
        return " ".join(raw.split())

    def values(self, el: Any) -> Iterable[str]:
        return self.values_in(self.nodes(el))

    def values_in(self, found: list[Any]) -> Iterable[str]:
        for node in found:
            v = self.value_of(node)
            if v:
                yield v

    def first(self, el: Any) -> str | None:
        return self.first_in(self.nodes(el))

    def first_in(self, found: list[Any]) -> str | None:
        for node in found:  # a loop, not the generator: this runs for every field of every post
            v = self.value_of(node)
            if v:
                return v
        return None


def _compile_extractor(spec: Any, where: str) -> Extractor:
    if isinstance(spec, str):
        spec = {"_str": spec}
    if not isinstance(spec, Mapping):
        raise ConfigError(where, f"expected a selector string or table, got {spec!r}")
    attr = spec.get("attr")
    text = spec.get("_str")
    css = spec.get("css")
    xpath = spec.get("xpath")
    if text is not None:
        if text.startswith("xpath:"):
            xpath = text[6:].strip()
        else:
            css = text
        target = xpath if xpath is not None else css
        m = re.match(r"^(.*?)\s*@([\w:-]+)$", target or "")
        if m and (xpath is None or not m.group(1).endswith("/")):
            if xpath is not None:
                pass  # XPath may select attributes itself; keep it as written
            else:
                css, attr = m.group(1), m.group(2)
    regex = spec.get("regex")
    try:
        if xpath is not None:
            path = etree.XPath(xpath, regexp=False)
        elif css in (None, "", ":self"):
            path = None
        elif css.startswith(":self"):  # ":self.unread" tests the context element itself
            path = compile_css("*" + css[5:], scope="self::")
        else:
            path = compile_css(css)
    except (SelectorError, etree.XPathSyntaxError) as e:
        raise ConfigError(where, f"bad selector {css or xpath!r}: {e}") from None
    try:
        rx = re.compile(regex, re.IGNORECASE) if regex else None
    except re.error as e:
        raise ConfigError(where, f"bad regex {regex!r}: {e}") from None
    source = spec.get("_str") or (f"{css or 'xpath:' + str(xpath)}" + (f" @{attr}" if attr else "")
                                  + (f" /{regex}/" if regex else ""))
    if xpath is not None:
        probe = _xpath_probe(xpath)
    elif path is None or css.startswith(":self"):
        probe = None
    elif css.startswith("xpath:"):
        probe = _xpath_probe(css[6:].strip())
    else:
        probe = _css_probe(css)
    tags = _css_tags(css) if xpath is None and path is not None and not css.startswith((":self", "xpath:")) else None
    return Extractor(source=source, path=path, attr=attr, regex=rx, own=bool(spec.get("own", False)), probe=probe,
                     tags=tags)


def _css_tags(css: str) -> tuple[frozenset[str], ...] | None:
    """The tags of every compound of each alternative of `css` (lowercase, as the HTML translator
    and libxml2 write them; `*` and untagged compounds need none); None when cssselect cannot
    take it apart simply (a pseudo-element, a namespace)."""
    try:
        out = []
        for sel in parse_css(css):
            if sel.pseudo_element:
                return None
            tags: set[str] = set()
            tree = sel.parsed_tree
            while True:
                compound = tree.subselector if isinstance(tree, CombinedSelector) else tree
                while not isinstance(compound, Element):
                    compound = compound.selector
                if compound.namespace:
                    return None
                if compound.element and compound.element != "*":
                    tags.add(compound.element.lower())
                if not isinstance(tree, CombinedSelector):
                    break
                tree = tree.selector
            out.append(frozenset(tags))
        return tuple(out) or None
    except Exception:  # anything cssselect cannot take apart simply gets no tags
        return None


def _css_probe(css: str) -> tuple[tuple[str, str], ...] | None:
    """(element, condition) of the leftmost compound of each alternative of a CSS selector that
    is searched below the context: with the descendant scope every combinator stays inside the
    context's subtree, so no such element there means no match at all."""
    try:
        selectors = parse_css(css)
        steps = []
        for sel in selectors:
            if sel.pseudo_element:
                return None
            tree = sel.parsed_tree
            while isinstance(tree, CombinedSelector):
                tree = tree.selector
            step = _loose_step(tree)
            if step is None:
                return None
            steps.append(step)
        return tuple(steps) or None
    except Exception:  # anything cssselect cannot take apart simply gets no probe
        return None


def _loose_step(compound: Any) -> tuple[str, str] | None:
    """(element, condition) that every element matching `compound` meets: its tag, its classes
    as plain substrings of @class, its id, its attributes' presence and values as substrings.
    Looser than the selector (pseudo-classes are left out), hence cheaper to test, and still
    necessary, which is all a probe needs."""
    conds: list[str] = []
    node = compound
    while True:
        if isinstance(node, Class):
            conds.append(f"contains(@class, {_TRANSLATOR.xpath_literal(node.class_name)})")
        elif isinstance(node, Hash):
            conds.append(f"@id = {_TRANSLATOR.xpath_literal(node.id)}")
        elif isinstance(node, Attrib):
            cond = _loose_attrib(node)
            if cond:
                conds.append(cond)
        elif isinstance(node, Matching):  # :is(...): one of the alternatives' conditions
            alts = [_loose_step(a) for a in node.selector_list]
            if alts and all(a is not None and a[0] == "*" and a[1] for a in alts):
                conds.append(" or ".join(f"({a[1]})" for a in alts))  # type: ignore[index]
        elif isinstance(node, Element):
            element = (node.element or "*").lower()
            conds.sort(key=lambda c: not c.startswith("@") or " " in c)  # bare @attr: the cheapest test first
            return element, " and ".join(conds)
        elif not isinstance(node, (Attrib, Pseudo, Function, Negation, Matching)):
            return None
        node = node.selector


def _loose_attrib(node: Any) -> str:
    """A necessary condition for an attribute selector ('' when there is none to give)."""
    name = node.attrib
    if node.namespace or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", name or ""):
        return ""
    name = name.lower()
    if node.operator == "exists":
        return f"@{name}"
    if node.operator == "!=":
        return ""
    value = _TRANSLATOR.xpath_literal(getattr(node.value, "value", node.value) or "")
    return f"@{name} = {value}" if node.operator == "=" else f"contains(@{name}, {value})"


_LOOSE_TERM = re.compile(r"""contains\(@([A-Za-z_][\w.-]*), (?:'([^']*)'|"([^"]*)")\)"""
                         r"""|@([A-Za-z_][\w.-]*) = (?:'([^']*)'|"([^"]*)")|@([A-Za-z_][\w.-]*)""")


def loose_test(cond: str) -> Callable[[Any], bool] | None:
    """A `_loose_step` condition as a test in Python on an element: the same answer as the
    XPath for the terms it writes (`contains(@a, 'x')`, `@a = 'x'`, `@a`, joined by `and`);
    None for any other (`:is` alternatives, `concat()` literals), which callers then treat as
    possibly true."""
    checks: list[tuple[str, str, str]] = []  # (kind, attribute, literal)
    for term in cond.split(" and ") if cond else ():
        m = _LOOSE_TERM.fullmatch(term)
        if m is None:
            return None
        if m.group(1):
            checks.append(("contains", m.group(1), m.group(2) if m.group(2) is not None else m.group(3)))
        elif m.group(4):
            checks.append(("equals", m.group(4), m.group(5) if m.group(5) is not None else m.group(6)))
        else:
            checks.append(("exists", m.group(7), ""))

    def test(el: Any) -> bool:
        for kind, name, lit in checks:
            v = el.get(name)
            if kind == "contains":
                if lit and (v is None or lit not in v):  # contains(x, '') is true even without @a
                    return False
            elif v is None or (kind == "equals" and v != lit):
                return False
        return True
    return test


def _xpath_probe(xpath: str) -> tuple[tuple[str, str], ...] | None:
    """A raw XPath probes for itself when it is a relative location path (a node-set)."""
    x = xpath.strip()
    return (("", x),) if x.startswith((".//", "descendant::", "descendant-or-self::")) else None


@lru_cache(maxsize=1024)
def _compile_probe(steps: tuple[str, ...]) -> etree.XPath | None:
    try:
        return etree.XPath(" | ".join(steps), regexp=False)
    except etree.XPathError:
        return None


def probe_of(extractors: Iterable[Extractor]) -> etree.XPath | None:
    """One XPath that finds nothing below an element only when none of `extractors` finds
    anything there (None when some extractor cannot be probed). Compound steps with the same
    element are merged, so a long fallback list costs about one walk of the subtree."""
    by_element: dict[str, list[str]] = {}
    raw: list[str] = []
    for ex in extractors:
        if ex.probe is None:
            return None
        for element, cond in ex.probe:
            if element:
                by_element.setdefault(element, []).append(cond)
            else:
                raw.append(cond)
    steps = []
    for element, conds in by_element.items():
        if "" in conds:
            steps.append(f"descendant::{element}")
        elif all(_CLASS_ONLY.fullmatch(c) for c in conds):
            # the class attribute read once for all tests: `E/@class[contains(., x) or ...]/..`
            tests = " or ".join(f"({c.replace('contains(@class, ', 'contains(., ')})" for c in dict.fromkeys(conds))
            steps.append(f"descendant::{element}/@class[{tests}]/..")
        else:
            steps.append(f"descendant::{element}[" + " or ".join(f"({c})" for c in dict.fromkeys(conds)) + "]")
    steps += dict.fromkeys(raw)
    return _compile_probe(tuple(steps)) if steps else None


_CLASS_TEST = r"contains\(@class, '[^']*'\)"
_CLASS_ONLY = re.compile(rf"{_CLASS_TEST}(?: and {_CLASS_TEST})*")


def _extractors(data: Mapping[str, Any], key: str, where: str) -> tuple[Extractor, ...]:
    v = data.get(key, ())
    if isinstance(v, (str, Mapping)):
        v = [v]
    return tuple(_compile_extractor(s, f"{where}.{key}[{i}]") for i, s in enumerate(v))


@dataclass(frozen=True)
class Mark:
    """Body elements of one kind (quote/spoiler/code/signature) and how to read a quote's author."""

    kind: str
    selector: Extractor
    author: tuple[Extractor, ...] = ()
    header: etree.XPath | None = None  # a preceding sibling that belongs to the quote ("X wrote:")
    author_from_header: re.Pattern[str] | None = None


@dataclass(frozen=True)
class Fields:
    """Selectors of a post or message container, plus the body rules."""

    container: tuple[Extractor, ...] = ()
    id: tuple[Extractor, ...] = ()
    number: tuple[Extractor, ...] = ()
    author: tuple[Extractor, ...] = ()
    author_id: tuple[Extractor, ...] = ()
    date: tuple[Extractor, ...] = ()
    edited: tuple[Extractor, ...] = ()
    edited_at: tuple[Extractor, ...] = ()
    body: tuple[Extractor, ...] = ()
    subject: tuple[Extractor, ...] = ()
    recipients: tuple[Extractor, ...] = ()
    unread: tuple[Extractor, ...] = ()
    link: tuple[Extractor, ...] = ()
    version: tuple[Extractor, ...] = ()
    skip: tuple[Extractor, ...] = ()  # a container matching any of these is not a post (ads)


_FIELD_NAMES = ("container", "id", "number", "author", "author_id", "date", "edited", "edited_at",
                "body", "subject", "recipients", "unread", "link", "version", "skip")


def _fields(data: Mapping[str, Any], where: str) -> Fields:
    unknown = set(data) - set(_FIELD_NAMES)
    if unknown:
        raise ConfigError(where, f"unknown keys {sorted(unknown)} (known: {', '.join(_FIELD_NAMES)})")
    return Fields(**{k: _extractors(data, k, where) for k in _FIELD_NAMES})


@dataclass(frozen=True)
class Pagination:
    links: tuple[Extractor, ...] = ()  # <a> elements of the page list (page numbers from href/text)
    current: tuple[Extractor, ...] = ()  # the current page number
    last: tuple[Extractor, ...] = ()  # the number of pages
    next: tuple[Extractor, ...] = ()  # href of the next page
    param: str = ""  # query parameter carrying the page ("start", "page", "st"...)
    kind: str = "number"  # "number" (page N) or "offset" (first post index, 0-based)
    path_regex: str = ""  # page number inside the path, e.g. "/page-(\\d+)"
    path_template: str = ""  # how to write page N into the path (with {n})
    per_page: int = 0  # posts per page when the page does not say
    per_page_of: tuple[Extractor, ...] = ()  # where the page says it (IPS 4's data-ipsPagination-perPage)
    # the number the forum prints for a thread's opening post: SMF's "Reply #N" counts it 0, so a
    # GM who types the number the page shows means the same post (issue 28, item 10)
    first_number: int = 1


@dataclass(frozen=True)
class LoginSpec:
    url: str = ""
    form: tuple[Extractor, ...] = ()  # the <form> element on the login page
    user_field: str = "username"
    pass_field: str = "password"
    extra: Mapping[str, str] = field(default_factory=dict)
    logged_in: tuple[Extractor, ...] = ()  # present on any page once logged in
    failed: tuple[Extractor, ...] = ()  # present on the answer when the login was refused
    login_page: tuple[Extractor, ...] = ()  # "this page is the login form"
    csrf_meta: str = ""  # name of a <meta> holding a CSRF token (sent as a form field too)
    min_form_age: float = 0.0  # seconds the engine wants between showing the form and the POST (phpBB)


@dataclass(frozen=True)
class InboxSpec:
    url: str = ""
    rows: Fields = field(default_factory=Fields)
    page: Fields = field(default_factory=Fields)  # a message or conversation page
    page_subject: tuple[Extractor, ...] = ()
    page_recipients: tuple[Extractor, ...] = ()
    message_url: str = ""  # template with {id} when rows carry no link
    marks_read: str = ""  # what reading does to unread state on this engine (documentation)
    next: tuple[Extractor, ...] = ()  # href of the inbox's next page (else `inbox_pages.generic_next`)


@dataclass(frozen=True)
class WriteSpec:
    """How to publish through one of the engine's forms (a reply, or a private message).

    The adapter GETs the form page (`url`, or a `link` found on the thread page), keeps
    every hidden field the form carries (CSRF tokens, post hashes, timestamps), fills the
    text into the first `body` field the form has, adds `submit` (the button a browser
    would send) and `fields`, and POSTs once. The answer is read in this order: a redirect
    or meta refresh whose URL matches `id`; a URL in `refused` (the forum dropped it on
    purpose); the forum's own `error` message; `links` on the answer page matching `id`;
    `success`. Anything else is "maybe posted", which the caller resolves with
    `find_published`, never by sending again.
    """

    url: str = ""  # form page, with {base} {thread} {thread_url} {to}; empty: no form page
    link: tuple[Extractor, ...] = ()  # or: the form page's link on the thread page
    form: tuple[Extractor, ...] = ()  # the <form> element on that page
    action: str = ""  # POST target when there is no form page (template as `url`)
    body: tuple[str, ...] = ()  # names of the text control, first present wins (else the only textarea)
    subject: tuple[str, ...] = ()  # names of the subject/title control
    to: tuple[str, ...] = ()  # names of the recipient control (PMs)
    add_recipient: Mapping[str, str] = field(default_factory=dict)  # a first "add recipient" submit (phpBB)
    recipient_added: tuple[Extractor, ...] = ()  # present once the recipient step accepted the name
    submit: Mapping[str, str] = field(default_factory=dict)  # the submit button's name = value
    fields: Mapping[str, str] = field(default_factory=dict)  # constant fields sent as given
    # the form's own "disable smileys" option, sent with every write: a count's "(8)" or a ":)" in a
    # name stays text, as the preview shows it (issue 28, item 9)
    no_smileys: Mapping[str, str] = field(default_factory=dict)
    # smiley codes a form without that option turns into images anyway (SMF's PM form): each is kept
    # text by a WORD JOINER (U+2060, invisible) after its first character
    smileys: tuple[str, ...] = ()
    # "li": list items written [li]...[/li], not [*] (SMF parses its [*] shorthand only in a post
    # with smileys on, and `no_smileys` turns them off: the game-over post's roles showed "[*]")
    list_items: str = ""
    drop: tuple[str, ...] = ()  # controls never to send (a rich editor's HTML twin, preview buttons)
    csrf_meta: str = ""  # a <meta name=...> holding a token the form lacks
    csrf_field: str = "csrf_token"  # the field that token goes into
    min_form_age: float = 0.0  # seconds the engine wants between showing the form and the POST
    flood_interval: float = 0.0  # minimum seconds between two writes of one account
    id: tuple[re.Pattern[str], ...] = ()  # regexes (group 1) over redirect URLs and `links`
    links: tuple[Extractor, ...] = ()  # on the answer page: links to the new post / message
    error: tuple[Extractor, ...] = ()  # on the answer page: the forum's error message
    success: tuple[Extractor, ...] = ()  # on the answer page: "your message was sent"
    refused: tuple[tuple[re.Pattern[str], str], ...] = ()  # redirect URL pattern -> why nothing was posted
    post_url: str = ""  # URL of the new post from {id} when the answer gives only the id
    sent: tuple[str, ...] = ()  # PMs: sent-folder pages searched by find_published
    sent_rows: Fields | None = None  # PMs: rows of those pages (default: the inbox rows)
    raw_url: str = ""  # our own post's source (edit form, raw view) from {id}, when the HTML may lose the marker
    raw: tuple[Extractor, ...] = ()  # where the source is on that page (default: the whole answer)
    verified: str = ""  # how this form was checked: "real software: ...", "demo site", "documentation: ..."

    @property
    def enabled(self) -> bool:
        return bool(self.url or self.link or self.action)


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    path: Path | None
    adapter: str = "html"  # "html" or a hook adapter ("discourse")
    example_urls: tuple[str, ...] = ()
    thread_patterns: tuple[re.Pattern[str], ...] = ()
    # URLs among those that name a post, not the thread (phpBB `viewtopic.php?p=N`): a page reached
    # by one shows the thread around the post, but its id is no witness of which thread that is
    post_patterns: tuple[re.Pattern[str], ...] = ()
    thread_url: str = ""  # canonical thread URL from {base} and {thread}
    generator: tuple[re.Pattern[str], ...] = ()
    fingerprints: tuple[Extractor, ...] = ()
    fingerprint_text: tuple[str, ...] = ()
    date_order: str = "DMY"
    date_formats: tuple[str, ...] = ()
    date_pinned: bool = False  # dates.pin: the order holds whatever the page's lang says
    # dates.flag_imprecise: a post whose printed date lacks the minute (no time, "3 weeks ago", no
    # year on a saved page) is flagged date_guessed with the reason (the structural fallback's)
    date_flag_imprecise: bool = False
    # thread.need_author_or_date: a post container with neither is no post (a deleted post's bare
    # anchor row found by an inferred container)
    need_author_or_date: bool = False
    languages: tuple[str, ...] = ()
    title_sel: tuple[Extractor, ...] = ()
    posts: Fields = field(default_factory=Fields)
    remove: tuple[Extractor, ...] = ()
    marks: tuple[Mark, ...] = ()
    pagination: Pagination = field(default_factory=Pagination)
    login: LoginSpec = field(default_factory=LoginSpec)
    inbox: InboxSpec = field(default_factory=InboxSpec)
    reply: WriteSpec = field(default_factory=WriteSpec)
    pm: WriteSpec = field(default_factory=WriteSpec)
    verified: str = ""  # "real pages: ..." or "documentation: ..." (shown by docs and tests)
    markup: str = ""  # what the forum renders: "bbcode" or "markdown" ("" = unknown)
    max_post_chars: int = 0  # the engine's default post length limit (0 = none known)
    max_pm_chars: int = 0  # the same for a private message
    marker_form: str = ""  # how a publication marker is written here ({marker}); "" = the markup's default
    small_form: str = ""  # how small print is written here ({text}); "" = the markup's default
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def match_thread(self, url: str) -> re.Match[str] | None:
        for rx in self.thread_patterns:
            m = rx.search(url)
            if m:
                return m
        return None

    def names_post(self, url: str) -> bool:
        """Whether `url` names a post rather than its thread (`[urls] post`)."""
        return any(rx.search(url) for rx in self.post_patterns)


_TOP_KEYS = {"name", "title", "adapter", "example_urls", "urls", "detect", "dates", "thread", "post",
             "body", "pagination", "login", "inbox", "verified", "hook", "reply", "pm",
             "markup", "max_post_chars", "max_pm_chars", "marker_form", "small_form"}
PROFILE_MARKUPS = ("bbcode", "markdown")


def _regexes(values: Any, where: str) -> tuple[re.Pattern[str], ...]:
    if isinstance(values, str):
        values = [values]
    out = []
    for i, v in enumerate(values or ()):
        try:
            out.append(re.compile(v, re.IGNORECASE))
        except re.error as e:
            raise ConfigError(f"{where}[{i}]", f"bad regex {v!r}: {e}") from None
    return tuple(out)


def _marks(data: Any, where: str) -> tuple[Mark, ...]:
    out = []
    for i, m in enumerate(data or ()):
        w = f"{where}[{i}]"
        kind = m.get("kind")
        if kind not in FM_KINDS:
            raise ConfigError(f"{w}.kind", f"must be one of {', '.join(FM_KINDS)}")
        sel = m.get("css") or m.get("xpath")
        if not sel:
            raise ConfigError(w, "a mark needs css (or xpath)")
        selector = _compile_extractor({"css": m["css"]} if "css" in m else {"xpath": m["xpath"]}, f"{w}.css")
        header = None
        if m.get("header"):
            try:
                header = etree.XPath(_TRANSLATOR.css_to_xpath(m["header"], prefix="self::"))
            except SelectorError as e:
                raise ConfigError(f"{w}.header", f"bad selector: {e}") from None
        rx = _regexes(m.get("author_regex", ()), f"{w}.author_regex")
        out.append(Mark(kind=kind, selector=selector, author=_extractors(m, "author", w), header=header,
                        author_from_header=rx[0] if rx else None))
    return tuple(out)


_WRITE_KEYS = {"url", "link", "form", "action", "body", "subject", "to", "add_recipient", "recipient_added",
               "submit", "fields", "no_smileys", "smileys", "list_items", "drop", "csrf_meta", "csrf_field", "min_form_age", "flood_interval", "id",
               "links", "error", "success", "refused", "post_url", "sent", "sent_rows", "raw_url", "raw",
               "verified", "notes"}


def _names(v: Any, where: str) -> tuple[str, ...]:
    if isinstance(v, str):
        return (v,)
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise ConfigError(where, "expected a name or a list of names")
    return tuple(v)


def _str_table(v: Any, where: str) -> dict[str, str]:
    if not isinstance(v, Mapping) or not all(isinstance(x, (str, int, float)) for x in v.values()):
        raise ConfigError(where, "expected a table of name = value")
    return {str(k): str(x) for k, x in v.items()}


def _list_items(v: Any, where: str) -> str:
    if v not in ("", "li"):
        raise ConfigError(where, "expected \"li\" (list items as [li]...[/li]) or nothing")
    return str(v)


def _write_spec(data: Mapping[str, Any], where: str) -> WriteSpec:
    """One `[reply]` or `[pm]` table."""
    if not isinstance(data, Mapping):
        raise ConfigError(where, "expected a table")
    unknown = set(data) - _WRITE_KEYS
    if unknown:
        raise ConfigError(where, f"unknown keys {sorted(unknown)} (known: {', '.join(sorted(_WRITE_KEYS))})")
    refused = []
    for pattern, why in _str_table(data.get("refused", {}), f"{where}.refused").items():
        refused.append((_regexes(pattern, f"{where}.refused")[0], why))
    try:
        min_age = float(data.get("min_form_age", 0))
        flood = float(data.get("flood_interval", 0))
    except (TypeError, ValueError):
        raise ConfigError(where, "min_form_age and flood_interval are numbers of seconds") from None
    if min_age < 0 or flood < 0:
        raise ConfigError(where, "min_form_age and flood_interval must not be negative")
    return WriteSpec(
        url=str(data.get("url", "")),
        link=_extractors(data, "link", where),
        form=_extractors(data, "form", where),
        action=str(data.get("action", "")),
        body=_names(data.get("body", ()), f"{where}.body"),
        subject=_names(data.get("subject", ()), f"{where}.subject"),
        to=_names(data.get("to", ()), f"{where}.to"),
        add_recipient=_str_table(data.get("add_recipient", {}), f"{where}.add_recipient"),
        recipient_added=_extractors(data, "recipient_added", where),
        submit=_str_table(data.get("submit", {}), f"{where}.submit"),
        fields=_str_table(data.get("fields", {}), f"{where}.fields"),
        no_smileys=_str_table(data.get("no_smileys", {}), f"{where}.no_smileys"),
        smileys=_names(data.get("smileys", ()), f"{where}.smileys"),
        list_items=_list_items(data.get("list_items", ""), f"{where}.list_items"),
        drop=_names(data.get("drop", ()), f"{where}.drop"),
        csrf_meta=str(data.get("csrf_meta", "")),
        csrf_field=str(data.get("csrf_field", "csrf_token")),
        min_form_age=min_age,
        flood_interval=flood,
        id=_regexes(data.get("id", ()), f"{where}.id"),
        links=_extractors(data, "links", where),
        error=_extractors(data, "error", where),
        success=_extractors(data, "success", where),
        refused=tuple(refused),
        post_url=str(data.get("post_url", "")),
        sent=_names(data.get("sent", ()), f"{where}.sent"),
        sent_rows=_fields(data["sent_rows"], f"{where}.sent_rows") if "sent_rows" in data else None,
        raw_url=str(data.get("raw_url", "")),
        raw=_extractors(data, "raw", where),
        verified=str(data.get("verified", "")),
    )


def parse_profile(data: Mapping[str, Any], path: Path | None = None) -> Profile:
    """Check and compile one profile table; ConfigError names the failing key."""
    where = str(path) if path else "profile"
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ConfigError(where, f"unknown keys {sorted(unknown)}")
    name = profile_name(data, where)
    urls = data.get("urls", {})
    detect = data.get("detect", {})
    dates = data.get("dates", {})
    thread = data.get("thread", {})
    body = data.get("body", {})
    pag = data.get("pagination", {})
    login = data.get("login", {})
    inbox = data.get("inbox", {})
    order = dates.get("order", "DMY")
    if order not in ("DMY", "MDY", "YMD"):
        raise ConfigError(f"{where}: dates.order", "must be DMY, MDY or YMD")
    markup = data.get("markup", "")
    if markup and markup not in PROFILE_MARKUPS:
        raise ConfigError(f"{where}: markup", f"must be one of {', '.join(PROFILE_MARKUPS)}, not {markup!r}")
    limits = {}
    for key in ("max_post_chars", "max_pm_chars"):
        v = data.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ConfigError(f"{where}: {key}", "a number of characters (0 = no limit known)")
        limits[key] = v
    marker_form = data.get("marker_form", "")
    if marker_form:
        from forummod.render.marker import check_form

        try:
            check_form(str(marker_form))
        except ValueError as e:
            raise ConfigError(f"{where}: marker_form", f"{e}, e.g. \"[size=1]{{marker}}[/size]\"") from None
    small_form = str(data.get("small_form", ""))
    if small_form and small_form.count("{text}") != 1:
        raise ConfigError(f"{where}: small_form", 'a form with {text} once, e.g. "[size=85]{text}[/size]"')
    post_fields = dict(data.get("post", {}))
    if "posts" in thread:
        post_fields["container"] = thread["posts"]
    return Profile(
        name=name,
        title=data.get("title", name),
        path=path,
        adapter=data.get("adapter", "html"),
        example_urls=tuple(data.get("example_urls", ())),
        thread_patterns=_regexes(urls.get("thread", ()), f"{where}: urls.thread"),
        post_patterns=_regexes(urls.get("post", ()), f"{where}: urls.post"),
        thread_url=urls.get("thread_url", ""),
        generator=_regexes(detect.get("generator", ()), f"{where}: detect.generator"),
        fingerprints=_extractors(detect, "selectors", f"{where}: detect"),
        fingerprint_text=tuple(detect.get("text", ())),
        date_order=order,
        date_formats=tuple(dates.get("formats", ())),
        date_pinned=bool(dates.get("pin", False)),
        date_flag_imprecise=bool(dates.get("flag_imprecise", False)),
        languages=tuple(dates.get("languages", ())),
        title_sel=_extractors(thread, "title", f"{where}: thread"),
        need_author_or_date=bool(thread.get("need_author_or_date", False)),
        posts=_fields(post_fields, f"{where}: post"),
        remove=_extractors(body, "remove", f"{where}: body"),
        marks=_marks(body.get("marks", ()), f"{where}: body.marks"),
        pagination=Pagination(
            links=_extractors(pag, "links", f"{where}: pagination"),
            current=_extractors(pag, "current", f"{where}: pagination"),
            last=_extractors(pag, "last", f"{where}: pagination"),
            next=_extractors(pag, "next", f"{where}: pagination"),
            param=pag.get("param", ""),
            kind=pag.get("kind", "number"),
            path_regex=pag.get("path_regex", ""),
            path_template=pag.get("path_template", ""),
            per_page=int(pag.get("per_page", 0)),
            per_page_of=_extractors(pag, "per_page_of", f"{where}: pagination"),
            first_number=int(pag.get("first_number", 1)),
        ),
        login=LoginSpec(
            url=login.get("url", ""),
            form=_extractors(login, "form", f"{where}: login"),
            user_field=login.get("user_field", "username"),
            pass_field=login.get("pass_field", "password"),
            extra=dict(login.get("extra", {})),
            logged_in=_extractors(login, "logged_in", f"{where}: login"),
            failed=_extractors(login, "failed", f"{where}: login"),
            login_page=_extractors(login, "login_page", f"{where}: login"),
            csrf_meta=login.get("csrf_meta", ""),
            min_form_age=float(login.get("min_form_age", 0.0)),
        ),
        inbox=InboxSpec(
            url=inbox.get("url", ""),
            rows=_fields(inbox.get("rows", {}), f"{where}: inbox.rows"),
            page=_fields(inbox.get("message", {}), f"{where}: inbox.message"),
            page_subject=_extractors(inbox, "subject", f"{where}: inbox"),
            page_recipients=_extractors(inbox, "recipients", f"{where}: inbox"),
            message_url=inbox.get("message_url", ""),
            marks_read=inbox.get("marks_read", ""),
            next=_extractors(inbox, "next", f"{where}: inbox"),
        ),
        reply=_write_spec(data.get("reply", {}), f"{where}: reply"),
        pm=_write_spec(data.get("pm", {}), f"{where}: pm"),
        verified=data.get("verified", ""),
        markup=markup,
        marker_form=str(marker_form),
        small_form=small_form,
        **limits,
        raw=data,
    )


def load_profile_file(path: Path) -> Profile:
    return parse_profile(read_profile_table(path), path)


def load_profiles(dirs: Iterable[Path]) -> dict[str, Profile]:
    """Profiles by name; the first folder that defines a name wins (user overrides bundled)."""
    found: dict[str, Profile] = {}
    for p in profile_files(dirs):
        prof = load_profile_file(p)
        found.setdefault(prof.name, prof)
    return found
