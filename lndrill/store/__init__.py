"""lndrill.store (headless core: never imports textual)."""
