"""lndrill.cards (headless core: never imports textual)."""
