"""The script listings of docs/transcript-format.md are the files they show, byte for byte.

A listing is marked ``<!-- script: PATH -->`` before its fenced block and ``<!-- end
script -->`` after it; PATH is relative to the repository.
"""

from __future__ import annotations

import re

from helpers.paths import ROOT

LISTING = re.compile(r"<!-- script: (\S+) -->\n```\n(.*?)```\n<!-- end script -->", re.DOTALL)


def test_the_script_listings_equal_their_files() -> None:
    doc = (ROOT / "docs" / "transcript-format.md").read_text(encoding="utf-8")
    listings = LISTING.findall(doc)
    assert sorted(path for path, _ in listings) == [
        "transcripts/scripts/four-player.txt",
        "transcripts/scripts/two-player.txt",
    ]
    for path, shown in listings:
        assert shown == (ROOT / path).read_text(encoding="utf-8"), path


def test_every_script_file_is_listed() -> None:
    doc = (ROOT / "docs" / "transcript-format.md").read_text(encoding="utf-8")
    listed = {path for path, _ in LISTING.findall(doc)}
    files = {f"transcripts/scripts/{p.name}" for p in (ROOT / "transcripts" / "scripts").glob("*.txt")}
    assert files == listed
