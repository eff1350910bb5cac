"""`python -m bench.strength` (`make strength`): bench/strength/run.py."""

import sys

from bench.strength.run import main

sys.exit(main())
