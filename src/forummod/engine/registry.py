"""Find rulesets by name (`ruleset = "lupus-eresia"` in the config), like chess variants.

Each module in `forummod.engine.rulesets` defines one `Ruleset` subclass with a unique `name`.
A game's ruleset is imported alone, from the module its name points to (``lupus-eresia`` ->
``rulesets.lupus_eresia``): a cron `tally` of a `mafia-majority` game need not import the
village or witch-hunt engines (a fifth of the process). Every ruleset is imported only to
list them all (`ruleset_names`, error messages, the docs), or for a ruleset whose module is
named otherwise.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Mapping

from forummod.engine.ruleset import Ruleset
from forummod.errors import ConfigError
from forummod.schema import load

_CACHE: dict[str, type[Ruleset]] | None = None


def _discover() -> dict[str, type[Ruleset]]:
    global _CACHE
    if _CACHE is None:
        import forummod.engine.rulesets as pkg

        found: dict[str, type[Ruleset]] = {}
        for info in pkgutil.iter_modules(pkg.__path__):
            for obj in _rulesets_in(importlib.import_module(f"{pkg.__name__}.{info.name}")):
                if obj.name in found and found[obj.name] is not obj:
                    raise RuntimeError(f"two rulesets named {obj.name!r}")
                found[obj.name] = obj
        _CACHE = found
    return _CACHE


def ruleset_names() -> list[str]:
    return sorted(_discover())


def _rulesets_in(mod: Any) -> list[type[Ruleset]]:
    # a ruleset may be one module or a subpackage that exports its class
    return [obj for obj in vars(mod).values()
            if isinstance(obj, type) and issubclass(obj, Ruleset) and obj is not Ruleset and obj.name
            and obj.__module__.startswith(mod.__name__)]


_BY_MODULE: dict[str, type[Ruleset] | None] = {}


def _by_module_name(name: str) -> type[Ruleset] | None:
    """The ruleset `name` from the one module named after it, or None (no such module, or it
    defines another name): the caller then looks through every ruleset."""
    if name not in _BY_MODULE:
        found = None
        module = name.replace("-", "_")
        if module.isidentifier() and not module.startswith("_"):
            import importlib.util

            full = f"forummod.engine.rulesets.{module}"
            if importlib.util.find_spec(full) is not None:
                found = next((c for c in _rulesets_in(importlib.import_module(full)) if c.name == name), None)
        _BY_MODULE[name] = found
    return _BY_MODULE[name]


def is_ruleset(name: str) -> bool:
    """Whether a ruleset of this name exists (importing, where it can, only that one)."""
    return _by_module_name(name) is not None or name in _discover()


def get_ruleset_class(name: str) -> type[Ruleset]:
    cls = _by_module_name(name)
    if cls is not None:
        return cls
    try:
        return _discover()[name]
    except KeyError:
        raise ConfigError("ruleset", f"unknown ruleset {name!r} (known: {', '.join(ruleset_names())})") from None


class RulesetNames:
    """`ruleset_names()` for argparse's `choices`, listed only when shown: building the command
    line (every command's parser) then imports no ruleset, and checking a choice imports one."""

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and is_ruleset(name)

    def __iter__(self):
        return iter(ruleset_names())

    def __len__(self) -> int:
        return len(ruleset_names())


def load_ruleset_options(name: str, raw: Mapping[str, Any], path: str = "options") -> Any:
    """Validate a game's `[options]` table against the ruleset's Options dataclass."""
    cls = get_ruleset_class(name)
    return load(cls.Options, dict(_thaw(raw)), path)


def make_ruleset(name: str, raw_options: Mapping[str, Any] | None = None) -> Ruleset:
    cls = get_ruleset_class(name)
    return cls(load_ruleset_options(name, raw_options or {}))


def _thaw(m: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (_thaw(v) if isinstance(v, Mapping) else v) for k, v in m.items()}
