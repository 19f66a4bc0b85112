"""The file a game writes: private, one writer at a time, whole actions only.

:class:`TranscriptFile` is the only way a game's transcript reaches the disk:

- it is created 0600 whatever the umask, never over an existing file unless asked
  (``force``), and locked (``flock``) for as long as the game writes it: a second process
  that wants to write it gets :class:`~spades_cli.errors.UsageError` at once, naming the
  pid that holds it;
- each :meth:`append` is one whole write at the end of what is saved; when it fails (disk
  full, file size limit, I/O error) the file is cut back to the end of the last whole
  write and :class:`SaveFailed` (exit 1) says so, so the file still replays and resumes;
- ``resume`` continues a file in place (:meth:`continue_with`): through a symbolic link,
  keeping hard links, and rewriting the text only when the file is not already canonical.

:func:`read_limited` reads a received file with the limits of ``docs/security.md``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
from pathlib import Path

from spades_cli.engine.notation import is_number
from spades_cli.errors import EXIT_ILLEGAL, FileFormatError, SpadesError, UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - not a POSIX system: no locks
    fcntl = None  # type: ignore[assignment]

__all__ = ["MAX_FILE_BYTES", "PRIVATE_FILE", "SaveFailed", "TranscriptFile", "read_limited"]

PRIVATE_FILE = 0o600
MAX_FILE_BYTES = 32 * 1024 * 1024  # a transcript or script read: about 45,000 hands


class SaveFailed(SpadesError):
    """A write of the transcript failed; the file holds the game up to its last whole action."""

    exit_code = EXIT_ILLEGAL


def _reason(exc: OSError) -> tuple[str, str]:
    """What went wrong, and what the user can do about it."""
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return ("disk full" if exc.errno == errno.ENOSPC else "disk quota exceeded"), "free some space"
    if exc.errno == errno.EFBIG:
        return "file size limit reached", "raise the file size limit (ulimit -f)"
    return (exc.strerror or str(exc)).lower(), "check the disk"


def save_failed(exc: OSError, path: str, saved_up_to: str | None) -> SaveFailed:
    """The one-line message of a failed write (``saved_up_to``: where the file's game ends)."""
    what, fix = _reason(exc)
    if saved_up_to is None:
        return SaveFailed(f"cannot save the game: {what} ({path}); nothing was saved: {fix}")
    return SaveFailed(
        f"cannot save the game: {what} ({path}); the game is saved up to {saved_up_to}: "
        f"{fix} and run spades resume {path}"
    )


def _ignore_file_size_signal() -> None:
    """Past a file size limit a write fails with EFBIG; the signal sent with it must not kill us."""
    sigxfsz = getattr(signal, "SIGXFSZ", None)
    if sigxfsz is not None:
        with contextlib.suppress(ValueError, OSError):  # not the main thread: it is as it is
            signal.signal(sigxfsz, signal.SIG_IGN)


def _holder(fd: int) -> int | None:
    """The pid holding a lock on ``fd``'s file, from /proc/locks (Linux); None if unknown."""
    try:
        st = os.fstat(fd)
        key = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                words = line.split()
                if "->" in words or key not in words:
                    continue  # a waiter, or another file
                at = words.index(key)
                if is_number(words[at - 1]):
                    return int(words[at - 1])
    except (OSError, ValueError):
        pass
    return None


def _lock(fd: int, path: str) -> None:
    """Take the file's lock, or refuse at once (exit 2) naming the game that holds it."""
    if fcntl is None:  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _holder(fd)
        who = f" (pid {pid})" if pid is not None else ""
        raise UsageError(f"already in use by another game{who}", file=path) from None
    except OSError:
        pass  # a file system without locks: write anyway, as before


def _make_private(fd: int) -> None:
    with contextlib.suppress(OSError):
        if os.fstat(fd).st_uid == os.getuid():
            os.fchmod(fd, PRIVATE_FILE)


class TranscriptFile:
    """One game's transcript file, open and locked (see the module's doc)."""

    def __init__(self, fd: int, path: str, *, created: bool) -> None:
        self.fd = fd
        self.path = path
        self.size = 0  # bytes saved: the file ends with a whole action here
        self.created = created
        self._tail = b""  # resume: bytes after the canonical text ('end *'), dropped by the first append
        self.held = b""  # resume: what the file held when it was opened
        self.failed = False

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, force: bool = False) -> TranscriptFile:
        """A new, private, locked file at ``path``. Without ``force`` an existing file (or a
        symbolic link) is refused: FileExistsError (the caller says what to do); with it the
        file a link points to is written, once the lock is held."""
        name = os.fspath(path)
        _ignore_file_size_signal()
        with contextlib.suppress(OSError):  # a FIFO or a device is refused before it is opened
            if not stat.S_ISREG(os.stat(name).st_mode):
                raise UsageError("is not a regular file: a transcript cannot go there", file=name)
        # O_NONBLOCK: should one appear after that look, its opening does not wait either.
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
        if not force:
            flags |= os.O_EXCL
        try:
            fd = os.open(name, flags, PRIVATE_FILE)
        except FileExistsError:
            raise
        except OSError as exc:
            raise UsageError(f"cannot write the transcript: {exc.strerror or exc}", file=name) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UsageError("is not a regular file: a transcript cannot go there", file=name)
            os.set_blocking(fd, True)
            _lock(fd, name)
            os.ftruncate(fd, 0)
        except OSError as exc:
            os.close(fd)
            raise UsageError(f"cannot write the transcript: {exc.strerror or exc}", file=name) from None
        except BaseException:
            os.close(fd)
            raise
        _make_private(fd)
        return cls(fd, name, created=not force)  # with force the file may be someone's: never removed

    @classmethod
    def open_existing(cls, path: str | os.PathLike[str]) -> tuple[TranscriptFile, bytes]:
        """The transcript ``resume`` continues, locked, and what it holds (read through the
        lock, so no other game can change it under us). Through a symbolic link, the file it
        points to."""
        name = os.fspath(path)
        _ignore_file_size_signal()
        fd = _open_given(name, os.O_RDWR, "cannot open")
        try:
            _check_regular(fd, name)
            _lock(fd, name)
            data = _read_fd(fd, name)
        except BaseException:
            os.close(fd)
            raise
        f = cls(fd, name, created=False)
        f.size = len(data)
        f.held = data
        return f, data

    # -- writing ------------------------------------------------------------------------

    def append(self, data: bytes) -> None:
        """Write ``data`` after what is saved, whole. On failure the file is cut back to what
        was saved before and the OSError is raised again (the caller words it)."""
        if self.failed:
            return
        tail, self._tail = self._tail, b""
        try:
            if tail:  # resume: the first append drops the old 'end *'
                os.ftruncate(self.fd, self.size)
            else:  # the real end: a signal may have stopped us between a write and its count
                self.size = os.fstat(self.fd).st_size
            _write_all(self.fd, data, self.size)
        except OSError:
            self.failed = True
            self._cut_back(tail)
            raise
        self.size += len(data)

    def _cut_back(self, tail: bytes) -> None:
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, self.size)
            # put back what resume would have dropped ('end *'), if there is room
            if tail and os.pwrite(self.fd, tail, self.size) != len(tail):
                os.ftruncate(self.fd, self.size)
        if self.size == 0 and self.created:
            with contextlib.suppress(OSError):
                os.unlink(self.path)  # nothing saved in a file we made: leave nothing behind

    def continue_with(self, text: bytes) -> None:
        """Resume: make the file hold ``text`` (the game so far, canonical) and go on after
        it. Usually ``text`` is what the file holds, less its ``end *``: that line is dropped
        by the first append. Otherwise the file is rewritten: replaced by a new private
        file beside it (the target of a symbolic link), or, when other names link to it,
        overwritten in place. SaveFailed's OSError if that fails (the file is as it was)."""
        _make_private(self.fd)
        old = self.held
        if old.startswith(text):
            self.size = len(text)
            self._tail = old[len(text) :]
            return
        if os.fstat(self.fd).st_nlink > 1:
            self._rewrite_in_place(old, text)
        else:
            self._replace(text)
        self.size = len(text)
        self._tail = b""

    def _rewrite_in_place(self, old: bytes, text: bytes) -> None:
        try:
            _write_all(self.fd, text, 0)
            os.ftruncate(self.fd, len(text))
        except OSError:
            with contextlib.suppress(OSError):
                _write_all(self.fd, old, 0)
                os.ftruncate(self.fd, len(old))
            raise

    def _replace(self, text: bytes) -> None:
        real = Path(os.path.realpath(self.path))
        fd, tmp = tempfile.mkstemp(prefix=".spades-", suffix=".tmp", dir=real.parent)
        try:
            _write_all(fd, text, 0)
            os.fsync(fd)
            if fcntl is not None:  # the new file is ours before anyone can open it by name
                with contextlib.suppress(OSError):
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.replace(tmp, real)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        os.close(self.fd)
        self.fd = fd

    def close(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1


def _write_all(fd: int, data: bytes, offset: int) -> None:
    """``data`` at ``offset``, in one write unless the system takes less at a time."""
    done = 0
    while done < len(data):
        done += os.pwrite(fd, data[done:], offset + done)


def _check_regular(fd: int, name: str, kind: str = "transcript") -> None:
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        raise FileFormatError(f"is a folder, not a {kind} file", file=name)
    if not stat.S_ISREG(st.st_mode):
        raise FileFormatError(f"is not a regular file (a device or a pipe): not a {kind}", file=name)
    if st.st_size > MAX_FILE_BYTES:
        raise FileFormatError(_too_large(kind), file=name)


def _too_large(kind: str) -> str:
    return f"is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB: not a {kind}"


def _read_fd(fd: int, name: str, kind: str = "transcript") -> bytes:
    _check_regular(fd, name, kind)
    chunks = []
    offset = 0
    while True:
        try:
            chunk = os.pread(fd, 1 << 20, offset)
        except OSError as exc:
            raise FileFormatError(f"cannot read: {exc.strerror or exc}", file=name) from None
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
        if offset > MAX_FILE_BYTES:
            raise FileFormatError(_too_large(kind), file=name)
    return b"".join(chunks)


def read_limited(path: str | os.PathLike[str], kind: str = "transcript") -> bytes:
    """The bytes of a file someone gave us: a regular file of at most MAX_FILE_BYTES (a FIFO
    or a device is refused at once, never waited on). FileFormatError (exit 2) otherwise,
    saying the file is not a ``kind``."""
    name = os.fspath(path)
    fd = _open_given(name, os.O_RDONLY, "cannot read", kind)
    try:
        return _read_fd(fd, name, kind)
    finally:
        os.close(fd)


def _open_given(name: str, flags: int, cannot: str, kind: str = "transcript") -> int:
    """Open a file named by the user without waiting on it (a FIFO opens at once)."""
    try:
        return os.open(name, flags | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise FileFormatError(f"is a folder, not a {kind} file", file=name) from None
    except OSError as exc:
        raise FileFormatError(f"{cannot}: {exc.strerror or exc}", file=name) from None
