"""``python -m coschedopt.bench run|export|report ...`` (same as ``coschedopt bench ...``)."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
