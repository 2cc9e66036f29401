"""The drafts section of the console: the preview page itself, placed inside the console.

The drafts' look and behaviour (cards, order, folds, states, Publish, Edit, copy, live preview)
belong to `preview`; the console takes the body of the page `PreviewServer` renders for one
game, without its heading, with its style and the CSP hashes of the preview page's own scripts
(the scripts of the page rendered with no draft at all, so never a draft's text).
"""

from __future__ import annotations

import base64
import hashlib
import re

from markupsafe import Markup

from forummod.records import frozen

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)
_H1 = re.compile(r"<h1[^>]*>.*?</h1>", re.S | re.I)
_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@frozen
class DraftsSection:
    html: Markup
    style: str


def script_hash(code: str) -> str:
    """The CSP source allowing exactly this inline script."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


def own_script_hashes(empty_page: str) -> tuple[str, ...]:
    """The hashes of the inline scripts of the preview page rendered without drafts."""
    return tuple(sorted({script_hash(m.group(1)) for m in _SCRIPT.finditer(empty_page)}))


def drafts_section(page: str) -> DraftsSection:
    """The preview page's body (its heading dropped) and its style, for the console to embed."""
    body = _BODY.search(page)
    inner = _H1.sub("", body.group(1) if body else page, count=1)
    return DraftsSection(Markup(inner), "\n".join(m.group(1) for m in _STYLE.finditer(page)))
