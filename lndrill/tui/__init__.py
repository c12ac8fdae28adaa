"""lndrill.tui: the Textual app (a thin layer over the headless core)."""
