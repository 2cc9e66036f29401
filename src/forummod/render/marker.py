"""The publication marker: how a post finds itself again after a crash.

`publish` records a marker like `fm-12-3f9a0c1b2d` before sending and writes it into the
post, as literal text the adapters' `find_published` can look for in the GM's recent posts
(`forum.write.has_marker`: text, attributes or comments). It is hidden as well as the
markup allows:

- Markdown: an empty link `[](#fm-…)`, which renders as nothing (CommonMark, Discourse,
  Reddit) and survives in the rendered HTML as `href="#fm-…"`.
- BBCode has no comment, so the marker is the last line in the smallest size the forum
  knows (`[size=1]`: 1% on phpBB, the smallest step on SMF, vBulletin, XenForo).

An engine profile can name its own form (`marker_form`, with `{marker}`): the one its real
software renders invisibly and still prints into the page (issue 15), e.g. SMF 2.1's
`[size=1]` is 0.7em, readable, so its profile writes `[size=1px][color=transparent]...`.
"""

from __future__ import annotations

import re

_MARKER_RX = re.compile(r"^fm-[a-z0-9-]{4,60}$")
_FIND_RX = re.compile(r"fm-[0-9]+-[0-9a-f]{6,32}")


def valid_marker(marker: str) -> bool:
    return bool(_MARKER_RX.match(marker))


def default_form(markup: str) -> str:
    """Today's form for a markup, used where the engine's profile names none ("" = no marker)."""
    return {"markdown": "[](#{marker})", "bbcode": "[size=1]{marker}[/size]"}.get(markup, "")


def check_form(form: str) -> str:
    """`form` when it holds `{marker}` exactly once and no other placeholder; ValueError otherwise."""
    if form.count("{marker}") != 1 or re.search(r"\{(?!marker\})|(?<!\{marker)\}", form) or "\n" in form:
        raise ValueError("a marker form holds {marker} once, on one line, and no other { }")
    return form


def embed_marker(body: str, marker: str, markup: str, form: str = "") -> str:
    """`body` with `marker` at its end, as hidden as `markup` (or the engine's `form`) allows
    (plain text: unchanged)."""
    if not valid_marker(marker):
        raise ValueError(f"bad marker {marker!r}")
    form = form or default_form(markup)
    if not form:
        return body
    sep = "\n\n" if markup == "markdown" else "\n"
    return body.rstrip("\n") + sep + check_form(form).replace("{marker}", marker) + "\n"


def find_markers(text: str) -> set[str]:
    """Every marker in a post's text or HTML."""
    return set(_FIND_RX.findall(text))


def strip_marker(text: str, markup: str, form: str = "") -> str:
    """The text without an embedded marker (e.g. to compare a found post with its draft)."""
    form = form or default_form(markup) or default_form("bbcode")
    head, tail = check_form(form).split("{marker}")
    rx = r"\n*" + re.escape(head) + r"fm-[a-z0-9-]{4,60}" + re.escape(tail) + r"\n?$"
    return re.sub(rx, "\n", text)
