"""Shared fixtures. Third-party pages are read from ../shared/corpus (never copied here);
tests that need them skip cleanly when the folder is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def corpus_root() -> Path:
    env = os.environ.get("FORUMMOD_CORPUS")
    return Path(env) if env else PROJECT_ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    root = corpus_root()
    if not root.is_dir():
        pytest.skip(f"shared corpus not found at {root} (set FORUMMOD_CORPUS)")
    return root


@pytest.fixture(scope="session")
def rules_dir() -> Path:
    root = PROJECT_ROOT.parent / "shared" / "rules"
    if not root.is_dir():
        pytest.skip(f"shared rules not found at {root}")
    return root


@pytest.fixture(autouse=True)
def _own_user_data_dir(tmp_path_factory, monkeypatch):
    """The old shared store lives in the user data dir: no test may read the real one (or a
    store another test left there), so each test gets its own (XDG_DATA_HOME, platformdirs)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
