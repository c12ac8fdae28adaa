"""lndrill.scoring (headless core: never imports textual)."""
