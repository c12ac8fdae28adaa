"""The app's terminal output when the terminal goes away (window closed, tmux server killed).

Textual's Linux driver writes from a thread through a queue of 30 writes. If a write to a vanished terminal
kills that thread, shutting down waits forever for room in the queue and the process stays behind. With
lndrill's driver, output to a terminal that is gone is dropped and shutting down finishes."""

from __future__ import annotations

import asyncio
import io
import threading
from typing import Any

import pytest

termios = pytest.importorskip("termios")  # the Linux/macOS driver only


class HungUp(io.StringIO):
    """A terminal after hang-up: every write and flush fails with EIO."""

    def write(self, text: str) -> int:
        raise OSError(5, "Input/output error")

    def flush(self) -> None:
        raise OSError(5, "Input/output error")


def test_the_app_uses_the_hangup_safe_driver() -> None:
    from textual.drivers.linux_driver import LinuxDriver

    from lndrill.tui.app import make_app

    driver_class = make_app(start="home").driver_class
    assert issubclass(driver_class, LinuxDriver) and driver_class is not LinuxDriver


def test_shutdown_finishes_after_the_terminal_hung_up() -> None:
    """Writes after the hang-up (more than the queue holds), then close(): it returns, with no output."""
    from textual.drivers._writer_thread import WriterThread

    from lndrill.tui.app import make_app

    app = make_app(start="home")

    async def make_driver() -> Any:  # a driver belongs to an event loop
        return app.driver_class(app)

    driver = asyncio.run(make_driver())
    gone = HungUp()
    driver._file._stream = gone  # type: ignore[attr-defined]  # the terminal the driver writes to has hung up
    writer = WriterThread(driver._file)  # as start_application_mode makes it
    writer.start()
    driver._writer_thread = writer  # type: ignore[attr-defined]

    def shut_down() -> None:
        for _ in range(100):  # the screen updates and terminal resets sent while quitting
            driver.write("\x1b[?1049l")
        driver.close()

    closer = threading.Thread(target=shut_down, daemon=True)
    closer.start()
    closer.join(timeout=20)
    assert not closer.is_alive(), "shutting down hung on the closed terminal"
    assert driver._file.gone and gone.getvalue() == ""  # type: ignore[attr-defined]


def test_output_reaches_a_live_terminal_unchanged() -> None:
    from lndrill.tui.driver import DropWhenGone

    out = io.StringIO()
    stream = DropWhenGone(out)
    assert stream.write("\x1b[?25h") == 6
    stream.flush()
    assert out.getvalue() == "\x1b[?25h" and not stream.gone
