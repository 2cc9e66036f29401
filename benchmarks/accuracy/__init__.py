"""The real-game accuracy harness (issue 27): forummod against 200 real MafiaScum games.

`python -m benchmarks.accuracy` writes, for every development game of
``../shared/corpus/donbot``, the config a GM would write (derived by the same rules for every
game: `derive`), replays the thread offline through forummod's own analysis (`runner`), and
compares each day's outcome and each moderator vote count (`modcounts`) with forummod's count
(`compare`), classifying every miss by rule (`classify`). The report (`report`) goes to
``benchmarks/results/accuracy/``. See benchmarks/README.md, "Real-game accuracy".
"""
