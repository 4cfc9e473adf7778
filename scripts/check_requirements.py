"""Exit 0 if the running Python has every requirement of requirements.txt installed at an
allowed version, else 1, printing what is missing or out of bounds.

    .venv/bin/python -m scripts.check_requirements [requirements.txt]

scripts/setup.sh runs pip only when this fails, so running setup again costs a
fraction of a second, and a requirements.txt edit that the environment already
satisfies (a comment, a looser bound) installs nothing. It checks what is
installed against what is asked, not a copy of the file, so two checkouts
sharing one environment do not reinstall each other's pins back and forth.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

try:
    from packaging.requirements import InvalidRequirement, Requirement
except ImportError:  # a fresh virtual environment: pip carries its own copy
    from pip._vendor.packaging.requirements import InvalidRequirement, Requirement


def problems(lines: list[str]) -> list[str]:
    found = []
    for raw in lines:
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("-"):  # -r, -e, --index-url …: cannot be checked here, let pip decide
            return [f"{line!r} (an option pip must handle)"]
        try:
            req = Requirement(line)
        except InvalidRequirement as e:
            return [f"{line!r}: {e}"]
        if req.marker is not None and not req.marker.evaluate():
            continue
        try:
            have = version(req.name)
        except PackageNotFoundError:
            found.append(f"{req.name} is not installed (wanted {req.specifier or 'any version'})")
            continue
        if req.specifier and not req.specifier.contains(have, prereleases=True):
            found.append(f"{req.name} {have} is installed, {req.specifier} is wanted")
    return found


def main(argv: list[str]) -> int:
    path = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parent.parent / "requirements.txt")
    missing = problems(path.read_text().splitlines())
    for line in missing:
        print(f"check_requirements: {line}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
