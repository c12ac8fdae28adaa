"""Screens of the lndrill app."""
