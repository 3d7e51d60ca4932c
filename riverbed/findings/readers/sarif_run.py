"""One SARIF run's context: tool components and their rules, base URIs, artifacts (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from riverbed.findings.uris import (
    decoded_uri,
    file_path,
    has_scheme,
    is_absolute,
    local_root,
    strip_prefix,
)
from riverbed.index.paths import normalize_path
from riverbed.jsoninput import Walker

#: The toolComponent members (SARIF §3.19) a SARIF output carries over from the input's driver.
DRIVER_KEYS = frozenset(
    (
        "name", "fullName", "version", "semanticVersion", "informationUri", "downloadUri",
        "organization", "product", "productSuite", "shortDescription", "fullDescription",
        "releaseDateUtc", "dottedQuadFileVersion", "language", "guid",
    )
)  # fmt: skip
#: Nested uriBaseIds are rare; four levels is plenty.
_BASE_DEPTH = 4


@dataclass(frozen=True)
class Component:
    """A tool component (the driver or an extension): its rules and global message strings."""

    name: str
    where: str
    guid: str | None = None
    rules: tuple[dict[str, Any], ...] = ()
    rules_by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules_by_guid: dict[str, dict[str, Any]] = field(default_factory=dict)
    global_strings: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, w: Walker, raw: Any, where: str) -> Component:
        """A toolComponent object; rules that are not objects count as empty descriptors."""
        data = w.obj(raw, where)
        rules = tuple(
            r if isinstance(r, dict) else {}
            for r in w.array(data.get("rules"), f"{where}.rules", optional=True)
        )
        by_id: dict[str, dict[str, Any]] = {}
        for rule in rules:
            if isinstance(rule.get("id"), str):
                by_id.setdefault(rule["id"], rule)  # the first of duplicate ids, as index 0 would
        strings = data.get("globalMessageStrings")
        guid = data.get("guid")
        return cls(
            name=w.opt_str(data, "name", where) or "unknown",
            where=where,
            guid=guid.lower() if isinstance(guid, str) else None,
            rules=rules,
            rules_by_id=by_id,
            rules_by_guid={r["guid"].lower(): r for r in rules if isinstance(r.get("guid"), str)},
            global_strings=strings if isinstance(strings, dict) else {},
        )

    def rule_by_id(self, rule_id: str) -> dict[str, Any]:
        """The descriptor of `rule_id`, else of its nearest hierarchical parent (§3.27.5)."""
        while True:
            found = self.rules_by_id.get(rule_id)
            if found is not None:
                return found
            parent, slash, _ = rule_id.rpartition("/")
            if not slash or not parent:
                return {}
            rule_id = parent

    def default_level(self, rule_id: str | None, rule: dict[str, Any]) -> str | None:
        """defaultConfiguration.level of the rule, else of its hierarchical parents."""
        seen: dict[str, Any] = rule
        candidate = rule_id
        while True:
            config = seen.get("defaultConfiguration")
            if isinstance(config, dict) and config.get("level") is not None:
                return str(config["level"]) if isinstance(config["level"], str) else None
            if not candidate or "/" not in candidate:
                return None
            candidate = candidate.rpartition("/")[0]
            seen = self.rule_by_id(candidate)


class Run:
    """One SARIF run: its tool components, base URIs, artifacts and tool name."""

    def __init__(self, walker: Walker, run: dict[str, Any], path: str, root: str | None) -> None:
        self.walker = walker
        self.path = path
        tool = walker.opt_obj(run, "tool", path)
        self.driver = Component.read(walker, tool.get("driver", {}), f"{path}.tool.driver")
        self.tool = self.driver.name
        raw_driver = tool.get("driver")
        version = None
        if isinstance(raw_driver, dict):
            for key in ("semanticVersion", "version"):
                value = raw_driver.get(key)
                if isinstance(value, str) and value.strip():
                    version = value.strip()[:100]
                    break
        #: The driver's version as the log states it (`semanticVersion`, else `version`).
        self.tool_version = version
        #: What a SARIF output keeps of the driver (§3.19): who it is, not its rules.
        self.tool_metadata: dict[str, Any] = (
            {k: v for k, v in raw_driver.items() if k in DRIVER_KEYS}
            if isinstance(raw_driver, dict)
            else {}
        )
        self.extensions = tuple(
            Component.read(walker, raw, f"{path}.tool.extensions[{n}]")
            for n, raw in enumerate(
                walker.array(tool.get("extensions"), f"{path}.tool.extensions", optional=True)
            )
        )
        self.bases = self._bases(walker.opt_obj(run, "originalUriBaseIds", path))
        self.prefixes = [b for b in self.bases.values() if is_absolute(b) or b.startswith("//")]
        if root:
            self.prefixes.append(local_root(root))
        self.artifacts = walker.array(run.get("artifacts"), f"{path}.artifacts", optional=True)
        #: `columnKind` as written (checked where a fix needs it, so bad values cost only fixes).
        self.column_kind: Any = run.get("columnKind")

    @staticmethod
    def _bases(raw: dict[str, Any]) -> dict[str, str]:
        """uriBaseId → absolute local directory ending in `/` (resolving nested bases)."""
        out: dict[str, str] = {}
        for _ in range(_BASE_DEPTH):
            for name, value in raw.items():
                if name in out or not isinstance(value, dict):
                    continue
                uri = value.get("uri")
                if not isinstance(uri, str):
                    continue
                parent = value.get("uriBaseId")
                local = file_path(uri)
                if local is None and isinstance(parent, str) and parent in out:
                    local = out[parent] + normalize_path(unquote(uri))
                if local is not None:
                    local = normalize_path(local)
                    out[name] = local if local.endswith("/") else local + "/"
        return out

    def relative(self, uri: str, base_id: str | None) -> str:
        """A workspace-relative path for an artifact URI (absolute when it lies outside)."""
        local = file_path(uri)
        if local is None:
            if has_scheme(uri):
                return uri  # http: and friends: keep as given
            relative = decoded_uri(uri)
            base = self.bases.get(base_id) if base_id else None
            if is_absolute(relative) or relative.startswith("//"):
                local = relative  # a local path where a URI belongs (Biome writes these)
            elif base is None:
                return relative
            else:
                local = base + relative
        local = normalize_path(local)
        for prefix in self.prefixes:
            inside = strip_prefix(local, prefix)
            if inside is not None:
                return inside
        return local

    def artifact_file(self, artifact: dict[str, Any]) -> str | None:
        """The workspace-relative file an artifactLocation names (`uri`, else `index`)."""
        uri = artifact.get("uri")
        index = artifact.get("index")
        if not isinstance(uri, str) and isinstance(index, int) and 0 <= index < len(self.artifacts):
            entry = self.artifacts[index]
            location = entry.get("location") if isinstance(entry, dict) else None
            if isinstance(location, dict) and isinstance(location.get("uri"), str):
                uri = location["uri"]
                artifact = location
        if not isinstance(uri, str):
            return None
        base_id = artifact.get("uriBaseId")
        return self.relative(uri, base_id if isinstance(base_id, str) else None)

    def component(self, reference: Any, path: str) -> Component:
        """The tool component a toolComponentReference names (§3.54.2); the driver by default."""
        if not isinstance(reference, dict):
            return self.driver
        index = reference.get("index")
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int):
                self.walker.fail(f"{path}.index", f"expected an array index, found {index!r}")
            if index == -1 or not self.extensions:
                # -1 is SARIF's "no index"; with no extensions the only component a reference
                # can mean is the driver (producers that optimise file size write it so).
                return self.driver
            if not 0 <= index < len(self.extensions):
                self.walker.fail(
                    f"{path}.index",
                    f"no tool extension at index {index} "
                    f"(the run has {len(self.extensions)} in tool.extensions)",
                )
            return self.extensions[index]
        guid = reference.get("guid")
        if isinstance(guid, str):
            for candidate in (self.driver, *self.extensions):
                if candidate.guid == guid.lower():
                    return candidate
            self.walker.fail(f"{path}.guid", f"no tool component with guid {guid!r} in this run")
        return self.driver

    def rule_for(
        self, result: dict[str, Any], path: str
    ) -> tuple[str | None, dict[str, Any], Component]:
        """The result's rule id, its descriptor (empty when none) and the component holding it."""
        w = self.walker
        rule_ref = w.opt_obj(result, "rule", path)
        component = self.component(rule_ref.get("toolComponent"), f"{path}.rule.toolComponent")
        rule_id = w.opt_str(result, "ruleId", path)
        if rule_id is None:
            rule_id = w.opt_str(rule_ref, "id", f"{path}.rule")
        index = rule_ref.get("index", result.get("ruleIndex"))
        where = f"{path}.rule.index" if "index" in rule_ref else f"{path}.ruleIndex"
        descriptor: dict[str, Any] = {}
        rules = component.rules
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(rules):
            descriptor = rules[index]
        elif index is not None and index != -1:
            w.fail(where, f"no rule at index {index!r} in {component.where}.rules")
        guid = rule_ref.get("guid")
        if not descriptor and isinstance(guid, str):
            descriptor = component.rules_by_guid.get(guid.lower(), {})
        if rule_id is None and isinstance(descriptor.get("id"), str):
            rule_id = descriptor["id"]
        if not descriptor and rule_id is not None:
            descriptor = component.rule_by_id(rule_id)
        return rule_id, descriptor, component
