"""``python -m aspml``: the aspml command."""

import sys

from .cli import main

if __name__ == "__main__":      # not when a worker process of aspml learn --dask imports it
    sys.exit(main())
