"""riverbed's own wheel, built from the action's checkout by the standard library alone.

The action's source tree is pinned by the action's ref, so it is trusted like the code that
runs it; building it needs no backend. This zips the files `package_files` names (the same
ones the venv cache key digests) with a dist-info written from pyproject.toml: METADATA
(so `importlib.metadata.version("riverbed")` works), WHEEL, entry_points.txt (uv writes
the `riverbed` console script from it, a launcher on Windows) and RECORD. uv installs it
like any wheel. Runs only after the install script has refused Pythons below 3.11.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

#: The package directory the wheel carries (pyproject's [tool.hatch.build.targets.wheel]).
PACKAGE = "riverbed"
#: A fixed timestamp, so the same tree gives the same bytes.
_DATE = (2020, 2, 2, 0, 0, 0)
_WHEEL = (
    "Wheel-Version: 1.0\nGenerator: riverbed action_wheel\nRoot-Is-Purelib: true\n"
    "Tag: py3-none-any\n"
)


def package_files(root: Path) -> list[Path]:
    """Every file of the package, sorted, without bytecode caches."""
    return sorted(
        path
        for path in (root / PACKAGE).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


def _extra_marker(requirement: str, extra: str) -> str:
    name, _, marker = requirement.partition(";")
    condition = f"extra == '{extra}'"
    if marker.strip():
        condition = f"({marker.strip()}) and {condition}"
    return f"{name.strip()}; {condition}"


def metadata(project: dict[str, object]) -> str:
    """Core metadata 2.1 from pyproject's [project] table."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
    ]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {req}" for req in _strings(project.get("dependencies"))]
    extras = project.get("optional-dependencies")
    for extra, requirements in sorted(extras.items() if isinstance(extras, dict) else []):
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {_extra_marker(r, extra)}" for r in _strings(requirements)]
    return "\n".join(lines) + "\n"


def _strings(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def _entry_points(project: dict[str, object]) -> str:
    scripts = project.get("scripts")
    if not isinstance(scripts, dict) or not scripts:
        return ""
    body = "".join(f"{name} = {target}\n" for name, target in sorted(scripts.items()))
    return "[console_scripts]\n" + body


def build_wheel(root: Path, out: Path) -> Path:
    """Write riverbed's wheel into `out`; its path."""
    import tomllib  # 3.11+, which the install script has checked by now

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = str(project["name"]), str(project["version"])
    dist_info = f"{name}-{version}.dist-info"
    wheel = out / f"{name}-{version}-py3-none-any.whl"
    records: list[str] = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:

        def add(arcname: str, data: bytes) -> None:
            info = zipfile.ZipInfo(arcname, date_time=_DATE)
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            records.append(f"{arcname},sha256={digest.decode()},{len(data)}")

        for path in package_files(root):
            add(path.relative_to(root).as_posix(), path.read_bytes())
        add(f"{dist_info}/METADATA", metadata(project).encode())
        wheel_file = "Wheel-Version: 1.0\nGenerator: riverbed action_wheel\n"
        add(
            f"{dist_info}/WHEEL",
            (wheel_file + "Root-Is-Purelib: true\nTag: py3-none-any\n").encode(),
        )
        entry_points = _entry_points(project)
        if entry_points:
            add(f"{dist_info}/entry_points.txt", entry_points.encode())
        records.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=_DATE)
        info.external_attr = 0o644 << 16
        archive.writestr(info, "\n".join(records) + "\n")
    return wheel
