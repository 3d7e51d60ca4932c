"""The OASIS SARIF 2.1.0 schema (pinned in tests/fixtures/sarif) as a test oracle."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs

SCHEMA_PATH = (
    Path(__file__).resolve().parent.parent / "fixtures" / "sarif" / "sarif-schema-2.1.0.json"
)


@functools.cache
def _validators() -> tuple[jsonschema.Draft4Validator, Any]:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    # The schema is draft-04, which has no `uri-reference` format; jsonschema-rs checks it
    # (RFC 3986) under draft 7, whose keywords this schema uses the same way.
    return jsonschema.Draft4Validator(schema), jsonschema_rs.Draft7Validator(
        schema, validate_formats=True
    )


def sarif_problems(document: Any) -> list[str]:
    """Every way `document` breaks the OASIS schema, URI formats included (empty: valid)."""
    structural, formats = _validators()
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in structural.iter_errors(document)]
    problems.extend(f"{e.instance_path}: {e.message}" for e in formats.iter_errors(document))
    return problems
