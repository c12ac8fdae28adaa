"""The terminal driver, made safe for a terminal that disappears (window closed, tmux server killed).

Textual's Linux driver writes the screen from a thread through a bounded queue. When the terminal goes
away, a write fails, that thread ends, and the next 30 writes fill the queue: the app then waits forever
while it shuts down, and the process stays behind after its window is gone. Here output to a terminal that
has gone is dropped instead, so the app always finishes (drafts are saved by the SIGHUP handler first)."""

from __future__ import annotations

from typing import IO, Any, cast

from textual.driver import Driver


class DropWhenGone:
    """A text stream that forwards writes until one fails, then drops all output (the terminal is gone;
    nobody can read it). Everything else (fileno, isatty, encoding ...) is the wrapped stream's."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self._stream.write(text)
            except (OSError, ValueError):  # EIO from a hung-up terminal; ValueError from a closed stream
                self.gone = True
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self.gone = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def hangup_safe(driver_class: type[Driver]) -> type[Driver]:
    """Textual's own driver class for this platform, with its output going through `DropWhenGone`.
    Only the Linux driver (also used on macOS) has the output thread; any other driver is returned as is."""
    try:
        from textual.drivers.linux_driver import LinuxDriver
    except ImportError:  # no termios: Windows
        return driver_class
    if not issubclass(driver_class, LinuxDriver):
        return driver_class

    class HangupSafeDriver(driver_class):  # type: ignore[valid-type,misc]
        _file: IO[str]  # the terminal LinuxDriver writes to (its own attribute)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._file = cast("IO[str]", DropWhenGone(self._file))

    HangupSafeDriver.__name__ = HangupSafeDriver.__qualname__ = f"HangupSafe{driver_class.__name__}"
    return HangupSafeDriver
