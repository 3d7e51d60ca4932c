"""Read SARIF 2.1.0 logs (every run, every result) into findings (pure)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from riverbed.findings.model import Finding, max_severity
from riverbed.globs import normalize_path
from riverbed.jsoninput import Walker, WarningSink
from riverbed.model import PHASES

_LEVELS = {"none": "info", "note": "info", "warning": "minor", "error": "major"}
#: SARIF result kinds that say "no problem here"; they are not findings.
_NOT_PROBLEMS = ("pass", "notApplicable")
_MODEL_KEYS = frozenset(
    ("ruleId", "ruleIndex", "rule", "level", "message", "locations", "kind", "properties")
)


def security_severity(value: Any) -> str | None:
    """GitHub's `security-severity` score mapped to a severity (≥9 critical, ≥7 major, ≥4 minor)."""
    try:
        score = float(value)
    except (TypeError, ValueError):
        return None
    if score >= 9:
        return "critical"
    if score >= 7:
        return "major"
    if score >= 4:
        return "minor"
    return None


def _file_path(uri: str) -> str | None:
    """The local path of a `file:` URI (None for other URIs)."""
    parts = urlsplit(uri)
    if parts.scheme.lower() != "file":
        return None
    path = unquote(parts.path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///C:/repo → C:/repo
        path = path[1:]
    return path


class _Run:
    """One SARIF run: its rules, base URIs and tool name."""

    def __init__(self, walker: Walker, run: dict[str, Any], path: str, root: str | None) -> None:
        self.walker = walker
        self.path = path
        tool = walker.opt_obj(run, "tool", path)
        driver = walker.opt_obj(tool, "driver", f"{path}.tool")
        self.tool = walker.opt_str(driver, "name", f"{path}.tool.driver") or "unknown"
        self.rules = [
            r if isinstance(r, dict) else {}
            for r in walker.array(driver.get("rules"), f"{path}.tool.driver.rules", optional=True)
        ]
        self.rules_by_id = {r["id"]: r for r in self.rules if isinstance(r.get("id"), str)}
        self.bases = self._bases(walker.opt_obj(run, "originalUriBaseIds", path))
        self.prefixes = [b for b in self.bases.values() if b.startswith("/") or b[1:3] == ":/"]
        if root:
            self.prefixes.append(normalize_path(root).rstrip("/") + "/")
        self.artifacts = walker.array(run.get("artifacts"), f"{path}.artifacts", optional=True)

    @staticmethod
    def _bases(raw: dict[str, Any]) -> dict[str, str]:
        """uriBaseId → absolute local directory ending in `/` (resolving nested bases)."""
        out: dict[str, str] = {}
        for _ in range(4):  # nested uriBaseIds are rare; four levels is plenty
            for name, value in raw.items():
                if name in out or not isinstance(value, dict):
                    continue
                uri = value.get("uri")
                if not isinstance(uri, str):
                    continue
                parent = value.get("uriBaseId")
                local = _file_path(uri)
                if local is None and isinstance(parent, str) and parent in out:
                    local = out[parent] + unquote(uri)
                if local is not None:
                    out[name] = local if local.endswith("/") else local + "/"
        return out

    def relative(self, uri: str, base_id: str | None) -> str:
        """A repository-relative path for an artifact URI (absolute when it lies outside)."""
        local = _file_path(uri)
        if local is None:
            if urlsplit(uri).scheme:
                return uri  # http: and friends: keep as given
            relative = normalize_path(unquote(uri))
            base = self.bases.get(base_id) if base_id else None
            if base is None:
                return relative
            local = base + relative
        local = normalize_path(local)
        for prefix in self.prefixes:
            if local.startswith(prefix):
                return local[len(prefix) :]
        return local

    def rule_for(self, result: dict[str, Any], path: str) -> tuple[str | None, dict[str, Any]]:
        """The result's rule id and rule descriptor (empty when the run defines none)."""
        rule_ref = self.walker.opt_obj(result, "rule", path)
        rule_id = self.walker.opt_str(result, "ruleId", path)
        if rule_id is None:
            rule_id = self.walker.opt_str(rule_ref, "id", f"{path}.rule")
        index = result.get("ruleIndex", rule_ref.get("index"))
        descriptor: dict[str, Any] = {}
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(self.rules):
            descriptor = self.rules[index]
        elif index is not None and index != -1:
            self.walker.fail(f"{path}.ruleIndex", f"no rule at index {index!r} in this run")
        if rule_id is None and isinstance(descriptor.get("id"), str):
            rule_id = descriptor["id"]
        if not descriptor and rule_id is not None:
            descriptor = self.rules_by_id.get(rule_id, {})
        return rule_id, descriptor


def _message(result: dict[str, Any], rule: dict[str, Any]) -> str | None:
    message = result.get("message")
    if not isinstance(message, dict):
        return None
    for key in ("text", "markdown"):
        if isinstance(message.get(key), str):
            return str(message[key])
    strings = rule.get("messageStrings")
    template = strings.get(message.get("id")) if isinstance(strings, dict) else None
    if isinstance(template, dict) and isinstance(template.get("text"), str):
        text = str(template["text"])
        arguments = message.get("arguments")
        for position, argument in enumerate(arguments if isinstance(arguments, list) else []):
            text = text.replace("{" + str(position) + "}", str(argument))
        return text
    return None


def _title(rule: dict[str, Any]) -> str | None:
    short = rule.get("shortDescription")
    if isinstance(short, dict) and isinstance(short.get("text"), str):
        return str(short["text"])
    name = rule.get("name")
    return name if isinstance(name, str) else None


def _severity(w: Walker, result: dict[str, Any], rule: dict[str, Any], path: str) -> str:
    level = result.get("level")
    where = f"{path}.level"
    if level is None:
        config = rule.get("defaultConfiguration")
        level = config.get("level") if isinstance(config, dict) else None
        where = f"{path} (its rule's defaultConfiguration.level)"
    severity = _LEVELS[w.enum(level, tuple(_LEVELS), where)] if level is not None else "minor"
    for props in (rule.get("properties"), result.get("properties")):
        if isinstance(props, dict):
            mapped = security_severity(props.get("security-severity"))
            if mapped:
                severity = max_severity(severity, mapped)
    return severity


def _result(w: Walker, run: _Run, result: dict[str, Any], path: str) -> Finding:
    rule_id, rule = run.rule_for(result, path)
    file = line = end_line = None
    evidence: tuple[str, ...] = ()
    locations = w.array(result.get("locations"), f"{path}.locations", optional=True)
    if locations:
        loc_path = f"{path}.locations[0]"
        physical = w.opt_obj(w.obj(locations[0], loc_path), "physicalLocation", loc_path)
        phys_path = f"{loc_path}.physicalLocation"
        artifact = w.opt_obj(physical, "artifactLocation", phys_path)
        uri = w.opt_str(artifact, "uri", f"{phys_path}.artifactLocation")
        index = artifact.get("index")
        if uri is None and isinstance(index, int) and 0 <= index < len(run.artifacts):
            entry = run.artifacts[index]
            location = entry.get("location") if isinstance(entry, dict) else None
            if isinstance(location, dict) and isinstance(location.get("uri"), str):
                uri = location["uri"]
                artifact = location
        if uri is not None:
            base_id = artifact.get("uriBaseId")
            file = run.relative(uri, base_id if isinstance(base_id, str) else None)
        region = w.opt_obj(physical, "region", phys_path)
        line = w.opt_line(region, "startLine", f"{phys_path}.region")
        end_line = w.opt_line(region, "endLine", f"{phys_path}.region")
        snippet = region.get("snippet")
        if isinstance(snippet, dict) and isinstance(snippet.get("text"), str):
            evidence = (snippet["text"],)
    props = result.get("properties")
    phase = props.get("phase") if isinstance(props, dict) else None
    return Finding(
        rule_id=rule_id,
        file=file,
        severity=_severity(w, result, rule, path),
        message=_message(result, rule),
        title=_title(rule),
        line=line,
        end_line=end_line,
        phase=phase if phase in PHASES else None,
        evidence=evidence,
        tool=run.tool,
        source_format="sarif",
        original=result,
        extra={k: v for k, v in result.items() if k not in _MODEL_KEYS},
    )


def parse_sarif(
    document: Any, *, source: str, root: str | None = None, warn: WarningSink | None = None
) -> list[Finding]:
    """Every result of every run; file URIs made relative to base URIs or `root`."""
    w = Walker(source, "SARIF 2.1.0")
    log = w.obj(document, "$")
    version = log.get("version")
    if version is not None and version != "2.1.0":
        w.fail("$.version", f"SARIF version {version!r} is not supported (only 2.1.0)")
    findings: list[Finding] = []
    skipped = 0
    for run_no, raw_run in enumerate(w.array(log.get("runs"), "$.runs")):
        run_path = f"$.runs[{run_no}]"
        run = _Run(w, w.obj(raw_run, run_path), run_path, root)
        results = w.array(raw_run.get("results"), f"{run_path}.results", optional=True)
        for result_no, raw in enumerate(results):
            path = f"{run_path}.results[{result_no}]"
            result = w.obj(raw, path)
            if result.get("kind") in _NOT_PROBLEMS:
                skipped += 1
                continue
            findings.append(_result(w, run, result, path))
    outside = sum(1 for f in findings if f.file and (f.file.startswith("/") or f.file[1:3] == ":/"))
    if outside and warn:
        warn(
            f"{source}: {outside} findings name absolute paths outside the workspace; "
            "path globs and fingerprints see them as absolute (pass --workspace)"
        )
    if skipped and warn:
        warn(
            f"{source}: skipped {skipped} SARIF results of kind pass/notApplicable "
            "(they report no problem)"
        )
    return findings
