"""Parse untrusted XML with the standard library, with entity expansion made impossible.

Expat is driven directly and any document type declaration is refused, so no entity
(internal or external) and no DTD can ever be declared: only the five predefined entities
and character references remain. Test reports (pytest, jest-junit) never carry a DOCTYPE.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import NoReturn
from xml.parsers import expat


class UnsafeXMLError(ValueError):
    """The document declares a DTD or an entity, which this parser refuses."""


def _refuse(what: str) -> NoReturn:
    raise UnsafeXMLError(f"{what} is not allowed (DTDs and entities are refused for safety)")


def parse_xml(data: bytes) -> ET.Element:
    """The root element of `data`; ValueError (or UnsafeXMLError) when it is not plain XML."""
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def start_doctype(*_: object) -> NoReturn:
        _refuse("a DOCTYPE declaration")

    def entity_decl(*_: object) -> NoReturn:
        _refuse("an entity declaration")

    def external_ref(*_: object) -> NoReturn:
        _refuse("an external entity reference")

    def start(tag: str, attrs: dict[str, str]) -> None:
        builder.start(tag, attrs)

    def end(tag: str) -> None:
        builder.end(tag)

    parser.StartDoctypeDeclHandler = start_doctype
    parser.EntityDeclHandler = entity_decl
    parser.UnparsedEntityDeclHandler = entity_decl
    parser.ExternalEntityRefHandler = external_ref
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ValueError(
            f"not well-formed XML: {expat.ErrorString(exc.code)} "
            f"at line {exc.lineno}, column {exc.offset + 1}"
        ) from None
    except LookupError as exc:  # `<?xml encoding="UTF-4"?>`: expat asks Python for the codec
        raise ValueError(f"the XML declaration names an unknown encoding ({exc})") from None
    return builder.close()
