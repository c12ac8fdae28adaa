"""lndrill.sim: NumPy gradient simulator (headless core: never imports textual)."""
