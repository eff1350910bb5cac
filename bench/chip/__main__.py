"""`python -m bench.chip` (`make chip`): bench/chip/run.py."""

import sys

from bench.chip.run import main

sys.exit(main())
