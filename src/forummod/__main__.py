"""`python -m forummod` is the same as the `forummod` console script."""

from forummod.cli import main

raise SystemExit(main())
