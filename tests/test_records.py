"""`forummod.records.frozen` builds what `@dataclass(frozen=True)` builds: the same repr,
equality, hash, frozen errors, fields, params, `replace`, `asdict`, pickling and subclassing."""

from __future__ import annotations

import dataclasses
import pickle
import sys
from dataclasses import dataclass, field

import pytest

from forummod.records import frozen


def shapes(dec):
    """The same classes under decorator `dec` (one of `frozen` / `dataclass(frozen=True, ...)`)."""

    @dec()
    class Empty:
        """No fields."""

    @dec()
    class One:
        """One field: values are compared and hashed as a 1-tuple."""

        a: float

    @dec()
    class Many:
        """Defaults, a factory, fields left out of repr, compare and hash."""

        a: int
        b: str = "x"
        c: tuple = ()
        d: list = field(default_factory=list, compare=False, hash=False)
        e: str = field(default="hidden", repr=False)
        f: int = field(default=0, hash=False)
        g: int = field(default=0, compare=False, hash=True)

    @dec(kw_only=True)
    class Kw:
        """Keyword-only fields and a post-init check."""

        a: int
        b: str = ""

        def __post_init__(self):
            if self.a < 0:
                raise ValueError("negative")

    @dec()
    class Node:
        """Holds anything, itself too (a recursive repr)."""

        value: object = None

    @dec()
    class Child(Many):
        """A subclass adding a field."""

        h: int = 7

    @dec()
    class OwnRepr:
        """A class writing its own repr keeps it."""

        a: int

        def __repr__(self):
            return "mine"

    return {"Empty": Empty, "One": One, "Many": Many, "Kw": Kw, "Node": Node, "Child": Child, "OwnRepr": OwnRepr}


def plain(**kw):
    return dataclass(frozen=True, **kw)


def ours(**kw):
    return frozen(**kw) if kw else frozen


OLD, NEW = shapes(plain), shapes(ours)

SAMPLES = {
    "Empty": [((), {})],
    "One": [((1.5,), {}), ((float("nan"),), {}), ((-0.0,), {})],
    "Many": [((1,), {}), ((1, "y", (1, 2), [3], "z", 4, 5), {}), ((2,), {"g": 9})],
    "Kw": [((), {"a": 1}), ((), {"a": 2, "b": "q"})],
    "Node": [((), {}), (("x",), {})],
    "Child": [((1,), {}), ((1, "b"), {"h": 3})],
    "OwnRepr": [((1,), {})],
}


def both(name, args, kw):
    return OLD[name](*args, **kw), NEW[name](*args, **kw)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_same_repr_hash_and_params(name):
    old_cls, new_cls = OLD[name], NEW[name]
    assert new_cls.__dataclass_params__.__repr__() == old_cls.__dataclass_params__.__repr__()
    assert [(f.name, f.repr, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(new_cls)] == \
        [(f.name, f.repr, f.compare, f.hash, f.kw_only) for f in dataclasses.fields(old_cls)]
    assert getattr(new_cls, "__match_args__", None) == getattr(old_cls, "__match_args__", None)
    for args, kw in SAMPLES[name]:
        old, new = both(name, args, kw)
        assert repr(new) == repr(old).replace(old_cls.__qualname__, new_cls.__qualname__)
        assert hash(new) == hash(old)
        assert dataclasses.asdict(new) == dataclasses.asdict(old)
        assert dataclasses.astuple(new) == dataclasses.astuple(old)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_same_equality(name):
    samples = SAMPLES[name]
    for a_args, a_kw in samples:
        for b_args, b_kw in samples:
            old_a, new_a = both(name, a_args, a_kw)
            old_b, new_b = both(name, b_args, b_kw)
            assert (new_a == new_b) == (old_a == old_b)
            assert (new_a != new_b) == (old_a != old_b)
            assert (new_a == new_a) == (old_a == old_a)  # a NaN field: the tuple's identity shortcut
    new = NEW[name](*samples[0][0], **samples[0][1])
    assert new.__eq__(object()) is NotImplemented
    assert (new == object()) is False


def test_equality_needs_the_same_class():
    assert NEW["Many"](1) != NEW["Child"](1)
    assert OLD["Many"](1) != OLD["Child"](1)
    assert NEW["Many"](1, d=[1]) == NEW["Many"](1, d=[2])  # compare=False left out, as before
    assert NEW["Many"](1, g=1) == NEW["Many"](1, g=2)
    # hash=True counts a field left out of equality; hash=False leaves out a compared one
    assert hash(NEW["Many"](1, f=3, g=1)) == hash((1, "x", (), "hidden", 1)) == hash(OLD["Many"](1, f=3, g=1))


def test_frozen_errors_replace_and_pickle():
    new = NEW["Many"](1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.a = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del new.a  # type: ignore[misc]
    assert dataclasses.replace(new, a=5) == NEW["Many"](5)
    with pytest.raises(ValueError):
        NEW["Kw"](a=-1)
    with pytest.raises(TypeError):
        NEW["Kw"](1)  # type: ignore[misc]


def test_pickles_like_a_dataclass():
    value = Picklable(1, ("a",))
    assert pickle.loads(pickle.dumps(value)) == value


def test_recursive_repr():
    old, new = OLD["Node"]([]), NEW["Node"]([])
    old.value.append(old)
    new.value.append(new)
    assert repr(new) == repr(old).replace(OLD["Node"].__qualname__, NEW["Node"].__qualname__)
    assert "..." in repr(new)


def test_own_methods_and_order_kept():
    assert repr(NEW["OwnRepr"](1)) == "mine"

    @frozen(order=True)
    class Ordered:
        """order=True is plain dataclass."""

        a: int

    assert Ordered(1) < Ordered(2)
    assert dataclasses.is_dataclass(Ordered)


def test_a_plain_dataclass_can_subclass_it():
    @dataclass(frozen=True)
    class Sub(NEW["Many"]):  # type: ignore[misc, valid-type]
        z: int = 0

    assert Sub(1, z=2) == Sub(1, z=2)
    assert repr(Sub(1)).endswith("Sub(a=1, b='x', c=(), d=[], f=0, g=0, z=0)")


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="the closures stand in for compiled methods on 3.11")
def test_no_compiled_repr_eq_hash_on_311():
    assert NEW["Many"].__repr__.__code__.co_filename == frozen.__code__.co_filename
    assert NEW["Many"].__eq__.__code__.co_filename == frozen.__code__.co_filename
    assert NEW["Many"].__hash__.__code__.co_filename == frozen.__code__.co_filename


@frozen
class Picklable:
    """Module level, so pickle finds it."""

    a: int
    b: tuple
