"""The parse baselines: bare lxml and BeautifulSoup doing the selections forummod does.

`baseline_selectors` takes, from a site profile, one selector of every field a parsed page
carries — per post its id, number, author, author's id, date, edit mark, edit time and
body; per page its title and the pagination's links, current page, last page and next link —
with the profile's attribute, regex and own-text options: on a given page, the selector
forummod reads that field with there. `BareLxml` runs them with plain
`lxml.html` and `lxml.cssselect` (nothing of forummod's), so a ratio against it is forummod's
cost over the floor of the same selections (issue 17: "bare lxml with the same selections").
What forummod does beyond selecting (date parsing, fallbacks, body cleaning, checks of the
page) is its own cost and counts on its side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

#: the fields of each post, in the order of a baseline row (the body's HTML comes last)
POST_FIELDS = ("id", "number", "author", "author_id", "date", "edited", "edited_at", "body")
#: the fields of each page
PAGE_FIELDS = ("title", "links", "current", "last", "next")


@dataclass(frozen=True)
class BareSpec:
    """One profile selector as the baselines read it: CSS (or XPath), attribute, regex, own text."""

    css: str = ""  # "" = the context element itself
    xpath: str | None = None
    attr: str | None = None
    regex: str | None = None
    own: bool = False

    def text(self) -> str:
        where = self.css or (f"xpath:{self.xpath}" if self.xpath else ":self")
        return where + (f" @{self.attr}" if self.attr else "") + (f" /{self.regex}/" if self.regex else "")


def _spec(raw: Any) -> BareSpec:
    """A profile selector (a string "css @attr", "xpath:...", "@attr", or a table) as a BareSpec."""
    if isinstance(raw, dict):
        where, xpath = raw.get("css", ""), raw.get("xpath")
        attr, regex, own = raw.get("attr"), raw.get("regex"), bool(raw.get("own"))
    else:
        where, _, attr = str(raw).partition(" @") if not str(raw).startswith("@") else ("", "", str(raw)[1:])
        xpath, regex, own = None, None, False
    if where.startswith("xpath:"):
        where, xpath = "", where[6:]
    if where == ":self":
        where = ""
    return BareSpec(css=where, xpath=xpath, attr=attr or None, regex=regex, own=own)


def _candidates(profile: Any) -> dict[str, list[BareSpec]]:
    """Every selector of every field, in the profile's order."""
    raw = profile.raw

    def every(value: Any) -> list[BareSpec]:
        if value is None:
            return []
        return [_spec(v) for v in (value if isinstance(value, list) else [value])
                if not isinstance(v, (int, float, bool))]

    post = raw.get("post", {})
    out = {"container": every(raw["thread"]["posts"])}
    for key in POST_FIELDS:
        out[key] = every(post.get(key) or ([":self @id"] if key == "id" else None))
    out["title"] = every(raw["thread"].get("title"))
    pagination = raw.get("pagination", {})
    for key in PAGE_FIELDS[1:]:
        out[key] = every(pagination.get(key))
    return {k: v for k, v in out.items() if v}


Selection = tuple[BareSpec, ...]  # the selectors of one field, tried in order


def baseline_selectors(profile: Any, page: str | bytes | None = None) -> dict[str, Selection]:
    """The selectors of each field the profile has (the posts' container as "container").

    Without a page, the first of each list. With one, the selection forummod makes on that
    page: the first container selector that finds posts, and for each field the selectors
    forummod reads it with there (for each post the first of the field's list that gives a
    value; those, in the profile's order; a field none gives keeps its first). Found before
    any timing, so the baseline does not pay for the search, only for the reading."""
    cands = _candidates(profile)
    if page is None:
        return {k: v[:1] for k, v in cands.items()}
    import lxml.html

    root = lxml.html.document_fromstring(page)
    out: dict[str, Selection] = {"container": cands["container"][:1]}
    posts: list = []
    for spec in cands["container"]:
        found = _compiled(spec)
        posts = found.nodes(root) if found is not None else []
        if posts:
            out["container"] = (spec,)
            break
    for key, specs in cands.items():
        if key == "container":
            continue
        fields = [_compiled(s) for s in specs]
        used: set[int] = set()
        for el in [root] if key in PAGE_FIELDS else posts:
            hit = next((i for i, f in enumerate(fields) if _gives_value(f, el, key)), None)
            if hit is not None:
                used.add(hit)
        out[key] = tuple(specs[i] for i in sorted(used)) or specs[:1]
    return out


def _compiled(spec: BareSpec) -> "_One | None":
    try:
        return _One(spec)
    except Exception:  # an XPath lxml cannot compile alone: never the baseline's choice
        return None


def _gives_value(field: "_One | None", el: Any, key: str) -> bool:
    if field is None:
        return False
    try:
        return bool(field.nodes(el) if key in ("edited", "body", "links") else field.first(el))
    except Exception:
        return False


Finder = Callable[[Any], list]


class PageRow(NamedTuple):
    """What the baseline reads once a page: title and pagination."""

    title: str | None
    links: list[str]
    current: str | None
    last: str | None
    next: str | None


class _One:
    """One compiled selector: the nodes it finds and the cleaned first value."""

    __slots__ = ("find", "attr", "regex", "own")

    def __init__(self, spec: BareSpec):
        from lxml import etree
        from lxml.cssselect import CSSSelector

        self.find: Finder | None
        if spec.xpath:
            self.find = etree.XPath(spec.xpath if spec.xpath.startswith((".", "/")) else "./" + spec.xpath)
        elif spec.css:
            self.find = CSSSelector(spec.css, translator="html")
        else:
            self.find = None
        self.attr = spec.attr
        self.regex = re.compile(spec.regex) if spec.regex else None
        self.own = spec.own

    def nodes(self, el: Any) -> list:
        return self.find(el) if self.find is not None else [el]

    def value(self, node: Any) -> str | None:
        if isinstance(node, str):
            raw: str | None = node
        elif self.attr:
            raw = node.get(self.attr)
        elif self.own:
            raw = "".join(t for t in [node.text, *(c.tail for c in node)] if t)
        else:
            raw = node.text_content()
        if raw is None:
            return None
        if self.regex is not None:
            m = self.regex.search(raw)
            if not m:
                return None
            raw = m.group(1) if m.groups() else m.group(0)
        return " ".join(raw.split()) or None

    def first(self, el: Any) -> str | None:
        for node in self.nodes(el):
            v = self.value(node)
            if v:
                return v
        return None


class _Field:
    """A field's selection: its selectors tried in order, as forummod tries a field's list."""

    __slots__ = ("ones",)

    def __init__(self, selection: Selection):
        self.ones = tuple(_One(s) for s in selection)

    def nodes(self, el: Any) -> list:
        for one in self.ones:
            found = one.nodes(el)
            if found:
                return found
        return []

    def first(self, el: Any) -> str | None:
        for one in self.ones:
            v = one.first(el)
            if v:
                return v
        return None


class BareLxml:
    """Bare lxml.html with the profile's first selectors: parse the page, read its title and
    pagination, select the posts and in each every field a parsed post carries.

    Each post gives a row (id, number, author, author id, date text, edited?, edit time,
    body HTML); each page then a `PageRow`."""

    def __init__(self, sels: dict[str, Selection]):
        self.container = _One(sels["container"][0])
        self.post = [(k, _Field(sels[k])) for k in POST_FIELDS if k in sels and k != "body"]
        self.body = _Field(sels["body"]) if "body" in sels else None
        self.page = {k: _Field(sels[k]) for k in PAGE_FIELDS if k in sels}

    def __call__(self, text: str | bytes, out: list) -> None:
        import lxml.html
        from lxml import etree

        root = lxml.html.document_fromstring(text)
        for el in self.container.nodes(root):
            row: list[Any] = []
            for key, field in self.post:
                if key == "edited":
                    row.append(bool(field.nodes(el)))
                else:
                    v = field.first(el)
                    row.append(int(v) if key == "number" and v and v.isdigit() else v)
            body = self.body.nodes(el) if self.body is not None else [el]
            row.append(etree.tostring(body[0], method="html", encoding="unicode", with_tail=False) if body else "")
            out.append(tuple(row))
        page = self.page
        links = page.get("links")
        out.append(PageRow(page["title"].first(root) if "title" in page else None,
                           [v for n in links.nodes(root) if (v := n.get("href"))] if links is not None else [],
                           *(page[k].first(root) if k in page else None for k in ("current", "last", "next"))))


def post_rows(rows: list) -> list[tuple]:
    """The post rows of a baseline's output (without the page rows)."""
    return [r for r in rows if not isinstance(r, PageRow)]


class BareSoup:
    """BeautifulSoup over the whole page (html.parser, soupsieve CSS): container, author, date
    and body of each post — a reference for the parser forummod does not use."""

    def __init__(self, sels: dict[str, Selection]):
        self.sels = {k: v[0] for k, v in sels.items()}

    def __call__(self, text: str | bytes, out: list) -> None:
        from bs4 import BeautifulSoup

        soup = BeautifulSoup(text, "html.parser")
        a_s, d_s, b_s = self.sels["author"], self.sels["date"], self.sels["body"]
        for el in soup.select(self.sels["container"].css):
            a = el.select_one(a_s.css) if a_s.css else el
            d = el.select_one(d_s.css) if d_s.css else el
            b = el.select_one(b_s.css) if b_s.css else el
            out.append(((a.get(a_s.attr) if a_s.attr else a.get_text()) if a is not None else None,
                        (d.get(d_s.attr) if d_s.attr else d.get_text()) if d is not None else None, b is not None))
