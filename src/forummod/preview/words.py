"""Babel extraction method for the pages' own words (the console's labels, the drafts section's).

Their sentences live in Python modules, not in `templates/`: the drafts section's inside Jinja
strings as `T("…")` calls, its code's as `T("…")` calls, the console's in the `LABELS` table.
`babel.cfg` points this method at those modules with their msgctxt (`context = console`), so
`python -m forummod.render.catalog_tools extract` / `update` see them like any template message.
Reads the source only (nothing is imported), so it runs on any checkout.
"""

from __future__ import annotations

import ast
from typing import IO, Any, Iterator

#: The call that marks a sentence of a page (the `words()` of preview/page.py).
MARKER = "T"


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, str]
            ) -> Iterator[tuple[int, str, tuple[str, str], list[str]]]:
    """(line, "pgettext", (context, msgid), []) for every page sentence of one module."""
    context = options.get("context", "")
    tree = ast.parse(fileobj.read().decode("utf-8"))
    for line, msgid in _sentences(tree):
        yield line, "pgettext", (context, msgid), []


def _sentences(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == MARKER \
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            yield node.lineno, node.args[0].value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "{{" in node.value:
            yield from _template_sentences(node.value, node.lineno)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "LABELS" \
                and isinstance(node.value, ast.Dict):
            for entry in node.value.values:  # label -> (English, the drafts' msgid or "")
                english, catalog_msgid = ast.literal_eval(entry)
                if not catalog_msgid:  # the others are the drafts' own entries, extracted from templates/
                    yield entry.lineno, english


def _template_sentences(source: str, first_line: int) -> Iterator[tuple[int, str]]:
    """The constant `T("…")` arguments of a Jinja template held in a Python string."""
    from jinja2 import Environment
    from jinja2.ext import extract_from_ast

    for line, _func, message in extract_from_ast(Environment().parse(source), gettext_functions=(MARKER,)):
        first = message[0] if isinstance(message, tuple) else message  # a tuple: the call has keywords
        if isinstance(first, str):
            yield first_line + line - 1, first
