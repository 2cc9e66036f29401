"""Seed a freshly migrated Spirit 0.14.3 database from the harness's seed plan, through Spirit's
own models, in one transaction.

Runs with the Spirit venv's python inside the generated project (DJANGO_SETTINGS_MODULE and
FORUMMOD_SPIRIT_DATA set by the harness):

    python seed_spirit.py PLAN.json RESULT.json

Spirit's own pieces make the engine-specific parts: `quotify` (the quote button's Markdown,
"> @name said:"), `Markdown().render` for `comment_html` (what the comment form stores), an
edit the way the edit view stores it (a CommentHistory row for the original and one for the
new version, `modified_count` + 1), and PMs as private topics (category
ST_TOPIC_PRIVATE_CATEGORY_PK, one TopicPrivate row per participant). Spirit lowercases user
names (ST_CASE_INSENSITIVE_USERNAMES); the nickname keeps the spelling and is what pages show.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys

import django

sys.path.insert(0, os.getcwd())
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.hashers import make_password  # noqa: E402
from django.db import transaction  # noqa: E402
from djconfig.models import Config  # noqa: E402

from spirit.category.models import Category  # noqa: E402
from spirit.comment.history.models import CommentHistory  # noqa: E402
from spirit.comment.models import Comment  # noqa: E402
from spirit.core.conf import settings  # noqa: E402
from spirit.core.utils.markdown import Markdown, quotify  # noqa: E402
from spirit.topic.models import Topic  # noqa: E402
from spirit.topic.private.models import TopicPrivate  # noqa: E402

User = get_user_model()


def when(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso).astimezone(dt.timezone.utc)


def render(md: str) -> str:
    return Markdown().render(md)


def make_users(plan: dict) -> dict:
    hashed = make_password(plan["password"])  # one hash for every account (same password)
    users = {}
    for name in plan["accounts"]:
        u = User.objects.create(username=name, email=f"{name.lower()}@valfonda.example", password=hashed,
                                date_joined=when(plan["joined"]))
        u.st.is_verified = True
        u.st.save()
        users[name] = User.objects.get(pk=u.pk)
    return users


def body_of(post: dict, by_key: dict[str, dict], first_text: bool = False) -> str:
    """The stored Markdown: the engine's quote of the quoted post, then the text."""
    text = post["body"] if first_text or not post.get("edited_body") else post["edited_body"]
    if post.get("quote"):
        q = by_key[post["quote"]]
        quoted = q["edited_body"] if q.get("edited_body") else q["body"]
        return quotify(quoted, q["author"]) + text
    return text


def add_comment(topic: Topic, spec: dict, users: dict, by_key: dict[str, dict]) -> Comment:
    md = body_of(spec, by_key, first_text=True)
    c = Comment.objects.create(topic=topic, user=users[spec["author"]], comment=md, comment_html=render(md),
                               date=when(spec["at"]))
    if spec.get("edited_at"):
        # what the edit view stores: the original version (at the post's time), the new text,
        # and the new version (at the edit's time)
        CommentHistory.create(c, created_at=c.date)
        c.comment = body_of(spec, by_key)
        c.comment_html = render(c.comment)
        c.modified_count = 1
        c.save(update_fields=["comment", "comment_html", "modified_count"])
        CommentHistory.create(c, created_at=when(spec["edited_at"]))
    return c


def make_topic(thread: dict, category: Category, users: dict) -> dict:
    posts = thread["posts"]
    by_key = {p["key"]: p for p in posts}
    first, last = posts[0], posts[-1]
    topic = Topic.objects.create(category=category, user=users[first["author"]], title=thread["title"],
                                 date=when(first["at"]), last_active=when(last["at"]))
    comments = [(spec, add_comment(topic, spec, users, by_key)) for spec in posts]
    Topic.objects.filter(pk=topic.pk).update(comment_count=len(comments))
    return {
        "id": topic.pk,
        "title": topic.title,
        "slug": topic.slug,
        "path": topic.get_absolute_url(),
        "first_post_id": comments[0][1].pk,
        "posts": {spec["key"]: {"id": c.pk, "content": c.comment} for spec, c in comments},
    }


def make_private(spec: dict, users: dict) -> dict:
    """A private topic between sender and recipient: one id for both mailboxes."""
    msgs = spec["messages"]
    private = Category.objects.get(pk=settings.ST_TOPIC_PRIVATE_CATEGORY_PK)
    topic = Topic.objects.create(category=private, user=users[spec["from"]], title=spec["subject"],
                                 date=when(msgs[0]["at"]), last_active=when(msgs[-1]["at"]))
    for name in (spec["from"], spec["to"]):
        TopicPrivate.objects.create(topic=topic, user=users[name], date=when(msgs[0]["at"]))
    ids = []
    for m in msgs:
        c = Comment.objects.create(topic=topic, user=users[m["author"]], comment=m["body"],
                                   comment_html=render(m["body"]), date=when(m["at"]))
        ids.append(c.pk)
    Topic.objects.filter(pk=topic.pk).update(comment_count=len(msgs))
    return {"ids": {spec["from"]: topic.pk, spec["to"]: topic.pk},
            "message_ids": {spec["from"]: ids, spec["to"]: ids},
            "path": topic.get_absolute_url()}


def main(plan_path: str, out_path: str) -> None:
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    with transaction.atomic():
        for key, value in (("comments_per_page", plan["per_page"]), ("topics_per_page", plan["per_page"])):
            Config.objects.update_or_create(key=key, defaults={"value": json.dumps(value)})
        users = make_users(plan)
        category = Category.objects.create(title=plan["forum"], description=plan["forum_description"], sort=2)
        threads = {t["key"]: make_topic(t, category, users) for t in plan["threads"]}
        pms = {c["key"]: make_private(c, users) for c in plan["pms"]}
        result = {
            "users": {name: u.pk for name, u in users.items()},
            "logins": {name: u.username for name, u in users.items()},
            "category_id": category.pk,
            "forum_id": category.pk,
            "forum_path": category.get_absolute_url(),
            "threads": threads,
            "pms": pms,
        }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main(*sys.argv[1:3])
