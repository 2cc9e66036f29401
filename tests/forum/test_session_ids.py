"""`drop_session_ids` gives what `_LINK_SESSION.sub` gives (it only skips the places where
the regex cannot match)."""

from __future__ import annotations

import random

from forummod.forum.html_adapter import _LINK_SESSION, drop_session_ids


def _sub(html: str) -> str:
    return _LINK_SESSION.sub(lambda m: "?" if m.group(1) == "?" else "", html)


def test_drop_session_ids_is_the_regex_substitution():
    rng = random.Random(11)
    leads = ["&amp;", "&AMP;", "&", "?", ";", "", "x", "amp;"]
    names = ["sid", "SID", "\u017fid", "PHPSESSID", "phpsessid", "phpses", "si"]
    ends = ['"', "'", "&", "#", ";", " ", "<", ">", "", "x", "=", "\n"]
    matched = 0
    for _ in range(20000):
        parts = []
        for _ in range(rng.randint(1, 5)):
            if rng.random() < 0.7:
                hexes = "".join(rng.choice("0123456789abcdefABCDEFg") for _ in range(rng.choice([15, 16, 17, 32])))
                parts.append(rng.choice(leads) + rng.choice(names) + rng.choice(["=", "==", ""]) + hexes + rng.choice(ends))
            else:
                parts.append(rng.choice(leads + names + ends))
        html = "".join(parts)
        want = _sub(html)
        matched += want != html
        assert drop_session_ids(html) == want, html
    assert matched > 500


def test_a_page_without_session_ids_is_returned_as_it_is():
    html = '<a href="viewtopic.php?t=1&amp;start=25">x</a> <input value="0123456789abcdef0123">'
    assert drop_session_ids(html) is html
