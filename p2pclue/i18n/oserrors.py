"""What the system said went wrong with a file or a connection, in the reader's language.

``strerror`` is the C library's English ("No such file or directory"), whatever language
the player reads; a message that quotes it ends in English. So the conditions people meet
are said through the catalog by their errno; anything rarer is named by its symbol
(``EBUSY``), which a helper can look up, never in English words.
"""

from __future__ import annotations

import errno

from p2pclue.i18n.translate import pgettext


def os_error_text(exc: OSError | int | None) -> str:
    """Why a file or a socket failed, for people ("no such file or folder")."""
    code = exc.errno if isinstance(exc, OSError) else exc
    if isinstance(exc, TimeoutError) and code is None:
        code = errno.ETIMEDOUT
    words = {
        errno.ENOENT: pgettext("why a file failed", "no such file or folder"),
        errno.EACCES: pgettext("why a file failed", "permission denied"),
        errno.EPERM: pgettext("why a file failed", "operation not permitted"),
        errno.EISDIR: pgettext("why a file failed", "it is a folder"),
        errno.ENOTDIR: pgettext("why a file failed", "a part of the path is not a folder"),
        errno.ENOSPC: pgettext("why a file failed", "the disk is full"),
        errno.EDQUOT: pgettext("why a file failed", "the disk quota is used up"),
        errno.EROFS: pgettext("why a file failed", "the file system is read-only"),
        errno.EEXIST: pgettext("why a file failed", "it exists already"),
        errno.ENAMETOOLONG: pgettext("why a file failed", "the name is too long"),
        errno.ELOOP: pgettext("why a file failed", "too many symbolic links"),
        errno.EIO: pgettext("why a file failed", "an input/output error of the device"),
        errno.EMFILE: pgettext("why a file failed", "too many files are open"),
        errno.EFBIG: pgettext("why a file failed", "the file is too large for this system"),
        errno.ENXIO: pgettext("why a file failed", "no reader or device at the other end"),
        # Translators: why a connection failed.
        errno.ECONNREFUSED: pgettext("why a connection failed", "the connection was refused"),
        errno.ECONNRESET: pgettext("why a connection failed", "the connection was reset"),
        errno.ETIMEDOUT: pgettext("why a connection failed", "no answer in time"),
        errno.EHOSTUNREACH: pgettext("why a connection failed", "the host cannot be reached"),
        errno.ENETUNREACH: pgettext("why a connection failed", "the network cannot be reached"),
        errno.EADDRINUSE: pgettext("why a connection failed", "the address is in use"),
        errno.EADDRNOTAVAIL: pgettext("why a connection failed",
                                      "the address is not one of this machine's"),
    }
    if code in words:
        return words[code]
    symbol = errno.errorcode.get(code, str(code)) if code is not None else "?"
    # Translators: a system error p2pclue has no words for; {code} is its symbol (EBUSY).
    return pgettext("why a file failed", "system error {code}").format(code=symbol)


def os_error_line(exc: OSError) -> str:
    """An ``OSError`` that reached a command's last guard, for people: the file or address
    it names, if any, and why (``str(exc)`` would be "[Errno 2] No such file or directory")."""
    if exc.errno is None and str(exc):  # p2pclue's own (``Unreachable``): already in words
        return str(exc)
    reason = os_error_text(exc)
    if exc.filename is None:
        return reason
    # Translators: a file or an address, then why it failed ("game.p2pclue: it is a folder").
    return pgettext("why a file failed", "{path}: {error}").format(path=exc.filename,
                                                                   error=reason)


__all__ = ["os_error_line", "os_error_text"]
