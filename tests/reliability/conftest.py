"""Fixtures of the reliability tests: a fake HTTP clock, the demo account's password."""

from __future__ import annotations

import pytest

from forummod.demo.run import PASSWORD_ENV
from tests.reliability.faulty_forum import DEMO_PASSWORD, FakeClock, reset_limiters


@pytest.fixture
def clock():
    reset_limiters()
    yield FakeClock()
    reset_limiters()


@pytest.fixture
def demo_password(monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, DEMO_PASSWORD)
    return DEMO_PASSWORD
