"""Recognise a forum engine from a saved page (generator meta, markup fingerprints, footer text).

Used by `forummod parse` without `--engine` and by engine "auto". Detection must fail
loudly on engines we do not support: an unknown page is reported, never parsed into
garbage, so a fingerprint only counts when the engine's post selectors also find posts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from forummod.errors import UnknownEngine
from forummod.forum.html_engine import first, parse_html
from forummod.forum.profile import Profile


@dataclass(frozen=True)
class Detection:
    engine: str
    score: int
    reasons: tuple[str, ...]


def _generator(root: Any) -> str:
    vals = root.xpath("//meta[translate(@name,'GENERATOR','generator')='generator']/@content")
    return " ".join(vals)


def detect_json(text: str) -> str | None:
    """Discourse JSON answers (topic, posts, private-message lists)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return None
    if isinstance(data, dict) and ("post_stream" in data or "latest_posts" in data
                                   or ("topic_list" in data and "users" in data)
                                   or ("cooked" in data and "post_number" in data)):
        return "discourse"
    return None


def score_page(profiles: Mapping[str, Profile], text: str, root: Any = None) -> list[Detection]:
    """Every engine whose fingerprints match, best first."""
    if root is None:
        root = parse_html(text)
    gen = _generator(root)
    head = text[:200_000]
    out = []
    for prof in profiles.values():
        score = 0
        reasons = []
        if gen and any(rx.search(gen) for rx in prof.generator):
            score += 10
            reasons.append(f"generator {gen!r}")
        for ex in prof.fingerprints:
            if ex.elements(root):
                score += 3
                reasons.append(f"markup {ex.source!r}")
        for t in prof.fingerprint_text:
            if t and t in head:
                score += 2
                reasons.append(f"text {t!r}")
        if score == 0:
            continue
        posts_found = False
        for ex in prof.posts.container:
            found = ex.elements(root)
            if found and any(first(prof.posts.id, el) for el in found[:5]):
                posts_found = True
                break
        if posts_found:
            score += 5
            reasons.append("posts found")
        out.append(Detection(prof.name, score, tuple(reasons)))
    out.sort(key=lambda d: -d.score)
    return out


def detect_engine(profiles: Mapping[str, Profile], text: str, *, where: str = "page") -> str:
    """The engine of a page, or UnknownEngine saying what was seen instead."""
    if text.lstrip().startswith(("{", "[")):
        eng = detect_json(text)
        if eng and eng in profiles:
            return eng
        raise UnknownEngine(f"{where}: JSON of no supported engine (supported JSON: Discourse)")
    root = parse_html(text)
    found = [d for d in score_page(profiles, text, root) if "posts found" in d.reasons]
    if found and found[0].score >= 8:
        return found[0].engine
    gen = _generator(root)
    seen = f" (generator: {gen!r})" if gen else ""
    near = found[0] if found else None
    hint = f"; closest: {near.engine} ({', '.join(near.reasons)})" if near else ""
    raise UnknownEngine(
        f"{where}: unknown forum engine{seen}{hint}. Supported: {', '.join(sorted(profiles))}. "
        "Write a profile for it (see adapters/generic.example.toml) or pass --engine NAME.")
