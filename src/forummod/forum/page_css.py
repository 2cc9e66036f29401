"""What a page's own `<style>` hides: decoy posts and decoy text a reader never sees.

Some forums (and anti-scraping mods on SMF 1.1 and phpBB boards) put extra post blocks or
words into the page and hide them with a class declared in the page's own stylesheet
(`.x7f3 {display:none}`), a different class on every page. A browser shows nothing of them,
so a GM sees nothing of them, and forummod must not count a vote in them. Only rules outside
`@media`/`@supports` blocks count (a print or phone stylesheet hides navigation, not posts),
and only simple selectors (`.cls`, `tag.cls`, `#id`): what a decoy needs and what can be
checked without a CSS engine. Pure functions on an lxml tree; nothing when no rule hides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from lxml import etree

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_HIDING = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
_SIMPLE = re.compile(r"^([a-zA-Z][a-zA-Z0-9]*)?((?:[.#][A-Za-z_][\w-]*)+)$")
_INLINE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


@dataclass(frozen=True)
class HiddenRules:
    """Classes and ids (with the tag a rule names, "" for any) that the page's stylesheet hides."""

    classes: frozenset[tuple[str, str]] = frozenset()
    ids: frozenset[tuple[str, str]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.classes or self.ids)

    def hides(self, el: Any) -> bool:
        """Whether this element itself is hidden (by the page's rules or its own style)."""
        st = el.get("style")
        if st and _INLINE_HIDDEN.search(st):
            return True
        tag = el.tag if isinstance(el.tag, str) else ""
        cls = el.get("class")
        if cls and self.classes:
            for c in cls.split():
                if ("", c) in self.classes or (tag, c) in self.classes:
                    return True
        i = el.get("id")
        return bool(i and self.ids and (("", i) in self.ids or (tag, i) in self.ids))


def _top_level_rules(css: str) -> list[tuple[str, str]]:
    """(selectors, declarations) of the rules not inside an at-rule block."""
    out = []
    depth = 0
    start = 0
    sel = ""
    skip_depth = None
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                sel = css[start:i].strip()
                if sel.startswith("@"):
                    skip_depth = 0
            depth += 1
            start = i + 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if skip_depth is None:
                    out.append((sel, css[start:i]))
                skip_depth = None
            start = i + 1
            if depth < 0:
                depth = 0
        elif ch == ";" and depth == 0:  # @import ...;
            start = i + 1
    return out


def hidden_rules(root: Any) -> HiddenRules:
    """The simple selectors the page's `<style>` elements hide."""
    classes: set[tuple[str, str]] = set()
    ids: set[tuple[str, str]] = set()
    for style in root.iter("style"):
        media = (style.get("media") or "all").lower()
        if "screen" not in media and "all" not in media:
            continue
        css = _COMMENT.sub(" ", style.text or "")
        if not _HIDING.search(css):
            continue
        for selectors, decls in _top_level_rules(css):
            if not _HIDING.search(decls):
                continue
            for sel in selectors.split(","):
                m = _SIMPLE.match(sel.strip())
                if not m:
                    continue
                tag = (m.group(1) or "").lower()
                parts = re.findall(r"[.#][A-Za-z_][\w-]*", m.group(2))
                if len(parts) != 1:  # ".a.b" hides only elements of both classes: not checked
                    continue
                (classes if parts[0][0] == "." else ids).add((tag, parts[0][1:]))
    return HiddenRules(frozenset(classes), frozenset(ids))


def visible_posts(containers: list[Any], root: Any) -> list[Any]:
    """The post containers a reader sees: those hidden by the page's stylesheet or an inline
    style (their own or an ancestor's) are dropped; text hidden by a page rule inside a kept
    post gets an inline `display:none`, which the text model already leaves out.

    Inline styles are tested on the containers, their ancestors and (when a rule hides) their
    descendants only, with the test `_INLINE_XPATH` makes: searching the whole page for them
    cost about a tenth of a real page's parse."""
    rules = hidden_rules(root) if _has_hiding_style(root) else HiddenRules()
    hidden_above = any_ancestor(containers, (lambda a: _inline_hidden(a) or rules.hides(a)) if rules else _inline_hidden)
    kept = []
    for c, above in zip(containers, hidden_above):
        if above or _inline_hidden(c) or (rules and rules.hides(c)):
            continue
        if rules:
            for el in _candidates(rules)(c):  # the descendants a rule may hide, in document order
                if not _inline_hidden(el) and rules.hides(el):
                    el.set("style", "display:none;" + (el.get("style") or ""))
        kept.append(c)
    return kept


@lru_cache(maxsize=64)
def _candidates(rules: HiddenRules) -> etree.XPath:
    """The descendants whose class attribute holds a hidden class as a substring or whose id
    is a hidden id: a superset of those `rules.hides` by a rule, found in C where a Python
    walk over every element of every post cost a tenth of a XenForo page's parse."""
    parts = []
    classes = sorted({c for _, c in rules.classes})
    if classes:
        parts.append("descendant::*/@class[" + " or ".join(f"contains(., '{c}')" for c in classes) + "]/..")
    ids = sorted({i for _, i in rules.ids})
    if ids:
        parts.append("descendant::*/@id[" + " or ".join(f". = '{i}'" for i in ids) + "]/..")
    return etree.XPath(" | ".join(parts))


def any_ancestor(elements: list[Any], test: Callable[[Any], bool]) -> list[bool]:
    """For each element, whether one of its ancestors passes `test`. The posts of a page share
    most of their ancestors (the post list, the body, <html>): each is tested once, where a
    walk per post made an element object for every ancestor of every post. The memo holds
    the element objects, so their ids stay theirs while it lives."""
    memo: dict[int, tuple[Any, bool]] = {}  # id -> (element, it or one of its ancestors passes)
    out = []
    for el in elements:
        path = []
        verdict = False
        a = el.getparent()
        while a is not None:
            hit = memo.get(id(a))
            if hit is not None:
                verdict = hit[1]
                break
            path.append(a)
            if test(a):
                verdict = True
                break
            a = a.getparent()
        for a in path:
            memo[id(a)] = (a, verdict)
        out.append(verdict)
    return out


# XPath's translate(@style, 'DISPLAYNOEVBIH ', 'displaynoevbih'): those capitals lowered, spaces dropped
_STYLE_FOLD = str.maketrans({**{c: c.lower() for c in "DISPLAYNOEVBH"}, " ": None})


def _inline_hidden(el: Any) -> bool:
    """Whether `el` matches `_INLINE_XPATH` (its style, folded as that XPath folds it, says
    display:none or visibility:hidden)."""
    st = el.get("style")
    if st is None or not isinstance(el.tag, str):
        return False
    folded = st.translate(_STYLE_FOLD)
    return "display:none" in folded or "visibility:hidden" in folded


#: The whole-page search `visible_posts` made before; `_inline_hidden` is its per-element form (tested equal).
_INLINE_XPATH = etree.XPath("//*[@style][contains(translate(@style, 'DISPLAYNOEVBIH ', 'displaynoevbih'), 'display:none')"
                            " or contains(translate(@style, 'DISPLAYNOEVBIH ', 'displaynoevbih'), 'visibility:hidden')]")


def _has_hiding_style(root: Any) -> bool:
    return any(_HIDING.search(s.text or "") for s in root.iter("style"))
