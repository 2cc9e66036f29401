"""The publication marker: how a post finds itself again after a crash.

`publish` records a marker like `fm-12-3f9a0c1b2d` before sending and writes it into the
post, as literal text the adapters' `find_published` can look for in the GM's recent posts
(`forum.write.has_marker`: text, attributes or comments). It is hidden as well as the
markup allows:

- Markdown: an empty link `[](#fm-…)`, which renders as nothing (CommonMark, Discourse,
  Reddit) and survives in the rendered HTML as `href="#fm-…"`.
- BBCode has no comment, so the marker is the last line in the smallest size the forum
  knows (`[size=1]`: 1% on phpBB, the smallest step on SMF, vBulletin, XenForo).
"""

from __future__ import annotations

import re

_MARKER_RX = re.compile(r"^fm-[a-z0-9-]{4,60}$")
_FIND_RX = re.compile(r"fm-[0-9]+-[0-9a-f]{6,32}")


def valid_marker(marker: str) -> bool:
    return bool(_MARKER_RX.match(marker))


def embed_marker(body: str, marker: str, markup: str) -> str:
    """`body` with `marker` at its end, as hidden as `markup` allows (plain text: unchanged)."""
    if not valid_marker(marker):
        raise ValueError(f"bad marker {marker!r}")
    if markup == "markdown":
        return body.rstrip("\n") + f"\n\n[](#{marker})\n"
    if markup == "bbcode":
        return body.rstrip("\n") + f"\n[size=1]{marker}[/size]\n"
    return body


def find_markers(text: str) -> set[str]:
    """Every marker in a post's text or HTML."""
    return set(_FIND_RX.findall(text))


def strip_marker(text: str, markup: str) -> str:
    """The text without an embedded marker (e.g. to compare a found post with its draft)."""
    if markup == "markdown":
        return re.sub(r"\n*\[\]\(#fm-[a-z0-9-]{4,60}\)\n?$", "\n", text)
    return re.sub(r"\n?\[size=1\]fm-[a-z0-9-]{4,60}\[/size\]\n?$", "\n", text)
