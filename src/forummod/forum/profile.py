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
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from cssselect import HTMLTranslator
from cssselect.parser import SelectorError
from lxml import etree

from forummod.errors import ConfigError

_TRANSLATOR = HTMLTranslator()
FM_KINDS = ("quote", "spoiler", "code", "signature")


@lru_cache(maxsize=4096)
def compile_css(css: str, scope: str = "descendant::") -> etree.XPath:
    """A CSS selector as a compiled XPath, searched below the context element."""
    if css.startswith("xpath:"):
        return etree.XPath(css[6:].strip())
    return etree.XPath(_TRANSLATOR.css_to_xpath(css, prefix=scope))


@dataclass(frozen=True)
class Extractor:
    """One way to read one value out of an element."""

    source: str
    path: etree.XPath | None  # None: the context element itself
    attr: str | None = None
    regex: re.Pattern[str] | None = None
    own: bool = False

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
        return node.text_content() if hasattr(node, "text_content") else "".join(node.itertext())

    def values(self, el: Any) -> Iterable[str]:
        if self.path is not None:
            found = self.path(el)
            if not isinstance(found, list):  # XPath string()/number() results
                found = [str(found)]
        else:
            found = [el]
        for node in found:
            raw = node if isinstance(node, str) else self._raw(node)
            if raw is None:
                continue
            if self.regex is not None:
                m = self.regex.search(raw)
                if not m:
                    continue
                raw = m.group(1) if m.groups() else m.group(0)
            raw = " ".join(raw.split())
            if raw:
                yield raw

    def first(self, el: Any) -> str | None:
        for v in self.values(el):
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
            path = etree.XPath(xpath)
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
    return Extractor(source=source, path=path, attr=attr, regex=rx, own=bool(spec.get("own", False)))


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


@dataclass(frozen=True)
class InboxSpec:
    url: str = ""
    rows: Fields = field(default_factory=Fields)
    page: Fields = field(default_factory=Fields)  # a message or conversation page
    page_subject: tuple[Extractor, ...] = ()
    page_recipients: tuple[Extractor, ...] = ()
    message_url: str = ""  # template with {id} when rows carry no link
    marks_read: str = ""  # what reading does to unread state on this engine (documentation)


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    path: Path | None
    adapter: str = "html"  # "html" or a hook adapter ("discourse")
    example_urls: tuple[str, ...] = ()
    thread_patterns: tuple[re.Pattern[str], ...] = ()
    thread_url: str = ""  # canonical thread URL from {base} and {thread}
    generator: tuple[re.Pattern[str], ...] = ()
    fingerprints: tuple[Extractor, ...] = ()
    fingerprint_text: tuple[str, ...] = ()
    date_order: str = "DMY"
    date_formats: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    title_sel: tuple[Extractor, ...] = ()
    posts: Fields = field(default_factory=Fields)
    remove: tuple[Extractor, ...] = ()
    marks: tuple[Mark, ...] = ()
    pagination: Pagination = field(default_factory=Pagination)
    login: LoginSpec = field(default_factory=LoginSpec)
    inbox: InboxSpec = field(default_factory=InboxSpec)
    verified: str = ""  # "real pages: ..." or "documentation: ..." (shown by docs and tests)
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def match_thread(self, url: str) -> re.Match[str] | None:
        for rx in self.thread_patterns:
            m = rx.search(url)
            if m:
                return m
        return None


_TOP_KEYS = {"name", "title", "adapter", "example_urls", "urls", "detect", "dates", "thread", "post",
             "body", "pagination", "login", "inbox", "verified", "hook"}


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


def parse_profile(data: Mapping[str, Any], path: Path | None = None) -> Profile:
    """Check and compile one profile table; ConfigError names the failing key."""
    where = str(path) if path else "profile"
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ConfigError(where, f"unknown keys {sorted(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        raise ConfigError(f"{where}: name", "a profile needs a lowercase name, e.g. name = \"phpbb\"")
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
        thread_url=urls.get("thread_url", ""),
        generator=_regexes(detect.get("generator", ()), f"{where}: detect.generator"),
        fingerprints=_extractors(detect, "selectors", f"{where}: detect"),
        fingerprint_text=tuple(detect.get("text", ())),
        date_order=order,
        date_formats=tuple(dates.get("formats", ())),
        languages=tuple(dates.get("languages", ())),
        title_sel=_extractors(thread, "title", f"{where}: thread"),
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
        ),
        inbox=InboxSpec(
            url=inbox.get("url", ""),
            rows=_fields(inbox.get("rows", {}), f"{where}: inbox.rows"),
            page=_fields(inbox.get("message", {}), f"{where}: inbox.message"),
            page_subject=_extractors(inbox, "subject", f"{where}: inbox"),
            page_recipients=_extractors(inbox, "recipients", f"{where}: inbox"),
            message_url=inbox.get("message_url", ""),
            marks_read=inbox.get("marks_read", ""),
        ),
        verified=data.get("verified", ""),
        raw=data,
    )


def load_profile_file(path: Path) -> Profile:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(str(path), f"not valid TOML: {e}") from None
    return parse_profile(data, path)


def profile_files(dirs: Iterable[Path]) -> list[Path]:
    """Profile files in search order (user folder first); `*.example.toml` are docs, not profiles."""
    out = []
    for d in dirs:
        if d.is_dir():
            out.extend(p for p in sorted(d.glob("*.toml")) if not p.name.endswith(".example.toml"))
    return out


def load_profiles(dirs: Iterable[Path]) -> dict[str, Profile]:
    """Profiles by name; the first folder that defines a name wins (user overrides bundled)."""
    found: dict[str, Profile] = {}
    for p in profile_files(dirs):
        prof = load_profile_file(p)
        found.setdefault(prof.name, prof)
    return found
