"""Extraction: posts and PMs in, intents and issues out (pure; see README.md here).

Public API, used by the service:

- `post_text(html) -> PostText` — the player's own text with bold and vote-tag spans;
- `resolve_name(text, roster, ...) -> NameMatch` — a typed name to a roster seat;
- `extract_post(post, ctx) -> Extraction` — votes (and day powers) of a thread post;
- `extract_message(msg, ctx) -> Extraction` — night actions (and PM votes) of a PM;
- `ExtractContext` — the game's settings these need.
"""

from forummod.extract.context import ExtractContext

# The rest is imported on first use (PEP 562): a recount that reuses saved results (a cron
# `tally`) needs only ExtractContext here, not the HTML reader (lxml) or the fuzzy matcher.
_LAZY = {
    "extract_message": "intents", "extract_post": "intents", "NameMatch": "names", "resolve_name": "names",
    "Hidden": "text", "PostText": "text", "Span": "text", "post_text": "text", "DEFAULT_FORMS": "votes",
    "FORMS": "votes",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value



def clear_caches() -> None:
    """Forget remembered results (text models, extractions, resolved names): they are pure
    functions of their inputs, so this only matters to a benchmark's cold run or to memory."""
    from forummod.extract import intents, names, normalize, text, votes

    text._remembered.cache_clear()
    text._PLANS.clear()
    intents._MEMOS.clear()
    intents._LAST_MEMO[:] = [None, None]
    intents._KNOWN.clear()
    names._BY_ID.clear()
    names._name_index.cache_clear()
    normalize._fold_map.cache_clear()
    votes.forget_segments()


__all__ = [
    "DEFAULT_FORMS", "FORMS", "ExtractContext", "Hidden", "NameMatch", "PostText", "Span",
    "clear_caches", "extract_message", "extract_post", "post_text", "resolve_name",
]
