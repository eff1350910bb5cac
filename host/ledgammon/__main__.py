"""`python -m ledgammon`: the same as the `ledgammon` command."""

import sys

from .cli import main

sys.exit(main())
