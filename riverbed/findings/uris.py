"""SARIF artifact URIs to riverbed paths and back (RFC 3986 URI references, §3.10) (pure)."""

from __future__ import annotations

import os
import re
from urllib.parse import quote, unquote, urlsplit

from riverbed.index.paths import normalize_path

#: A Windows drive path, with either separator (`C:\work`, `c:/work`).
_DRIVE = re.compile(r"[A-Za-z]:[\\/]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
#: Characters a path segment may carry unencoded besides the unreserved ones (RFC 3986 pchar
#: minus `:`, which would read as a scheme in the first segment of a relative reference).
_PATH_SAFE = "/!$&'()*+,;=@"
#: Everything RFC 3986 allows in a URI, for repairing a producer's URI that is not quite one.
_URI_SAFE = "%:/?#[]@!$&'()*+,;=~"
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def _uri_reference_pattern() -> re.Pattern[str]:
    """RFC 3986 appendix A's URI-reference (IP literals loosely), as one regular expression."""
    unreserved, pct, sub = r"[A-Za-z0-9\-._~]", r"%[0-9A-Fa-f]{2}", r"[!$&'()*+,;=]"
    pchar = f"(?:{unreserved}|{pct}|{sub}|[:@])"
    segment_nz_nc = f"(?:{unreserved}|{pct}|{sub}|@)+"
    host = rf"(?:\[[0-9A-Fa-f:.vV]+\]|(?:{unreserved}|{pct}|{sub})*)"
    authority = rf"(?:(?:{unreserved}|{pct}|{sub}|:)*@)?{host}(?::[0-9]*)?"
    abempty = f"(?:/{pchar}*)*"
    absolute = f"/(?:{pchar}+{abempty})?"
    tail = rf"(?:\?(?:{pchar}|[/?])*)?(?:#(?:{pchar}|[/?])*)?"
    hier = f"(?://{authority}{abempty}|{absolute}|{pchar}+{abempty}|)"
    relative = f"(?://{authority}{abempty}|{absolute}|{segment_nz_nc}{abempty}|)"
    return re.compile(f"(?:[A-Za-z][A-Za-z0-9+.\\-]*:{hier}|{relative}){tail}")


_URI_REFERENCE = _uri_reference_pattern()


def is_uri_reference(text: str) -> bool:
    """True when `text` is an RFC 3986 URI reference (absolute URI or relative reference)."""
    return _URI_REFERENCE.fullmatch(text) is not None


def is_windows_absolute(path: str) -> bool:
    """True for `C:\\…`, `C:/…` and UNC `\\\\host\\share` paths."""
    return _DRIVE.match(path) is not None or path.startswith(("\\\\", "//"))


def is_absolute(path: str) -> bool:
    """True for a POSIX or Windows absolute path (as riverbed writes them: `/` separators)."""
    return path.startswith("/") or _DRIVE.match(path) is not None


def has_scheme(uri: str) -> bool:
    """True when `uri` starts with a URI scheme (a drive letter such as `C:` is not one)."""
    return _SCHEME.match(uri) is not None and _DRIVE.match(uri) is None


def file_path(uri: str) -> str | None:
    """The local path of a `file:` URI or of a raw Windows path; None for anything else."""
    if _DRIVE.match(uri) or uri.startswith("\\\\"):
        # Not a URI but emitted by real tools on Windows: a path, kept literally.
        return normalize_path(uri)
    parts = urlsplit(uri)
    if parts.scheme.lower() != "file":
        return None
    path = unquote(parts.path)
    host = unquote(parts.netloc)
    if re.fullmatch(r"[A-Za-z]:", host):  # file://C:/x, a common misspelling of file:///C:/x
        return host + path
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///C:/repo → C:/repo
        path = path[1:]
    if host and host.lower() != "localhost":
        return f"//{host}{path}"  # a network share: file://server/share/x → //server/share/x
    return path


def absolute_root(root: str) -> str:
    """`root` made absolute against the current directory; a Windows path stays as it is."""
    return root if is_windows_absolute(root) else os.path.abspath(root)


def local_root(root: str) -> str:
    """A root directory as riverbed compares paths: `/` separators, ending in `/`."""
    return normalize_path(root).rstrip("/") + "/"


def strip_prefix(path: str, prefix: str) -> str | None:
    """`path` relative to directory `prefix` (ending in `/`), or None when it lies outside."""
    if path.startswith(prefix):
        return path[len(prefix) :]
    # Windows paths compare case-insensitively (NTFS; `c:` and `C:` are one drive).
    if is_windows_absolute(prefix) and path.lower().startswith(prefix.lower()):
        return path[len(prefix) :]
    return None


def to_uri_reference(path: str) -> str:
    """An RFC 3986 URI reference for a riverbed path: relative, `file:` for absolute paths."""
    if has_scheme(path):
        # A URI the reader kept as given (https: and friends): repair only what is invalid.
        return quote(_BAD_PERCENT.sub("%25", path), safe=_URI_SAFE)
    if path.startswith("//"):
        host, _, rest = path[2:].partition("/")
        return f"file://{quote(host, safe='')}/{quote(rest, safe=_PATH_SAFE)}"
    if _DRIVE.match(path):
        return f"file:///{path[0]}:/{quote(path[3:], safe=_PATH_SAFE)}"
    if path.startswith("/"):
        return "file://" + quote(path, safe=_PATH_SAFE)
    return quote(path, safe=_PATH_SAFE)


def decoded_uri(uri: str) -> str:
    """The path a reader makes of `uri` before any base or root applies."""
    local = file_path(uri)
    if local is not None:
        return normalize_path(local)
    return uri if has_scheme(uri) else normalize_path(unquote(uri))
