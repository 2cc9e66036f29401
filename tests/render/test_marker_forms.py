"""The publication marker's form per engine profile (issue 15 item 2): each profile's
`marker_form` embeds the marker once at the end of the post, strips back to the draft, and
stays findable by the marker search; a profile without one keeps the markup's default; a
malformed form is refused naming the key. Whether each form is invisible is tested in Chromium
on the running engines (tests/realforum/test_write_side.py)."""

from __future__ import annotations

import pytest

from forummod.errors import ConfigError
from forummod.forum.profile import parse_profile
from forummod.forum.registry import profiles
from forummod.publish_parts import split_body
from forummod.render.marker import default_form, embed_marker, find_markers, strip_marker

MARKER = "fm-42-0a1b2c3d4e"
BODY = "Conta dei voti\n\nFede 3, Gina 2\n"


@pytest.mark.parametrize("engine", sorted(profiles(None)))
def test_every_profiles_marker_form_embeds_once_strips_back_and_is_found(engine):
    prof = profiles(None)[engine]
    markup = prof.markup or "bbcode"
    posted = embed_marker(BODY, MARKER, markup, prof.marker_form)
    assert posted.startswith(BODY.rstrip("\n")) and posted.count(MARKER) == 1
    assert find_markers(posted) == {MARKER}
    assert strip_marker(posted, markup, prof.marker_form) == BODY


def test_the_php_engines_write_the_marker_transparent_and_smf_in_a_size_it_honours():
    profs = profiles(None)
    for engine in ("phpbb", "mybb", "smf"):
        assert "[color=transparent]{marker}[/color]" in profs[engine].marker_form
    assert "[size=1px]" in profs["smf"].marker_form  # SMF 2.1 sets [size=1] at 0.7em
    assert profs["spirit"].marker_form == profs["flaskbb"].marker_form == profs["discourse"].marker_form == ""


def test_a_profile_without_a_form_keeps_todays_default():
    assert embed_marker(BODY, MARKER, "bbcode") == BODY.rstrip("\n") + f"\n[size=1]{MARKER}[/size]\n"
    assert embed_marker(BODY, MARKER, "markdown") == BODY.rstrip("\n") + f"\n\n[](#{MARKER})\n"
    assert embed_marker(BODY, MARKER, "plain") == BODY and default_form("plain") == ""


@pytest.mark.parametrize("form", ["[size=1][/size]", "{marker}{marker}", "[url={x}]{marker}[/url]", "{marker}\nx"])
def test_a_malformed_marker_form_is_refused_naming_the_key(form):
    with pytest.raises(ConfigError) as err:
        parse_profile({"name": "custom", "markup": "bbcode", "marker_form": form})
    assert "marker_form" in str(err.value) and "{marker}" in str(err.value)


def test_a_split_draft_keeps_room_for_the_profiles_longer_form():
    from forummod.publish_parts import _MARKER_ROOM

    form = profiles(None)["smf"].marker_form
    body = "Fede " * 20 + "\n\n" + "Gina " * 20 + "\n"
    limit = len(body) + len(embed_marker("", "fm-" + "0" * _MARKER_ROOM, "bbcode")) + 5  # room for the default only
    assert not split_body(body, "bbcode", limit).split
    parts = split_body(body, "bbcode", limit, form=form)
    assert parts.split and all(len(embed_marker(p, MARKER, "bbcode", form)) <= limit for p in parts.parts)
