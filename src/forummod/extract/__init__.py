"""Extraction: posts and PMs in, intents and issues out (pure; see README.md here).

Public API, used by the service:

- `post_text(html) -> PostText` — the player's own text with bold and vote-tag spans;
- `resolve_name(text, roster, ...) -> NameMatch` — a typed name to a roster seat;
- `extract_post(post, ctx) -> Extraction` — votes (and day powers) of a thread post;
- `extract_message(msg, ctx) -> Extraction` — night actions (and PM votes) of a PM;
- `ExtractContext` — the game's settings these need.
"""

from forummod.extract.context import ExtractContext
from forummod.extract.intents import extract_message, extract_post
from forummod.extract.names import NameMatch, resolve_name
from forummod.extract.text import Hidden, PostText, Span, post_text
from forummod.extract.votes import DEFAULT_FORMS, FORMS



def clear_caches() -> None:
    """Forget remembered results (text models, extractions, resolved names): they are pure
    functions of their inputs, so this only matters to a benchmark's cold run or to memory."""
    from forummod.extract import intents, names, normalize, text

    text._remembered.cache_clear()
    intents._MEMOS.clear()
    intents._LAST_MEMO[:] = [None, None]
    intents._KNOWN.clear()
    names._BY_ID.clear()
    names._name_index.cache_clear()
    normalize._fold_map.cache_clear()


__all__ = [
    "DEFAULT_FORMS", "FORMS", "ExtractContext", "Hidden", "NameMatch", "PostText", "Span",
    "clear_caches", "extract_message", "extract_post", "post_text", "resolve_name",
]
