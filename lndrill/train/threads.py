"""One BLAS thread while training.

The lab's matrices are small (tens to hundreds of rows), so OpenBLAS gains little from a second thread,
and on a machine whose cores are busy a threaded product waits for a descheduled helper thread: measured
on the shared 2-core machine, a step of the xiong preset took 109 ms with OpenBLAS's default threads and
16 ms with one. NumPy has no API for it, so this calls OpenBLAS's own setter through ctypes when NumPy's
bundled OpenBLAS is found, and does nothing otherwise (another BLAS, or none found).
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
            "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads64_",
            "openblas_get_num_threads")


def _openblas() -> tuple[object, object] | None:
    """(setter, getter) of NumPy's bundled OpenBLAS, or None."""
    base = os.path.dirname(os.path.dirname(np.__file__))
    for path in sorted(glob.glob(os.path.join(base, "numpy.libs", "*openblas*.so*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        setter = next((getattr(lib, n) for n in _SETTERS if hasattr(lib, n)), None)
        getter = next((getattr(lib, n) for n in _GETTERS if hasattr(lib, n)), None)
        if setter is not None and getter is not None:
            return setter, getter
    return None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with OpenBLAS on one thread, restoring the previous count after."""
    found = _openblas()
    if found is None:
        yield
        return
    setter, getter = found
    before = int(getter())  # type: ignore[operator]
    setter(1)  # type: ignore[operator]
    try:
        yield
    finally:
        setter(before)  # type: ignore[operator]
