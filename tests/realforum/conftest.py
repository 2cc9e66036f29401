"""Fixtures of the real-forum suite: FlaskBB, Spirit, MyBB, phpBB and SMF on 127.0.0.1, seeded with
game_script.toml.

    flaskbb_forum, spirit_forum, mybb_forum, phpbb_forum, smf_forum
                                  session scope: installed (cached), seeded (cached), started once
    real_forum                    session scope, parametrized over every engine
    flaskbb_fresh, spirit_fresh, mybb_fresh, phpbb_fresh, smf_fresh, fresh_forum
                                  function scope: the same servers, reset to the seeded state
                                  after the test (use them in tests that write)
    game_script                   the parsed game script (no server)

An engine that cannot be installed here (no Python 3.12 for FlaskBB, no package index, no PHP
or no forum tarball for MyBB/phpBB) skips its tests with the reason. FORUMMOD_REALFORUM_REQUIRE
turns skips into failures for a CI that must run them: "all", or engine names ("flaskbb,spirit,mybb,phpbb"), or "any" (the run fails when
real-forum tests were selected and no engine at all could be installed). Every test that uses
these fixtures is marked `realforum` (deselect with -m "not realforum").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from .base import RealForum
from .flaskbb_engine import FlaskBBForum
from .harness import EngineUnavailable
from .mybb_engine import MyBBForum
from .phpbb_engine import PhpBBForum
from .script import GameScript
from .smf_engine import SmfForum
from .spirit_engine import SpiritForum

ENGINES: dict[str, type[RealForum]] = {"flaskbb": FlaskBBForum, "spirit": SpiritForum, "mybb": MyBBForum,
                                    "phpbb": PhpBBForum, "smf": SmfForum}
FORUM_FIXTURES = frozenset({f"{e}_{kind}" for e in ENGINES for kind in ("forum", "fresh")} | {"real_forum", "fresh_forum"})
_started: list[RealForum] = []
_unavailable: dict[str, str] = {}


def _wanted() -> set[str]:
    value = os.environ.get("FORUMMOD_REALFORUM_REQUIRE", "").lower()
    return {v.strip() for v in value.split(",") if v.strip()}


def _required(engine: str) -> bool:
    wanted = _wanted()
    return "all" in wanted or engine in wanted


def _provide(engine: str, tmp_path_factory: pytest.TempPathFactory) -> RealForum:
    forum = ENGINES[engine](Path(tmp_path_factory.mktemp(f"realforum-{engine}")))
    try:
        forum.prepare()
    except EngineUnavailable as e:
        forum.close()
        _unavailable[engine] = str(e)
        if _required(engine):
            pytest.fail(f"{engine} is required (FORUMMOD_REALFORUM_REQUIRE) but unavailable: {e}", pytrace=False)
        pytest.skip(f"{engine} unavailable: {e}")
    except BaseException:
        forum.close()
        raise
    _started.append(forum)
    return forum


@pytest.fixture(scope="session")
def game_script() -> GameScript:
    return GameScript.load()


@pytest.fixture(scope="session")
def flaskbb_forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealForum]:
    forum = _provide("flaskbb", tmp_path_factory)
    yield forum
    forum.close()


@pytest.fixture(scope="session")
def spirit_forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealForum]:
    forum = _provide("spirit", tmp_path_factory)
    yield forum
    forum.close()


@pytest.fixture(scope="session")
def mybb_forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealForum]:
    forum = _provide("mybb", tmp_path_factory)
    yield forum
    forum.close()


@pytest.fixture(scope="session")
def phpbb_forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealForum]:
    forum = _provide("phpbb", tmp_path_factory)
    yield forum
    forum.close()


@pytest.fixture(scope="session")
def smf_forum(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealForum]:
    forum = _provide("smf", tmp_path_factory)
    yield forum
    forum.close()


@pytest.fixture(scope="session", params=sorted(ENGINES))
def real_forum(request: pytest.FixtureRequest) -> RealForum:
    return request.getfixturevalue(f"{request.param}_forum")


def _fresh(forum: RealForum) -> Iterator[RealForum]:
    if not forum.is_up():  # a test before this one stopped it
        forum.start()
    yield forum
    forum.reset()


@pytest.fixture
def flaskbb_fresh(flaskbb_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(flaskbb_forum)


@pytest.fixture
def spirit_fresh(spirit_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(spirit_forum)


@pytest.fixture
def mybb_fresh(mybb_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(mybb_forum)


@pytest.fixture
def phpbb_fresh(phpbb_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(phpbb_forum)


@pytest.fixture
def smf_fresh(smf_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(smf_forum)


@pytest.fixture
def fresh_forum(real_forum: RealForum) -> Iterator[RealForum]:
    yield from _fresh(real_forum)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if FORUM_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.realforum)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """FORUMMOD_REALFORUM_REQUIRE=any: the run fails when real-forum tests ran but no engine
    could be installed (each skipped), so a CI never passes on skips alone."""
    if "any" in _wanted() and _unavailable and not _started and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if not _started and not _unavailable:
        return
    terminalreporter.section("real forums")
    for forum in _started:
        terminalreporter.write_line(f"{forum.engine} {forum.version} at {forum.base_url}: {forum.timings.summary()}")
    for engine, reason in _unavailable.items():
        terminalreporter.write_line(f"{engine}: unavailable ({reason})")
    if "any" in _wanted() and _unavailable and not _started:
        terminalreporter.write_line("FORUMMOD_REALFORUM_REQUIRE=any: no engine could run: failing the run")
