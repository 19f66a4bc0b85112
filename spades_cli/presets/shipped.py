"""The shipped presets: the YAML files of the top-level ``rules/`` folder, installed as the
package ``spades_cli.rules``, found by name or file stem."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable

from spades_cli.engine.text import shown

__all__ = [
    "PRESETS_PACKAGE",
    "PresetInfo",
    "find_shipped",
    "shipped",
    "shipped_text",
    "unknown_preset_message",
]

PRESETS_PACKAGE = "spades_cli.rules"


@dataclass(frozen=True)
class PresetInfo:
    name: str
    file: str
    description: str


def _presets_dir() -> Traversable:
    """The shipped presets: the installed package ``spades_cli.rules``; when the code
    runs straight from a source checkout (no install maps ``rules/`` into the package),
    the checkout's top-level ``rules/`` folder."""
    try:
        return resources.files(PRESETS_PACKAGE)
    except ModuleNotFoundError:
        return resources.files("spades_cli").joinpath("..", "rules")


def _info(entry: Traversable) -> PresetInfo:
    from spades_cli.presets.yaml_source import load_plain  # yaml only once a preset is read

    name, description = entry.name.rsplit(".", 1)[0], ""
    data = load_plain(entry.read_text(encoding="utf-8"))
    if isinstance(data, dict):
        if isinstance(data.get("name"), str):
            name = data["name"]
        if isinstance(data.get("description"), str):
            description = data["description"].strip().splitlines()[0] if data["description"] else ""
    return PresetInfo(name, entry.name, description)


@lru_cache(maxsize=1)
def shipped() -> tuple[PresetInfo, ...]:
    """The shipped presets, sorted by name."""
    found = [
        _info(entry)
        for entry in _presets_dir().iterdir()
        if entry.name.endswith((".yaml", ".yml")) and entry.is_file()
    ]
    return tuple(sorted(found, key=lambda p: p.name))


def find_shipped(name: str) -> PresetInfo | None:
    """The shipped preset of this name, file name or file stem."""
    for info in shipped():
        if name in (info.name, info.file, info.file.rsplit(".", 1)[0]):
            return info
    return None


def unknown_preset_message(name: str) -> str:
    """The problem of a preset name that is not shipped, with the names that are."""
    import difflib  # only when a name is wrong

    names = [p.name for p in shipped()]
    candidates = names + [p.file.rsplit(".", 1)[0] for p in shipped()]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    listed = ", ".join(names)
    return f"unknown rules preset {shown(name, 60)} (presets: {listed}; or give a .yaml file){hint}"


def shipped_text(info: PresetInfo) -> str:
    return _presets_dir().joinpath(info.file).read_text(encoding="utf-8")
