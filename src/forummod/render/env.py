"""The Jinja environment that turns view models into post text.

- One template per kind and markup (`votecount/bbcode.j2`); its sentences go through Jinja's
  i18n extension (`{% trans %}`, `_()`) into the language's gettext catalog (`catalog.py`).
- Loader stack: the user's templates folder first, then the bundled `templates/`. For a post
  in language `it` the first of `votecount/bbcode.it.j2` (a GM's own Italian template) and
  `votecount/bbcode.j2` found wins. The bundled ones are also reachable as `default:<name>`, so
  a user template can extend the default and override one block:
  `{% extends "default:votecount/bbcode.j2" %}` (`default:votecount/bbcode.it.j2` names the
  same bundled template, as before the templates were shared by all languages).
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

import re

from jinja2 import (
    BaseLoader, ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, StrictUndefined, TemplateError,
    TemplateNotFound, TemplateSyntaxError,
)

from forummod.errors import TemplateFailure

from forummod.render.catalog import catalog
from forummod.render.escape import Safe, bold, escape, italic, safe_url
from forummod.resources import search_path

_LANG_NAME = re.compile(r"^(?P<base>.+/[a-z]+)\.(?P<lang>[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?)\.j2$")


def template_name(kind: str, markup: str, lang: str = "") -> str:
    """`votecount/bbcode.it.j2` (a language's own template), or the shared `votecount/bbcode.j2`."""
    return f"{kind}/{markup}.{lang}.j2" if lang else f"{kind}/{markup}.j2"


class _DefaultLoader(BaseLoader):
    """The bundled templates under `default:`; a language-specific name falls back to the shared
    template, so a GM's `{% extends "default:votecount/bbcode.it.j2" %}` keeps working."""

    def __init__(self, path: str):
        self.fs = FileSystemLoader(path)

    def get_source(self, environment, template):  # type: ignore[no-untyped-def]
        try:
            return self.fs.get_source(environment, template)
        except TemplateNotFound:
            m = _LANG_NAME.match(template)
            if m is None:
                raise
            return self.fs.get_source(environment, f"{m['base']}.j2")

    def list_templates(self) -> list[str]:
        return self.fs.list_templates()


def install_translations(env: Environment, lang: str, markup: str) -> None:
    """`gettext`, `ngettext`, `pgettext`, `npgettext` and `_` for templates, in `lang`.

    New-style gettext: a `{% trans %}` block calls these with its variables, and the value each
    returns is Safe markup: the translation as template text, every variable escaped for the
    markup like any `{{ value }}`. A count (`{% trans count=n %}`) picks the plural form of the
    language's catalog.
    """

    def fill(text: str, variables: dict[str, Any]) -> Safe:
        return Safe(text % {k: escape(v, markup) for k, v in variables.items()})

    def gettext(message: str, **variables: Any) -> Safe:
        return fill(catalog(lang).gettext(message), variables)

    def pgettext(context: str, message: str, **variables: Any) -> Safe:
        return fill(catalog(lang).gettext(message, context), variables)

    def ngettext(singular: str, plural: str, num: Any, **variables: Any) -> Safe:
        variables.setdefault("num", num)
        return fill(catalog(lang).ngettext(singular, plural, _count(num)), variables)

    def npgettext(context: str, singular: str, plural: str, num: Any, **variables: Any) -> Safe:
        variables.setdefault("num", num)
        return fill(catalog(lang).ngettext(singular, plural, _count(num), context), variables)

    env.globals.update(gettext=gettext, _=gettext, pgettext=pgettext, ngettext=ngettext, npgettext=npgettext)
    env.globals["lang"] = lang


def _count(num: Any) -> float:
    """A view model's count ("3", "1.5") as a number for the plural choice."""
    try:
        return float(str(num).replace(",", "."))
    except ValueError:
        return 0.0


DEFAULT_SMALL_FORMS = {"bbcode": "[size=85]{text}[/size]", "markdown": "*{text}*", "html": "<small>{text}</small>"}


def small(text: Any, markup: str, form: str = "") -> Safe:
    """Small print (the count's "as of" line) in the engine's own form: BBCode size values mean
    different things per engine (percent on phpBB, points on MyBB, 1-7 on vBulletin/XenForo)."""
    form = form or DEFAULT_SMALL_FORMS.get(markup, "{text}")
    return Safe(form.replace("{text}", str(escape(text, markup))))


def make_env(markup: str, user_dir: Path | None = None, lang: str = "en", small_form: str = "") -> Environment:
    """A fresh environment for one markup and language; prefer `get_env`, which caches."""
    dirs = [str(d) for d in search_path("templates", user_dir)]
    loader = ChoiceLoader([PrefixLoader({"default": _DefaultLoader(dirs[-1])}, delimiter=":"),
                           FileSystemLoader(dirs)])

    def finalize(value: Any) -> Safe:
        return escape(value, markup)

    env = Environment(loader=loader, undefined=StrictUndefined, autoescape=True, finalize=finalize,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, auto_reload=True,
                      extensions=["jinja2.ext.i18n"])
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.policies["ext.i18n.trimmed"] = True
    install_translations(env, lang, markup)
    env.filters["e"] = env.filters["escape"] = env.filters["forceescape"] = lambda v: escape(v, markup)
    env.filters["join"] = lambda items, sep=", ": _join(items, sep, markup)
    env.filters["url"] = lambda u: Safe(safe_url(str(u)))
    env.filters["raw"] = lambda v: Safe(str(v))
    env.filters["blockquote"] = lambda v: blockquote(v, markup)
    env.filters["bold"] = lambda v: bold(escape(v, markup), markup)
    env.filters["italic"] = lambda v: italic(escape(v, markup), markup)
    env.filters["small"] = lambda v: small(v, markup, small_form)
    env.globals["markup"] = markup
    return env


@lru_cache(maxsize=64)
def get_env(markup: str, user_dir: Path | None = None, lang: str = "en", small_form: str = "") -> Environment:
    return make_env(markup, user_dir, lang, small_form)


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


def render_template(kind: str, markup: str, lang: str, post: Any, user_dir: Path | None = None, *,
                    small_form: str = "") -> str:
    """Render `post` (a view model) with the template for (kind, markup, lang)."""
    env = get_env(markup, user_dir, lang, small_form)
    names = [template_name(kind, markup, lang), template_name(kind, markup)]
    try:
        tmpl = env.select_template(names)
        text = tmpl.render(post=post)
    except TemplateSyntaxError as e:
        raise TemplateFailure(e.filename or e.name or names[-1], e.lineno, e.message or str(e)) from None
    except (TemplateError, TypeError, ValueError, AttributeError, KeyError, ZeroDivisionError) as e:
        where = _template_frame(e)
        if where is None and not isinstance(e, TemplateError):
            raise  # a bug of ours, not of a template
        file, line = where or (names[-1], None)
        raise TemplateFailure(file, line, getattr(e, "message", None) or str(e) or type(e).__name__) from None
    return _tidy(text)


def _template_frame(e: BaseException) -> tuple[str, int] | None:
    """The innermost template file and line in `e`'s traceback (Jinja rewrites its frames so
    that they carry the template's file name and line), or None if no template is in it."""
    found = None
    tb = e.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".j2") or "/templates/" in name and not name.endswith(".py"):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


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
