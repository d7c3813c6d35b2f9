"""The ``aspml`` command (filled in by the command-line issue)."""
