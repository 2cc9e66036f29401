"""Seed a fresh FlaskBB 2.2.0 database from the harness's seed plan, through FlaskBB's own models.

Runs with the FlaskBB venv's python, before the server starts (FlaskBB memoizes its settings per
process):

    python seed_flaskbb.py CONFIG INSTANCE_DIR PLAN.json RESULT.json

The plan (written by tests/realforum/script.py) is engine-neutral: accounts, threads of posts
with UTC times, quotes by post key, edits, PM conversations. Here FlaskBB's own pieces make the
engine-specific parts: `format_quote` (the quote button's Markdown), a post edited the way the
edit view stores it (`date_modified`, `modified_by`), and conversations the way the plugin
stores them (one copy per mailbox, linked by `shared_id`). Replies after the first post of a
topic are added in bulk (one commit, no search-index write per post): about 3x faster than
`Post.save()` each. The result (ids, stored bodies, URLs) goes to RESULT.json.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import uuid

import flaskbb.user.models as user_models
from conversations.models import Conversation, Message
from flaskbb import create_app
from flaskbb.extensions import db
from flaskbb.forum.models import Category, Forum, Post, Topic
from flaskbb.management.models import Setting
from flaskbb.utils.helpers import format_quote
from flaskbb.utils.populate import create_user


def when(iso: str) -> dt.datetime:
    return dt.datetime.fromisoformat(iso).astimezone(dt.timezone.utc)


def hash_once(password: str) -> None:
    """Every seeded account has the same password: hash it once instead of once per user."""
    original = user_models.generate_password_hash
    cached = original(password)
    user_models.generate_password_hash = lambda pw, *a, **k: cached if pw == password else original(pw, *a, **k)


def make_users(plan: dict) -> dict[str, user_models.User]:
    hash_once(plan["password"])
    users = {name: create_user(name, plan["password"], f"{name.lower()}@valfonda.example", "member")
             for name in plan["accounts"]}
    for u in users.values():  # fixed, so that saved pages do not change from one seed to the next
        u.date_joined = u.lastseen = when(plan["joined"])
    db.session.commit()
    return users


def body_of(post: dict, by_key: dict[str, dict]) -> str:
    """The stored Markdown of a post: the engine's quote of the quoted post, then the text."""
    text = post["edited_body"] if post.get("edited_body") else post["body"]
    if post.get("quote"):
        q = by_key[post["quote"]]
        quoted = q["edited_body"] if q.get("edited_body") else q["body"]
        return format_quote(q["author"], quoted) + "\n" + text
    return text


def make_topic(thread: dict, forum: Forum, users: dict) -> dict:
    posts = thread["posts"]
    by_key = {p["key"]: p for p in posts}
    first = posts[0]
    opening = Post(content=body_of(first, by_key))
    topic = Topic(title=thread["title"])
    topic.save(user=users[first["author"]], forum=forum, post=opening)
    opening.date_created = topic.date_created = when(first["at"])
    stored = [(first, opening)]
    for spec in posts[1:]:
        p = Post(content=body_of(spec, by_key))
        author = users[spec["author"]]
        p.user, p.username, p.topic = author, author.username, topic
        p.date_created = when(spec["at"])
        if spec.get("edited_at"):
            # what FlaskBB's edit view stores: the new content, the time and the editor's name
            p.date_modified = when(spec["edited_at"])
            p.modified_by = author.username
        db.session.add(p)
        stored.append((spec, p))
    db.session.flush()
    last = stored[-1][1]
    topic.last_post = last
    topic.last_updated = last.date_created
    db.session.commit()
    topic.recalculate()
    return {
        "id": topic.id,
        "title": topic.title,
        "slug": topic.slug,
        "path": topic.url,
        "first_post_id": opening.id,
        "posts": {spec["key"]: {"id": p.id, "content": p.content} for spec, p in stored},
    }


def make_conversation(spec: dict, users: dict) -> dict:
    """One Conversation per mailbox (sender's and recipient's), linked by `shared_id`; every
    message is stored in both. The recipient's copy is unread."""
    sender, recipient = users[spec["from"]], users[spec["to"]]
    msgs = spec["messages"]
    shared = uuid.uuid4()
    boxes: dict[str, Conversation] = {}
    for owner in (sender, recipient):
        c = Conversation(subject=spec["subject"], shared_id=shared, from_user_id=sender.id,
                         to_user_id=recipient.id, user_id=owner.id, unread=(owner is recipient),
                         date_created=when(msgs[0]["at"]), date_modified=when(msgs[-1]["at"]))
        db.session.add(c)
        boxes[owner.username] = c
    db.session.flush()
    message_ids: dict[str, list[int]] = {name: [] for name in boxes}
    for m in msgs:
        rows = {}
        for name, c in boxes.items():
            rows[name] = Message(conversation_id=c.id, user_id=users[m["author"]].id, message=m["body"],
                                 date_created=when(m["at"]))
            db.session.add(rows[name])
        db.session.flush()
        for name, row in rows.items():
            message_ids[name].append(row.id)
    db.session.commit()
    return {"ids": {name: c.id for name, c in boxes.items()}, "message_ids": message_ids,
            "shared_id": str(shared)}


def main(cfg: str, instance: str, plan_path: str, out_path: str) -> None:
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    app = create_app(cfg, instance)
    with app.app_context(), app.test_request_context("/"):
        # message_quota: conversations per mailbox before sending is refused (default 50)
        Setting.update({"posts_per_page": plan["per_page"], "topics_per_page": plan["per_page"],
                        "message_quota": 10000})
        users = make_users(plan)
        category = Category(title=plan["category"], description=plan["forum_description"], position=2)
        category.save()
        forum = Forum(title=plan["forum"], description=plan["forum_description"], category_id=category.id)
        forum.save()  # groups=None: every group may read and post
        threads = {t["key"]: make_topic(t, forum, users) for t in plan["threads"]}
        pms = {c["key"]: make_conversation(c, users) for c in plan["pms"]}
        forum.recalculate(last_post=True)
        for u in users.values():
            u.recalculate()
        result = {
            "users": {name: u.id for name, u in users.items()},
            "category_id": category.id,
            "forum_id": forum.id,
            "forum_path": forum.url,
            "threads": threads,
            "pms": pms,
        }
    with open(out_path, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main(*sys.argv[1:5])
