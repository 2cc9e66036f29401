"""The layers DESIGN.md draws, read from the imports of `src/forummod` (issue 21).

Every import counts, at any level (module top, inside functions, under TYPE_CHECKING), and
``from P import M`` where ``P.M`` is a module counts as an import of ``P.M``. Forbidden edges
are checked transitively: the pure middle (engine, extract, checks, render, markup) reaches
no store, no forum code, no service and no network library through any chain of imports, and
config reaches no forum adapter. No import circle anywhere; importing ``P.M`` runs
``P/__init__`` first, but that implicit edge is not counted, so a package ``__init__``
importing its own submodules is not a circle (its submodules importing the ``__init__`` back is).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

NETWORK = ("requests", "urllib3", "socket", "ssl", "http.client", "http.server", "urllib.request",
           "httpx", "aiohttp")
IO_MODULES = ("forummod.store", "forummod.forum", "forummod.service", "forummod.pipeline",
              "forummod.check_store", "forummod.publish", "forummod.scheduler", "forummod.preview")
PURE = ("forummod.engine", "forummod.extract", "forummod.checks", "forummod.render", "forummod.markup")
FORBIDDEN = {**{layer: IO_MODULES + NETWORK for layer in PURE},
             "forummod.config": ("forummod.forum",) + NETWORK}


def modules(src: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under `src` (packages by their __init__)."""
    out = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """What module `name` imports: known modules by their own name (``from P import M`` of a
    submodule is ``P.M``), outside ones by their dotted name (``from urllib import request``
    gives ``urllib`` and ``urllib.request``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    roots = {k.split(".")[0] for k in known}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                sub = f"{target}.{a.name}"
                if target.split(".")[0] not in roots:  # outside: both, `urllib` and `urllib.request`
                    found.update((target, sub))
                else:  # ours: a submodule by its own name, a name defined in P as P
                    found.add(sub if sub in known else target)
    out = set()
    for imp in found:
        if imp in known:
            out.add(imp)
        elif imp.split(".")[0] in roots:
            prefix = imp
            while prefix and prefix not in known:  # `from P import attr`: the module P
                prefix = prefix.rpartition(".")[0]
            if prefix:
                out.add(prefix)
        else:
            out.add(imp)
    out.discard(name)
    return out


def import_graph(src: Path) -> dict[str, set[str]]:
    mods = modules(src)
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def forbidden_chains(graph: dict[str, set[str]], rules: dict[str, tuple[str, ...]]) -> list[str]:
    """One 'a -> b -> forbidden' chain per module of a layer that reaches a forbidden module."""
    problems = []
    for start in sorted(graph):
        banned = [b for layer, bs in rules.items() if _within(start, layer) for b in bs]
        if not banned:
            continue
        seen = {start: [start]}
        todo = [start]
        while todo:
            mod = todo.pop(0)
            for dep in sorted(graph.get(mod, ())):
                if dep in seen:
                    continue
                seen[dep] = seen[mod] + [dep]
                hit = next((b for b in banned if _within(dep, b)), None)
                if hit:
                    problems.append(" -> ".join(seen[dep]))
                    continue
                if dep in graph:
                    todo.append(dep)
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v] & graph.keys()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# --------------------------------------------------------------------------- the rules on src/


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(SRC)


def test_the_walk_sees_the_whole_package(graph):
    assert {"forummod.config", "forummod.checks.context", "forummod.extract.text",
            "forummod.markup.bbcode"} <= graph.keys()
    assert "forummod.checks.context" in graph["forummod.checks.activity"]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_reaches_no_forbidden_module(graph, layer):
    assert forbidden_chains(graph, {layer: FORBIDDEN[layer]}) == []


def test_checks_import_no_store_forum_or_service(graph):
    # issue 21 item 1: the service writes findings and hands the GM's PMs to the CheckContext
    assert forbidden_chains(graph, {"forummod.checks": ("forummod.store", "forummod.forum", "forummod.service")}) == []


def test_both_bbcode_readers_use_the_one_tag_grammar(graph):
    # issue 21 item 4: HTML (archives, preview) and extraction spans share tokenizer and pairing
    assert "forummod.markup.bbtags" in graph["forummod.markup.bbcode"]
    assert "forummod.markup.bbtags" in graph["forummod.extract.bbcode"]
    assert "forummod.markup.bbcode" not in graph["forummod.extract.bbcode"]  # extraction skips HTML


def test_no_import_circles_in_src(graph):
    assert cycles(graph) == []


# --------------------------------------------------------------------------- the walker itself


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return import_graph(tmp_path)


def test_from_package_import_submodule_counts_as_the_submodule(tmp_path):
    g = _tree(tmp_path, {"app/__init__.py": "", "app/core/__init__.py": "", "app/core/db.py": "",
                         "app/ui.py": "from app.core import db\nfrom app.core import helper_attr\n"})
    assert g["app.ui"] == {"app.core.db", "app.core"}


def test_imports_inside_functions_and_relative_ones_count(tmp_path):
    g = _tree(tmp_path, {"app/__init__.py": "", "app/a.py": "def f():\n    from .b import x\n",
                         "app/b.py": "def g():\n    import socket\n"})
    assert g["app.a"] == {"app.b"}
    assert "socket" in g["app.b"]


def test_a_forbidden_module_reached_through_another_is_reported_with_its_chain(tmp_path):
    g = _tree(tmp_path, {"app/__init__.py": "", "app/pure/__init__.py": "", "app/pure/calc.py": "import app.util\n",
                         "app/util.py": "from urllib import request\n", "app/store.py": ""})
    assert forbidden_chains(g, {"app.pure": ("app.store", "urllib.request")}) == [
        "app.pure.calc -> app.util -> urllib.request"]


def test_a_circle_is_found_but_a_package_init_importing_its_submodules_is_not(tmp_path):
    g = _tree(tmp_path, {"app/__init__.py": "", "app/pkg/__init__.py": "from app.pkg.one import x\n",
                         "app/pkg/one.py": "from app.pkg.two import y\n", "app/pkg/two.py": "",
                         "app/a.py": "def f():\n    import app.b\n", "app/b.py": "from app import a\n"})
    assert cycles(g) == [["app.a", "app.b"]]
