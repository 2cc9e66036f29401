"""Local servers that record what the alert channels send: HTTP for Apprise's json://, SMTP for mailto://."""

from __future__ import annotations

import json
import socketserver
import threading
from email import message_from_bytes
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class JsonSink:
    """An HTTP server on 127.0.0.1 keeping every JSON body POSTed to it (Apprise's json:// target)."""

    def __init__(self, port: int = 0):
        self.received: list[dict] = []
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sink.received.append(json.loads(body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"json://127.0.0.1:{self.port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def messages(self) -> list[str]:
        return [m.get("message", "") for m in self.received]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class SmtpSink:
    """A minimal SMTP server (EHLO, MAIL, RCPT, DATA, QUIT) on 127.0.0.1 keeping each mail."""

    def __init__(self):
        self.mails: list = []
        sink = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                self.say("220 127.0.0.1 test smtp")
                while True:
                    line = self.rfile.readline()
                    if not line:
                        return
                    cmd = line.decode("ascii", "replace").strip().upper()
                    if cmd.startswith(("EHLO", "HELO")):
                        self.say("250 127.0.0.1")
                    elif cmd.startswith(("MAIL", "RCPT", "RSET", "NOOP")):
                        self.say("250 OK")
                    elif cmd == "DATA":
                        self.say("354 end with .")
                        data = []
                        while (chunk := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                            data.append(chunk[1:] if chunk.startswith(b"..") else chunk)
                        sink.mails.append(message_from_bytes(b"".join(data), policy=default))
                        self.say("250 queued")
                    elif cmd == "QUIT":
                        self.say("221 bye")
                        return
                    else:
                        self.say("502 not implemented")

            def say(self, text: str) -> None:
                self.wfile.write(text.encode("ascii") + b"\r\n")
                self.wfile.flush()

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"mailto://127.0.0.1:{self.port}?mode=insecure&from=alerts@example.org&to=gm@example.org"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def bodies(self) -> list[str]:
        out = []
        for m in self.mails:
            part = m.get_body(preferencelist=("plain", "html"))
            out.append(part.get_content() if part is not None else m.get_content())
        return out

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
