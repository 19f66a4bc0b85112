"""Random mutations of files for the robustness tests (this module holds no tests of its own):
dropped, duplicated, swapped and garbled lines, cuts, and binary junk."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import strategies as st

KINDS = ["drop", "duplicate", "swap", "garble", "truncate", "junk"]


def _mutate(draw: st.DrawFn, lines: list[bytes], garbage: st.SearchStrategy[str]) -> list[bytes]:
    if not lines:
        lines = [b""]
    i = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(KINDS))
    if kind == "drop":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "garble":
        line = lines[i]
        a = draw(st.integers(0, len(line)))
        b = draw(st.integers(a, min(len(line), a + 6)))
        lines[i] = line[:a] + draw(garbage).encode("utf-8") + line[b:]
    else:
        data = b"\n".join(lines)
        at = draw(st.integers(0, len(data)))
        tail = data[at:] if kind == "junk" else b""
        junk = draw(st.binary(min_size=1, max_size=8)) if kind == "junk" else b""
        lines = (data[:at] + junk + tail).split(b"\n")
    return lines


@st.composite
def mutations(
    draw: st.DrawFn, corpus: Mapping[str, bytes], garbage: st.SearchStrategy[str]
) -> tuple[str, bytes]:
    """A file of ``corpus`` (its name and bytes) with one to three random mutations."""
    name = draw(st.sampled_from(sorted(corpus)))
    lines = corpus[name].split(b"\n")
    for _ in range(draw(st.integers(1, 3))):
        lines = _mutate(draw, lines, garbage)
    return name, b"\n".join(lines)
