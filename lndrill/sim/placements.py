"""The four LayerNorm placements as one table: name, label, colour, and where each puts its LayerNorms.

Every model, metric and note asks this table instead of comparing placement names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Placement:
    """Where a residual block puts its LayerNorm(s) around the sublayer F."""

    key: str
    """The name used in options and results ("post", "pre", ...)."""
    label: str
    """The name shown to people ("Post-LN")."""
    colour: str
    """The named terminal colour of its bars in `lndrill sim --plain` (the app passes its theme's own)."""
    residual: str
    """The block written out."""
    norm_after_add: bool
    """The block ends in a LayerNorm of the residual sum (so the stack always ends in one)."""
    norm_branch_output: bool = False
    """A second LayerNorm on the sublayer's output, before the add (Sandwich-LN)."""
    deepnorm_scaling: bool = False
    """The residual is scaled by alpha and the sublayer's weights by beta, both from the stack's depth."""

    @property
    def norm_branch_input(self) -> bool:
        """The LayerNorm is on the sublayer's input and the residual path is an identity; such a stack
        may end in a final LayerNorm (the transformer always has one, the toy optionally)."""
        return not self.norm_after_add


TABLE: tuple[Placement, ...] = (
    Placement("post", "Post-LN", "medium_purple1", "x <- LN(x + F(x))", norm_after_add=True),
    Placement("pre", "Pre-LN", "cyan", "x <- x + F(LN(x))", norm_after_add=False),
    Placement("sandwich", "Sandwich", "green", "x <- x + LN(F(LN(x)))", norm_after_add=False,
              norm_branch_output=True),
    Placement("deepnorm", "DeepNorm", "yellow", "x <- LN(alpha x + F(x)), F's weights scaled by beta",
              norm_after_add=True, deepnorm_scaling=True),
)
BY_KEY: dict[str, Placement] = {p.key: p for p in TABLE}
#: Placement names in display order.
PLACEMENTS: tuple[str, ...] = tuple(p.key for p in TABLE)


def placement(key: str) -> Placement:
    """The placement called `key` (KeyError for an unknown name; SimConfig validates names first)."""
    return BY_KEY[key]
