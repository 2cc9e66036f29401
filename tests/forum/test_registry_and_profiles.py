"""Profiles load, every example URL belongs to exactly one engine, users override bundled profiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from forummod.config import SiteConfig
from forummod.errors import ConfigError, UnknownEngine
from forummod.forum.base import ForumAdapter, ThreadRef
from forummod.forum.profile import load_profile_file
from forummod.forum.registry import adapter_for_url, clear_cache, engines_for_url, known_engines, make_adapter, profiles
from forummod.resources import bundled_dir

ENGINES = {"phpbb", "vbulletin", "xenforo", "discourse", "smf", "invision", "mybb", "forumfree", "discuz",
           "flaskbb", "spirit"}


def test_every_required_engine_has_a_profile_and_archive_is_known():
    assert ENGINES <= set(profiles())
    assert known_engines(None) == ENGINES | {"archive"} | (set(profiles()) - ENGINES)


def test_every_example_url_matches_exactly_one_engine():
    for name, prof in profiles().items():
        assert prof.example_urls, f"{name} has no example URL"
        for url in prof.example_urls:
            assert engines_for_url(url) == [name], url
            assert adapter_for_url(url) == name


def test_unknown_url_is_unknown_engine():
    with pytest.raises(UnknownEngine, match="no engine recognises"):
        adapter_for_url("https://example.org/some/page")


def test_every_profile_documents_how_it_was_verified():
    for name, prof in profiles().items():
        assert prof.verified.startswith(("real", "documentation")), name


def test_generic_example_profile_is_a_valid_profile(tmp_path):
    src = bundled_dir("adapters") / "generic.example.toml"
    prof = load_profile_file(src)
    assert prof.name == "myforum" and prof.posts.container


def test_user_profile_overrides_the_bundled_one(tmp_path):
    src = (bundled_dir("adapters") / "phpbb.toml").read_text(encoding="utf-8")
    (tmp_path / "phpbb.toml").write_text(src.replace('title = "phpBB 3.x', 'title = "My phpBB'), encoding="utf-8")
    clear_cache()
    assert profiles(tmp_path)["phpbb"].title.startswith("My phpBB")
    assert profiles(tmp_path)["phpbb"].path == tmp_path / "phpbb.toml"


def test_bad_selector_is_a_config_error_naming_the_key(tmp_path):
    (tmp_path / "bad.toml").write_text('name = "bad"\n[post]\nauthor = ["div[[["]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"post\.author\[0\]"):
        load_profile_file(tmp_path / "bad.toml")


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_make_adapter_gives_a_forum_adapter_with_a_write_side(engine):
    site = SiteConfig(engine=engine, base_url="https://forum.example.test/")
    ad = make_adapter("s", site)
    assert isinstance(ad, ForumAdapter) and ad.engine == engine
    assert ad.profile.reply.enabled and ad.profile.pm.enabled  # issue 7: every engine can publish
    assert ad.profile.reply.verified and ad.profile.pm.verified


def test_thread_ids_from_urls():
    site = SiteConfig(engine="phpbb", base_url="https://f.test/")
    assert make_adapter("s", site).thread_id(ThreadRef("https://f.test/viewtopic.php?f=2&t=15787&start=50")) == "15787"
    site = SiteConfig(engine="xenforo", base_url="https://f.test/")
    assert make_adapter("s", site).thread_id(ThreadRef("https://f.test/threads/goat.3916359/page-3")) == "3916359"
