"""Find rulesets by name (`ruleset = "lupus-eresia"` in the config), like chess variants.

Each module in `forummod.engine.rulesets` defines one `Ruleset` subclass with a unique `name`.
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
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for obj in vars(mod).values():
                # a ruleset may be one module or a subpackage that exports its class
                if isinstance(obj, type) and issubclass(obj, Ruleset) and obj is not Ruleset and obj.name \
                        and obj.__module__.startswith(mod.__name__):
                    if obj.name in found and found[obj.name] is not obj:
                        raise RuntimeError(f"two rulesets named {obj.name!r}")
                    found[obj.name] = obj
        _CACHE = found
    return _CACHE


def ruleset_names() -> list[str]:
    return sorted(_discover())


def get_ruleset_class(name: str) -> type[Ruleset]:
    try:
        return _discover()[name]
    except KeyError:
        raise ConfigError("ruleset", f"unknown ruleset {name!r} (known: {', '.join(ruleset_names())})") from None


def load_ruleset_options(name: str, raw: Mapping[str, Any], path: str = "options") -> Any:
    """Validate a game's `[options]` table against the ruleset's Options dataclass."""
    cls = get_ruleset_class(name)
    return load(cls.Options, dict(_thaw(raw)), path)


def make_ruleset(name: str, raw_options: Mapping[str, Any] | None = None) -> Ruleset:
    cls = get_ruleset_class(name)
    return cls(load_ruleset_options(name, raw_options or {}))


def _thaw(m: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (_thaw(v) if isinstance(v, Mapping) else v) for k, v in m.items()}
