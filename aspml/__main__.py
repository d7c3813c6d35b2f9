"""``python -m aspml``: the aspml command."""

import sys

from .cli import main

sys.exit(main())
