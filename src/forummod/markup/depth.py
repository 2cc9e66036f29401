"""HTML nested deeper than libxml2 can build: cap it before parsing (adapters and extraction).

libxml2 stops building the tree at a nesting depth of about 255 and silently drops the rest of
the document. Both the forum parser and the text model call `cap_depth` when lxml reports that
limit, so a post of a thousand nested quotes neither hides the posts after it nor its author's
own words after the quotes.
"""

from __future__ import annotations

import re


# libxml2 stops building the tree at a nesting depth of about 255 and silently drops the rest
# of the document: one post of a thousand nested quotes would hide every later post of its page
# (and its author's own words after the quotes). Elements deeper than MAX_DEPTH lose their tags
# before parsing; their text stays where it was, inside the deepest kept element (so a vote
# inside a deep quote is still inside a quote). Normal pages never get near the limit.
MAX_DEPTH = 160
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_OPTIONAL_END = frozenset("p li dt dd tr td th thead tbody tfoot option optgroup colgroup rp rt".split())
_TOKEN = re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>|<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*?(/?)>",
                    re.IGNORECASE | re.DOTALL)


def cap_depth(text: str, limit: int = MAX_DEPTH) -> str:
    """`text` with the tags of elements nested deeper than `limit` removed (see MAX_DEPTH)."""
    if text.count("<") <= limit:
        return text
    depth = deepest = 0
    for m in _TOKEN.finditer(text):
        name = (m.group(3) or "").lower()
        if not name or name in _VOID or name in _OPTIONAL_END or m.group(4):
            continue
        depth = max(0, depth - 1) if m.group(2) else depth + 1
        deepest = max(deepest, depth)
    if deepest <= limit:
        return text
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag, kept)
    kept = 0  # kept elements on the stack
    pos = 0
    for m in _TOKEN.finditer(text):
        name = (m.group(3) or "").lower()
        if not name or name in _VOID or name in _OPTIONAL_END or m.group(4):
            continue
        keep = True
        if m.group(2):  # an end tag closes the nearest open element of its name
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    keep = stack[i][1]
                    kept -= sum(1 for _, k in stack[i:] if k)
                    del stack[i:]
                    break
        else:
            keep = kept < limit
            kept += keep
            stack.append((name, keep))
        if not keep:
            out.append(text[pos:m.start()])
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


