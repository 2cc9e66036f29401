"""`forummod preview --port N` / `console --port N` on a port another program holds: a clear error
naming the port and the way out (`--port 0`), exit 2, no traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from forummod.cli import main

from tests.render.game import day_one


@pytest.mark.parametrize("command", ["preview", "console"])
def test_a_busy_port_is_a_clear_error_naming_it_with_exit_2(tmp_path: Path, capsys, command):
    config = str(day_one(tmp_path).write())
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        code = main([command, "--config", config, "--port", str(port), "--no-browser"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"port {port}" in err and "already in use" in err and "--port 0" in err
    assert "Traceback" not in err


def test_a_port_number_out_of_range_is_a_clear_error(tmp_path: Path, capsys):
    config = str(day_one(tmp_path).write())
    assert main(["preview", "--config", config, "--port", "70000", "--no-browser"]) == 2
    assert "--port 70000" in capsys.readouterr().err
