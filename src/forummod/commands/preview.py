"""`forummod preview`: a local page with the drafts as the forum would show them.

Served on 127.0.0.1 only, with a random access token in the URL; buttons publish, discard
or save an edited draft. Runs until Ctrl-C.
"""

from __future__ import annotations

import time

from forummod.cli import add_common
from forummod.commands._common import open_workspace

NAME = "preview"
HELP = "serve a local page (127.0.0.1, token in the URL) to read, edit, publish or discard drafts"


def add_arguments(p) -> None:
    add_common(p, json=False, game=True)
    p.add_argument("--port", type=int, default=0, metavar="N", help="port to listen on (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="only print the URL; do not open a browser")
    p.add_argument("--refresh", action="store_true", help="re-render every game's drafts before serving")


def serve_until_interrupted(server, name: str, *, open_browser: bool) -> None:
    """Print the page's address (and open it), serve until Ctrl-C, then stop the server.

    The browser is handed a private file that forwards to the address (`preview.launch`), so
    the token never stands on a command line that other local users can read."""
    print(f"{name}: {server.url}\n(only this computer can open it; Ctrl-C to stop)", flush=True)
    redirect = None
    if open_browser:
        from forummod.preview.launch import open_browser as launch

        redirect = launch(server.url, f"forummod {name}")
        if redirect is None:
            print(f"{name}: could not write the private file that opens the browser; open the address above")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print(f"{name} stopped")
    finally:
        server.stop()
        if redirect is not None:
            from forummod.preview.launch import remove_redirect

            remove_redirect(redirect)


def run(args) -> int:
    from forummod.preview.server import PreviewServer, refresh_all

    with open_workspace(args) as ws:
        games = [ws.only_game(args.game)] if args.game else None
        if args.refresh:
            print(refresh_all(ws))
        serve_until_interrupted(PreviewServer(ws, port=args.port, games=games).start(), "preview",
                                open_browser=not args.no_browser)
        return 0
