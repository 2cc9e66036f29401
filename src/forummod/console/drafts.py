"""The drafts section of the console: the preview page's own cards, placed inside the console.

The drafts' look (cards, states, buttons, copy, edit) belongs to `preview.page`; this takes the
body of the page it renders for one game's drafts, without its heading, plus its style and the
hashes of its own scripts (those it renders with no draft at all: never a draft's text), so
the console's CSP lets exactly those run.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)
_H1 = re.compile(r"<h1[^>]*>.*?</h1>", re.S | re.I)
_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@dataclass(frozen=True)
class DraftsSection:
    html: Markup
    style: str
    script_hashes: tuple[str, ...]  # CSP sources ('sha256-...') of the preview page's own scripts


def script_hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


def drafts_section(ws: Any, gid: str, token: str) -> DraftsSection:
    """`gid`'s drafts as the preview page renders them (same cards, same stale marks)."""
    from forummod.drafting import draft_states
    from forummod.preview.page import card, engine_markup, render_page

    rows = list(ws.store.drafts(gid))
    states = draft_states(ws, rows)  # stale or fresh: the same answer as `forummod drafts`
    markup = engine_markup(ws.cfg, gid)
    cards = [card(r, ws.store.publication(r.id), markup, states[r.id]) for r in rows]
    page = render_page(cards, token)
    own = {m.group(1) for m in _SCRIPT.finditer(render_page([], token))}
    body = _BODY.search(page)
    inner = _H1.sub("", body.group(1) if body else page, count=1)
    return DraftsSection(Markup(inner), "\n".join(m.group(1) for m in _STYLE.finditer(page)),
                         tuple(sorted(script_hash(code) for code in own)))
