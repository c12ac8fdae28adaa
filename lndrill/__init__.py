"""lndrill: drill the Pre-LN vs Post-LN interview question in the terminal."""

__version__ = "0.1.0"
