"""The repeated-key check is exact: it agrees with a parse that sees every pair, on any layout."""

from __future__ import annotations

import json
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from riverbed.index.jsonbytes import repeated_key

# Keys and strings drawn from characters that matter to the check: colons, quotes, escapes.
text = st.text(alphabet=st.sampled_from('ab:"\\ é\n'), max_size=4)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(0, 2), text)
# A node is ("obj", [(key, node)…]) with keys possibly repeated, ("arr", [node…]) or a scalar.
nodes = st.recursive(
    scalars.map(lambda v: ("scalar", v)),
    lambda inner: st.one_of(
        st.lists(st.tuples(st.sampled_from(["a", "b", "a:b", "c"]) | text, inner), max_size=4).map(
            lambda pairs: ("obj", pairs)
        ),
        st.lists(inner, max_size=3).map(lambda items: ("arr", items)),
    ),
    max_leaves=20,
)


def string(value: str, escape_colons: bool) -> str:
    out = json.dumps(value, ensure_ascii=False)
    return out.replace(":", "\\u003a") if escape_colons else out


def render(node: Any, indent: int | None, escape: bool, level: int = 0) -> str:
    kind, body = node
    if kind == "scalar":
        return string(body, escape) if isinstance(body, str) else json.dumps(body)
    if not body:
        return "{}" if kind == "obj" else "[]"
    if kind == "obj":
        parts = [f"{string(k, escape)}: {render(v, indent, escape, level + 1)}" for k, v in body]
        brackets = "{}"
    else:
        parts = [render(v, indent, escape, level + 1) for v in body]
        brackets = "[]"
    if indent is None:
        return brackets[0] + ",".join(parts) + brackets[1]
    inner = "\n" + " " * (indent * (level + 1))
    return (
        brackets[0]
        + inner
        + ("," + inner).join(parts)
        + "\n"
        + " " * (indent * level)
        + brackets[1]
    )


def has_repeat(node: Any) -> bool:
    kind, body = node
    if kind == "obj":
        keys = [k for k, _ in body]
        return len(set(keys)) != len(keys) or any(has_repeat(v) for _, v in body)
    if kind == "arr":
        return any(has_repeat(v) for v in body)
    return False


@settings(max_examples=400, deadline=None)
@given(nodes, st.sampled_from([None, 2, 4]), st.booleans())
def test_the_check_finds_exactly_the_documents_that_repeat_a_key(
    node: Any, indent: int | None, escape: bool
) -> None:
    data = (render(node, indent, escape) + ("\n" if indent else "")).encode()
    pretty = orjson.dumps(orjson.loads(data), option=orjson.OPT_INDENT_2)
    found = repeated_key(data, pretty)
    assert (found is not None) == has_repeat(node)
    if found is not None:
        key, holder = found
        assert key in holder


def test_a_canonical_file_is_cleared_by_comparison_alone() -> None:
    document = {"entries": [{"id": "x", "when": "12:00"}], "version": "1"}
    pretty = orjson.dumps(document, option=orjson.OPT_INDENT_2)
    assert repeated_key(pretty + b"\n", pretty) is None
