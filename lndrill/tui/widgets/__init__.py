"""Widgets of the lndrill app."""
