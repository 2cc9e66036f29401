"""A site's adapter compiles its engine's profile only (issue 30: compiling all thirteen was a
third of a cron poll with nothing new); the user's folder still wins over the bundled profile,
whatever its file is called, and an unknown engine still names the known ones."""

from __future__ import annotations

import pytest

import forummod.forum.profile as profile
from forummod.errors import UnknownEngine
from forummod.forum import registry
from forummod.resources import bundled_dir


@pytest.fixture
def compiled(monkeypatch):
    registry.clear_cache()
    names = []
    real = profile.parse_profile

    def counting(data, path=None):
        names.append(data.get("name"))
        return real(data, path)

    monkeypatch.setattr(profile, "parse_profile", counting)
    yield names
    registry.clear_cache()


def test_the_adapters_profile_is_the_only_one_compiled(compiled):
    prof = registry.get_profile("phpbb")
    assert prof.name == "phpbb" and compiled == ["phpbb"]
    assert registry.get_profile("phpbb") is prof and compiled == ["phpbb"]  # once per process
    assert registry.find_profile("archive") is None and compiled == ["phpbb"]


def test_a_user_profile_of_that_name_wins_whatever_its_file(tmp_path, compiled):
    text = (bundled_dir("adapters") / "phpbb.toml").read_text(encoding="utf-8")
    (tmp_path / "my-board.toml").write_text(text.replace('title = "phpBB 3.x', 'title = "My phpBB 3.x', 1),
                                            encoding="utf-8")
    assert registry.get_profile("phpbb", tmp_path).title.startswith("My phpBB") and compiled == ["phpbb"]
    assert registry.get_profile("phpbb", tmp_path).raw == registry.profiles(tmp_path)["phpbb"].raw


def test_an_unknown_engine_names_the_known_ones(compiled):
    with pytest.raises(UnknownEngine, match="known: .*phpbb.*xenforo"):
        registry.get_profile("phpbbb")
