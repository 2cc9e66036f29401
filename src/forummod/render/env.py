"""The Jinja environment that turns view models into post text.

- Loader stack: the user's templates folder first, then the bundled `templates/`; the bundled
  ones are also reachable as `default:<name>`, so a user template can extend the default:
  `{% extends "default:votecount/bbcode.it.j2" %}` and override one block.
- `StrictUndefined`: a misspelt field is an error at render time, never an empty string.
- Escaping per markup: every `{{ value }}` is escaped for the post's markup (BBCode or
  Markdown, see `escape.py`) unless it is `Safe` (a phrasebook sentence, a macro's output).
  Jinja's autoescape machinery is on only so that macros and `{% set %}` blocks keep their
  output as markup; the escaping itself is ours (`finalize`). Build text with literal template
  text around `{{ }}` rather than `~` concatenation, which would escape HTML-style.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined

from forummod.render.escape import Safe, escape, safe_url
from forummod.resources import search_path


def template_name(kind: str, markup: str, lang: str) -> str:
    return f"{kind}/{markup}.{lang}.j2"


def make_env(markup: str, user_dir: Path | None = None) -> Environment:
    """A fresh environment for one markup; prefer `get_env`, which caches."""
    dirs = [str(d) for d in search_path("templates", user_dir)]
    bundled = FileSystemLoader(dirs[-1])
    loader = ChoiceLoader([PrefixLoader({"default": bundled}, delimiter=":"), FileSystemLoader(dirs)])

    def finalize(value: Any) -> Safe:
        return escape(value, markup)

    env = Environment(loader=loader, undefined=StrictUndefined, autoescape=True, finalize=finalize,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, auto_reload=True)
    env.filters["e"] = env.filters["escape"] = env.filters["forceescape"] = lambda v: escape(v, markup)
    env.filters["join"] = lambda items, sep=", ": _join(items, sep, markup)
    env.filters["url"] = lambda u: Safe(safe_url(str(u)))
    env.filters["raw"] = lambda v: Safe(str(v))
    env.filters["blockquote"] = lambda v: blockquote(v, markup)
    env.globals["markup"] = markup
    return env


@lru_cache(maxsize=16)
def get_env(markup: str, user_dir: Path | None = None) -> Environment:
    return make_env(markup, user_dir)


def _join(items: Iterable[Any], sep: str, markup: str) -> Safe:
    return Safe(str(escape(sep, markup) if not hasattr(sep, "__html__") else sep).join(
        str(escape(i, markup)) for i in items))


def blockquote(text: Any, markup: str) -> Safe:
    """Quoted text (e.g. a post a finding is about) as a quote block, escaped line by line."""
    if markup == "markdown":
        lines = str(escape(text, markup)).splitlines() or [""]
        return Safe("\n".join(f"> {ln}" if ln.strip() else ">" for ln in lines))
    if markup == "bbcode":
        return Safe(f"[quote]{escape(text, markup)}[/quote]")
    return escape(text, markup)


def render_template(kind: str, markup: str, lang: str, post: Any, user_dir: Path | None = None) -> str:
    """Render `post` (a view model) with the template for (kind, markup, lang)."""
    env = get_env(markup, user_dir)
    tmpl = env.get_template(template_name(kind, markup, lang))
    text = tmpl.render(post=post)
    return _tidy(text)


def _tidy(text: str) -> str:
    """Strip trailing spaces and runs of blank lines that template logic leaves behind."""
    lines = [ln.rstrip() for ln in text.splitlines()]
    out: list[str] = []
    for ln in lines:
        if not ln and out and not out[-1]:
            continue
        out.append(ln)
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return "\n".join(out) + "\n"
