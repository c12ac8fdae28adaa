"""Everything the command line writes, written safely.

Text from cards, answers, file names and the history is shown without terminal control characters
(`lndrill.display.printable`), on stdout through `console()` or `emit`, on stderr through `tell`. Output
that cannot be written is one exception each: `BrokenPipeError` (the reader went away: `| head -1`) and
`OutputError` (a full disk, a closed stdout), which `lndrill.cli.main` turns into an exit status.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult
from rich.segment import Segment

from lndrill.display import json_printable, printable

#: Exit status after the reader of stdout went away: 128 + SIGPIPE, what a shell reports for a process
#: that SIGPIPE ended (`yes | head -1`).
BROKEN_PIPE_STATUS = 141


class OutputError(Exception):
    """Standard output cannot be written (a full disk, an I/O error, a closed stdout); one line."""


def _one_line(exc: OSError) -> str:
    return exc.strerror or " ".join(str(exc).split()) or type(exc).__name__


class _ClosedStream(io.TextIOBase):
    """What stdout or stderr is when the process was started with it closed (`>&-`): writing fails."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Sink(io.TextIOBase):
    """stderr when it was closed: messages go nowhere rather than fail."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def prepare_streams() -> Callable[[], None]:
    """Before a command runs: closed streams become ones that fail (stdout) or swallow (stderr) instead of
    being None, and text the terminal's encoding cannot show is replaced instead of raising. Returns the
    function that puts the streams back (main calls it when the command is done)."""
    saved = (sys.stdout, sys.stderr)
    for fd, stream in ((0, sys.stdin), (1, sys.stdout), (2, sys.stderr)):
        if stream is None:
            _occupy(fd)
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    elif isinstance(getattr(sys.stdout, "buffer", None), io.FileIO):
        # PYTHONUNBUFFERED: text goes straight to the file, and a short write (the reader went away in
        # the middle of it) is ignored without a word. A buffered writer retries, so it reports EPIPE.
        stream = sys.stdout
        raw = io.FileIO(stream.fileno(), "w", closefd=False)
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=stream.encoding, errors=stream.errors,
                                      write_through=True)
    if sys.stderr is None:
        sys.stderr = _Sink()
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (OSError, ValueError):  # a stream that cannot be reconfigured keeps its own rule
                pass

    def restore() -> None:
        if sys.stdout is not saved[0]:
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
        sys.stdout, sys.stderr = saved

    return restore


def _occupy(fd: int) -> None:
    """Put /dev/null on a closed standard descriptor, so no file lndrill opens (the history) can land on
    it and receive what was meant for the terminal."""
    try:
        os.fstat(fd)
        return  # open after all
    except OSError:
        pass
    try:
        nul = os.open(os.devnull, os.O_RDWR)
        if nul != fd:
            os.dup2(nul, fd)
            os.close(nul)
    except OSError:
        pass


def silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that flushing stdout at exit cannot fail again."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except OSError:
        pass


def flush_stdout() -> None:
    """Flush stdout; OutputError (or BrokenPipeError) if what was printed could not be written."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write to standard output: {_one_line(exc)}") from None


class _Guarded(io.TextIOBase):
    """stdout for Rich: every write error but a broken pipe becomes an OutputError."""

    def __init__(self, stream: IO[str]) -> None:
        super().__init__()
        self._stream = stream

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write to standard output: {_one_line(exc)}") from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write to standard output: {_one_line(exc)}") from None

    def isatty(self) -> bool:
        try:
            return self._stream.isatty()
        except (AttributeError, OSError, ValueError):
            return False

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"


class _Printable:
    """A renderable drawn as `inner` is, minus the control characters in its text (Rich's own styling
    codes are not text and stay)."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control or not segment.text:
                yield segment
            else:
                yield Segment(printable(segment.text), segment.style)


class _PrintableHook(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Printable(r) for r in renderables]


class SafeConsole(Console):
    """A Console whose printed text never carries control characters, and whose broken pipe is an
    ordinary BrokenPipeError (Rich's own handling exits with status 1)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.push_render_hook(_PrintableHook())

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "broken pipe")


def console() -> Console:
    """The console every command prints to: stdout, no markup, no highlighting, no emoji codes; Rich
    drops colour when the output is not a terminal or NO_COLOR is set."""
    return SafeConsole(file=_Guarded(sys.stdout), highlight=False, markup=False, soft_wrap=False, emoji=False)


def emit(text: str = "", end: str = "\n") -> None:
    """One piece of plain text on stdout, without control characters."""
    try:
        sys.stdout.write(printable(text) + end)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write to standard output: {_one_line(exc)}") from None


def emit_lines(lines: Iterable[object]) -> None:
    """Each item on its own line of stdout (see `emit`)."""
    for line in lines:
        emit(str(line))


def emit_json(value: Any) -> None:
    """`value` as indented JSON on stdout (non-ASCII kept; every control character escaped)."""
    emit_json_text(json.dumps(value, ensure_ascii=False, indent=2))


def emit_json_text(text: str) -> None:
    """JSON text on stdout, with the control characters json.dumps leaves raw escaped."""
    emit(json_printable(text))


def tell(message: str) -> None:
    """One line on stderr, as given but on one line and without control characters (store notices and
    problems are already one `lndrill: ...` line). A stderr that cannot be written is ignored: there is nowhere left
    to say so."""
    try:
        print(printable(" ".join(message.splitlines())), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def warn(message: str) -> None:
    """`lndrill: warning: <message>` on stderr."""
    tell(f"lndrill: warning: {message}")
