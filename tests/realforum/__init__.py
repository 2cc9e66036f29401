"""The real-forum integration suite: FlaskBB and Spirit on 127.0.0.1 (see README.md)."""
