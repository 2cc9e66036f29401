"""Config validation knows the forum engines from the profile files, without the adapters (issue 21)."""

import pytest

from forummod.config import load_config
from forummod.errors import ConfigError
from forummod.forum import registry
from forummod.forum_engines import known_engines

CONFIG = """
[workspace]
adapters_dir = "my-adapters"

[sites.f]
engine = "{engine}"
base_url = "https://forum.example/"

[games.g1]
site = "f"
thread = "https://forum.example/t/1"
ruleset = "mafia-majority"
timezone = "Europe/Rome"
players = [{{ name = "Ann" }}, {{ name = "Bob" }}, {{ name = "Cat" }}]
"""


def write(tmp_path, engine, profiles):
    folder = tmp_path / "my-adapters"
    folder.mkdir()
    for name, text in profiles.items():
        (folder / name).write_text(text, encoding="utf-8")
    p = tmp_path / "forummod.toml"
    p.write_text(CONFIG.format(engine=engine), encoding="utf-8")
    return p


def test_config_knows_the_same_engines_as_the_adapter_registry():
    assert known_engines(None) == registry.known_engines(None)


def test_an_engine_from_the_users_adapters_folder_is_a_valid_config_engine(tmp_path):
    p = write(tmp_path, "myforum", {"myforum.toml": 'name = "myforum"\n', "notes.example.toml": 'name = "x"\n'})
    assert load_config(p).sites["f"].engine == "myforum"
    assert "myforum" in known_engines(tmp_path / "my-adapters")
    assert "x" not in known_engines(tmp_path / "my-adapters")  # *.example.toml are docs, not profiles


def test_unknown_engine_names_the_key_and_suggests_the_closest(tmp_path):
    p = write(tmp_path, "myforun", {"myforum.toml": 'name = "myforum"\n'})
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert e.value.path == "sites.f.engine" and "did you mean 'myforum'" in str(e.value)


def test_a_profile_without_a_proper_name_is_reported_with_its_file(tmp_path):
    p = write(tmp_path, "myforum", {"myforum.toml": 'name = "My Forum"\n'})
    with pytest.raises(ConfigError) as e:
        load_config(p)
    assert "myforum.toml" in str(e.value) and "lowercase name" in str(e.value)


def test_a_bundled_profiles_head_gives_the_same_top_level_keys_as_the_whole_file():
    from forummod.forum_engines import profile_files, profile_head, read_profile_table
    from forummod.resources import bundled_dir

    files = profile_files([bundled_dir("adapters")])
    assert files
    for path in files:
        head, whole = profile_head(path), read_profile_table(path)
        assert head == {k: v for k, v in whole.items() if not isinstance(v, dict)}, path


def test_a_head_that_does_not_parse_alone_is_read_whole(tmp_path, monkeypatch):
    from forummod import forum_engines

    p = tmp_path / "odd.toml"
    p.write_text('name = "odd"\nnotes = """\n[not a table]\n"""\n\n[urls]\nthread = "x"\n', encoding="utf-8")
    monkeypatch.setattr(forum_engines, "_bundled", lambda: tmp_path)
    assert forum_engines.profile_head(p)["notes"] == "[not a table]\n"
