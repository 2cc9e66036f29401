"""The local preview page: drafts rendered as the forum would show them, with publish and
discard buttons (`server.PreviewServer`; page in `page.py`, sanitizing in `html.py`)."""

from forummod.preview.html import render_markup, sanitize
from forummod.preview.server import PreviewServer

__all__ = ["PreviewServer", "render_markup", "sanitize"]
