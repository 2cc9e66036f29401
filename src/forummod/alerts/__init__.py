"""Alerts: what needs the GM (decide.py, pure) and reaching them on their channels (send.py, I/O)."""
