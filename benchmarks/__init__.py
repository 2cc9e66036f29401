"""forummod benchmarks: poll cost, parse throughput, recount latency and memory on synthetic games.

Run `python -m benchmarks --help`. A synthetic game (`game`) is rendered in phpBB or XenForo
markup (`markup`), served on 127.0.0.1 (`server`), polled into a real store through the
service, and measured (`suite`); the results print as a table and go to a JSON file (`report`).
See benchmarks/README.md for what each figure means and the latest numbers.
"""
