import sys

from benchmarks.accuracy.cli import main

sys.exit(main())
