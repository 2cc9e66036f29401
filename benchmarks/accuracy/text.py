"""Post HTML as the lines a moderator typed, and names folded the way a reader compares them.

A moderator's vote count is read line by line: quotes (someone else's words) and struck-through
text (a withdrawn vote shown as ~~name~~) are dropped, line breaks and block ends become line
ends, and a name split into one tag a letter (coloured counts) reads as one word again.
"""

from __future__ import annotations

import re
from functools import lru_cache

import lxml.html

from forummod.extract.normalize import compact, fold

_BR = re.compile(r"(?i)<br\s*/?>")
_BLOCK_END = re.compile(r"(?i)</(p|li|ul|ol|tr|table|h\d|blockquote|dl|dd|dt|pre)>")


def _struck(el) -> bool:
    style = (el.get("style") or "").replace(" ", "").lower()
    return "line-through" in style or el.tag in ("s", "strike", "del")


def _spoiler(el) -> bool:
    """phpBB's spoiler box: a div holding a "quotetitle" and a "quotecontent" div."""
    return el.tag == "div" and any(c.get("class") == "quotetitle" for c in el if isinstance(c.tag, str))


@lru_cache(maxsize=4096)
def post_lines(html: str, spoilers: bool = True) -> tuple[str, ...]:
    """The post's own text as stripped, non-empty lines (quotes and struck text left out, and
    spoiler boxes too when `spoilers` is false)."""
    if not html.strip():
        return ()
    src = _BLOCK_END.sub(lambda m: m.group(0) + "\n", _BR.sub("\n", html))
    try:
        root = lxml.html.fragment_fromstring(src, create_parent="div")
    except Exception:  # noqa: BLE001 - an unreadable body is an empty post for counting
        return ()
    drop = list(root.iter("blockquote")) + [e for e in root.iter() if isinstance(e.tag, str) and _struck(e)]
    if not spoilers:
        drop += [e for e in root.iter("div") if _spoiler(e)]
    for el in drop:
        if el.getparent() is not None:
            tail = el.tail
            parent = el.getparent()
            prev = el.getprevious()
            parent.remove(el)
            if tail:
                if prev is not None:
                    prev.tail = (prev.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
    text = root.text_content().replace("\xa0", " ")
    return tuple(ln.strip() for ln in text.splitlines() if ln.strip())


def key(name: str) -> str:
    """A name as a comparison key: folded (case, accents, look-alikes) and compacted (no spaces
    or punctuation), so "Nacho Mamma 8" and "nachomamma8" are one key."""
    return compact(fold(name))


def words_of(text: str) -> str:
    """Lowercase text with runs of non-alphanumerics as one space (for phrase searches)."""
    return " " + re.sub(r"[^0-9a-z]+", " ", fold(text).lower()) + " "
