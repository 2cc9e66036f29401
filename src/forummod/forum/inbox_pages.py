"""The next page of a PM inbox: the profile's selector, else the page's own "next" link.

An inbox lists a few PMs a page (SMF 10, phpBB and MyBB 20-25); a GM's first poll after a
busy night, or a poll after a long pause, must read past the first page. The profile names
the engine's next-page link (`[inbox] next`, like the thread's `[pagination] next`); a
profile without one falls back to what pagers put on their "next" link: `rel="next"` on an
anchor, a next-ish class or label, a pager link reading "Next" / "›" in one of the tool's
languages, or the pager's link numbered one after the current page. `<link rel="next">` in the head is not used: SMF puts the next *topic*
there. Pure functions; the walk itself (stop rules, page cap) is the adapter's.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from forummod.forum.html_engine import first, parse_html

#: what a pager's "next" link says (its text, title or aria-label), in the tool's languages
_NEXT_WORDS = re.compile(
    r"^\s*(?:next(?:\s+page)?|successiv[ao]|pagina\s+successiva|avanti|weiter|nächste(?:\s+seite)?|"
    r"suivant(?:e)?|page\s+suivante|volgende|следующая|вперёд|вперед|下一页|下页|后页)?\s*[›»→>]*\s*$",
    re.IGNORECASE)
_ARROWS = re.compile(r"^\s*[›→>]\s*$")  # a lone "»" is as often the last page
_PAGER = re.compile(r"pag|nav|pager", re.IGNORECASE)
_NEXT_CLASS = re.compile(r"(?:^|[\s_-])next(?:$|[\s_-])", re.IGNORECASE)


def _usable(href: str | None, url: str) -> str | None:
    if not href or href.startswith(("#", "javascript")):
        return None
    nxt = urljoin(url, href)
    a, b = urlsplit(nxt), urlsplit(url)
    if (a.scheme, a.netloc) != (b.scheme, b.netloc) or nxt.split("#")[0] == url.split("#")[0]:
        return None  # another site, or this very page
    return nxt


def _label(a: Any) -> str:
    text = " ".join(a.text_content().split())
    return text or a.get("aria-label") or a.get("title") or ""


def _in_pager(a: Any) -> bool:
    for node in [a, *a.iterancestors()][:5]:
        if _PAGER.search(node.get("class") or "") or node.tag == "nav":
            return True
    return False


def generic_next(root: Any, url: str) -> str | None:
    """A "next page" link as pagers write it, when the profile names none."""
    for a in root.iter("a"):
        if "next" in (a.get("rel") or "").lower().split():
            found = _usable(a.get("href"), url)
            if found:
                return found
    for a in root.iter("a"):
        if not _in_pager(a):
            continue
        classes = " ".join([a.get("class") or ""] + [c.get("class") or "" for c in a.iter() if c is not a])
        label = _label(a)
        words = label and _NEXT_WORDS.match(label) and not label.strip().isdigit()
        if _NEXT_CLASS.search(classes) or (words and (re.search(r"\w", label) or _ARROWS.match(label))):
            found = _usable(a.get("href"), url)
            if found:
                return found
    return _after_current(root, url)


def _after_current(root: Any, url: str) -> str | None:
    """The pager link numbered one more than the page shown as plain text (the current page:
    "1" in a span or strong, "2", "3" as links), for pagers whose next link is only an icon."""
    for pager in root.iter():
        if not isinstance(pager.tag, str) or pager.tag == "a" or not _PAGER.search(pager.get("class") or ""):
            continue
        anchors = {" ".join(a.text_content().split()): a for a in pager.iter("a") if _usable(a.get("href"), url)}
        # the current page: a number that links nowhere (plain text, or FlaskBB's href="#")
        current = [el for el in pager.iter() if isinstance(el.tag, str) and (el.text or "").strip().isdigit()
                   and not any(_usable(n.get("href"), url) for n in (el, *el.iterancestors()) if n.tag == "a")]
        for el in current:
            nxt = anchors.get(str(int((el.text or "").strip()) + 1))
            found = _usable(nxt.get("href"), url) if nxt is not None else None
            if found:
                return found
    return None


def inbox_next_url(profile: Any, html: str, url: str) -> str | None:
    """The URL of the inbox page after this one, or None on the last page."""
    root = parse_html(html)
    if profile.inbox.next:
        return _usable(first(profile.inbox.next, root), url)
    return generic_next(root, url)
