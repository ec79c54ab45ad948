"""Run postil as `python -m postil`."""

import sys

from postil.cli import main

sys.exit(main())
