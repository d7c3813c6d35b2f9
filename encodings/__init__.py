"""ASP encodings shipped with aspml (package data)."""
