"""Fixtures of the forum-adapter tests: profiles, a fixed `now`, a no-sleep HTTP policy."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from forummod.forum import http as fhttp
from forummod.forum.registry import profiles as _profiles

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def profiles():
    return _profiles()


@pytest.fixture
def now():
    return datetime(2020, 9, 1, 12, 0, tzinfo=timezone.utc)


class FakeClock:
    """Monotonic and wall clock that only move when `sleep` is called."""

    def __init__(self, start: float = 1_600_000_000.0):
        self.t = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.sleeps.append(s)
        self.t += s


@pytest.fixture
def clock():
    fhttp.reset_limiters()
    yield FakeClock()
    fhttp.reset_limiters()
