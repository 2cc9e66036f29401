"""`@frozen`: a frozen dataclass that is cheaper to create at import.

A cron `forummod tally` is a fresh process that creates some 90 frozen dataclasses before it
reads a row, and on CPython 3.11 `dataclasses` compiles six small functions for each one
(`__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__`, `__delattr__`): 0.7-1 ms a
class, about a sixth of the process, of which `frozen` saves some 40%. It lets `dataclasses`
build the class with its `__init__` and frozen `__setattr__`/`__delattr__` as always, and
gives it `__repr__`, `__eq__` and `__hash__` as closures over the field names instead of
compiled code: the same
results (the 3.11 forms: tuples of the fields compared, hashed and printed in field order,
`NotImplemented` for another class, '...' for a recursive repr), the same
`__dataclass_params__`, so `dataclasses.fields`, `replace`, `asdict` and subclassing see an
ordinary `@dataclass(frozen=True)`. Where the three methods could differ (another Python,
`order=True`, a class that writes one of them itself, `eq=False` or `repr=False` asked for)
it is plain `dataclass(frozen=True, ...)`.
"""

from __future__ import annotations

import dataclasses
import sys
from _thread import get_ident
from operator import attrgetter
from typing import Any, Callable, TypeVar

T = TypeVar("T")

#: The Python whose `dataclasses` forms the closures reproduce (3.12 compares with `and`, 3.13
#: compiles one function a class): elsewhere `frozen` is plain `dataclass(frozen=True)`.
_SAME_FORMS = sys.version_info[:2] == (3, 11)
_OWN = ("__repr__", "__eq__", "__hash__")


def frozen(cls: type[T] | None = None, /, **options: Any) -> Any:
    """`@dataclass(frozen=True, **options)`, its repr, equality and hash not compiled (above)."""
    def wrap(c: type[T]) -> type[T]:
        if not _SAME_FORMS or options.get("order") or options.get("eq") is False or options.get("repr") is False \
                or options.get("unsafe_hash") or any(name in c.__dict__ for name in _OWN):
            return dataclasses.dataclass(c, frozen=True, **options)
        out = dataclasses.dataclass(c, frozen=True, repr=False, eq=False, **options)
        fields = dataclasses.fields(out)
        _attach(out, "__repr__", _repr([f.name for f in fields if f.repr]))
        compared = [f.name for f in fields if f.compare]
        _attach(out, "__eq__", _eq(compared))
        _attach(out, "__hash__", _hash([f.name for f in fields if (f.compare if f.hash is None else f.hash)]))
        params = out.__dataclass_params__  # as `dataclass(frozen=True)` records them: repr and eq on
        out.__dataclass_params__ = type(params)(params.init, True, True, params.order, params.unsafe_hash, True)
        return out

    return wrap if cls is None else wrap(cls)


def _attach(cls: type, name: str, fn: Callable[..., Any]) -> None:
    fn.__name__ = name
    fn.__qualname__ = f"{cls.__qualname__}.{name}"
    setattr(cls, name, fn)


def _values(names: list[str]) -> Callable[[Any], tuple]:
    """The fields' values as a tuple, for none or several names (`_eq`, `_hash` take one apart)."""
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


def _eq(names: list[str]) -> Callable[[Any, Any], Any]:
    if len(names) == 1:  # no wrapper around a one-name attrgetter, which gives the bare value
        get = attrgetter(names[0])

        def eq1(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return (get(self),) == (get(other),)
            return NotImplemented

        return eq1
    values = _values(names)

    def eq(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return eq


def _hash(names: list[str]) -> Callable[[Any], int]:
    if len(names) == 1:
        get = attrgetter(names[0])

        def hash1(self: Any) -> int:
            return hash((get(self),))

        return hash1
    values = _values(names)

    def hash_(self: Any) -> int:
        return hash(values(self))

    return hash_


def _repr(names: list[str]) -> Callable[[Any], str]:
    running: set[tuple[int, int]] = set()

    def repr_(self: Any) -> str:
        key = id(self), get_ident()
        if key in running:
            return "..."
        running.add(key)
        try:
            return self.__class__.__qualname__ + "(" + ", ".join(
                [f"{name}={getattr(self, name)!r}" for name in names]) + ")"
        finally:
            running.discard(key)

    return repr_


__all__ = ["frozen"]
