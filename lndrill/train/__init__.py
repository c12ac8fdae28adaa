"""The training lab: a small NumPy Transformer trained with Adam on a synthetic task, for every placement
(no Textual here; `lndrill train` and a future TUI view drive `lndrill.train.run`)."""
