"""`riverbed mcp`: a Model Context Protocol server over stdio so coding agents share review memory.

`tools` holds the SDK-free work of each tool; `server` wires it into the `mcp` SDK (an
optional extra, imported only when the server starts).
"""

from __future__ import annotations

import importlib.util

from riverbed.errors import OptionalDependencyError

#: riverbed is installed from a clone or from its repository, never by a bare package name
#: on an index (that name is not riverbed's: it could be anyone's package).
INSTALL_HINT = (
    "pip install '.[mcp]' in a clone of riverbed, or "
    "pip install 'riverbed[mcp] @ git+https://github.com/OWNER/riverbed@COMMIT' "
    "(OWNER: where your organization publishes riverbed)"
)


def require_mcp() -> None:
    """Raise OptionalDependencyError naming the extra when the `mcp` SDK is not installed."""
    if importlib.util.find_spec("mcp") is None:
        raise OptionalDependencyError(
            "`riverbed mcp` needs the Model Context Protocol SDK, which is not installed; "
            f"install it with: {INSTALL_HINT}"
        )
