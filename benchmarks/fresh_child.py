"""One store operation as a fresh runner makes it: `python -I fresh_child.py OP INDEX [ENTRIES]`.

Run by `python -m benchmarks --reference` once per sample, in a new process whose HOME and
state directory are new and empty, on an index just copied into a new directory. The clock
starts once the interpreter is up and `riverbed` is imported (the package, which imports
the store lazily: its modules, schemas and first calls are paid inside the clock), and stops
when the operation returns; of that, `libraries` is importing the compiled libraries the
operation uses (`LIBRARIES`: first, inside the clock). Prints `{"seconds": …, "count": …,
"libraries": …}`.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path

import riverbed

#: The compiled libraries each operation imports (the tail append: no reader, no msgspec).
LIBRARIES = {
    "load": ("jsonschema_rs", "msgspec.json", "orjson"),
    "append": ("jsonschema_rs", "orjson"),
    "expire": ("jsonschema_rs", "msgspec.json", "orjson"),
}


def main() -> None:
    """Time the operation named on the command line; exit without freeing the loaded index."""
    op, path = sys.argv[1], Path(sys.argv[2])
    entries = json.loads(Path(sys.argv[3]).read_bytes()) if op == "append" else []
    start = time.perf_counter()
    # Inside the clock, and timed apart for the report: the store's third-party libraries
    # that this operation imports on its first call anyway (node's parser is built in). An
    # append by the tail reads no entry, so it never imports msgspec: neither does this.
    for library in LIBRARIES[op]:
        importlib.import_module(library)
    imported = time.perf_counter()
    if op == "load":
        index = riverbed.load_memory(path, on_warning=lambda _message: None)
        count = len(riverbed.query_memory(index, type="pattern", tags=["retry"]))
    elif op == "append":
        riverbed.append_entry(path, entries[0])
        count = 1
    elif op == "expire":
        count = len(riverbed.expire_entries(path).archived)
    else:
        raise SystemExit(f"unknown operation {op!r}")
    seconds = time.perf_counter() - start
    libraries = imported - start
    sys.stdout.write(json.dumps({"seconds": seconds, "count": count, "libraries": libraries}))
    sys.stdout.write("\n")
    sys.stdout.flush()
    # Like node's process.exit, leave without freeing the heap: freeing is no operation's.
    os._exit(0)


if __name__ == "__main__":
    main()
