"""Allow `python -m lndrill`."""

import sys

from lndrill.cli import main

sys.exit(main())
