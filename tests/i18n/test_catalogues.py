"""Issue 33, item 6: every word a player reads through one gettext catalogue, with English
(the source text), Polish, Japanese and Persian shipped and in step with the source."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import ROOT

from spades_cli import i18n
from spades_cli.engine.play import restrictions
from spades_cli.engine.rules import PlayRules
from spades_cli.view.layout import text_width, wrap

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

LOCALE = Path(i18n.__file__).parent / "locale"
LANGUAGES = ("pl", "ja", "fa")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "NP_": ((1, "c"), 2)}
PLACEHOLDER = re.compile(r"\{[^}]*\}")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


def _source_ids() -> set[tuple[str | None, str]]:
    """(context, message) of every marked message of the package (plural: the singular)."""
    found: set[tuple[str | None, str]] = set()
    method_map = [("spades_cli/**.py", "python")]
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=KEYWORDS, comment_tags=()
    ):
        text = message[0] if isinstance(message, tuple) else message
        found.add((context, text))
    return found


def _catalogue(lang: str):  # type: ignore[no-untyped-def]
    with open(LOCALE / lang / "LC_MESSAGES" / "spades.po", "rb") as f:
        return read_po(f, locale=lang)


def _ids(catalogue) -> set[tuple[str | None, str]]:  # type: ignore[no-untyped-def]
    return {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalogue if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_source_is_translated(lang: str) -> None:
    catalogue = _catalogue(lang)
    assert _source_ids() == _ids(catalogue)  # nothing missing, nothing left over
    for m in catalogue:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        assert all(strings), m.id
        if m.context is None:  # the same named parts, so .format() fills every one
            wanted = set(PLACEHOLDER.findall(ids[-1]))
            assert all(set(PLACEHOLDER.findall(s)) == wanted for s in strings), (m.id, strings)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_is_the_po_file(lang: str) -> None:
    """The committed .mo (installed as package data) says what the .po says."""
    with open(LOCALE / lang / "LC_MESSAGES" / "spades.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for m in _catalogue(lang):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            for n in (1, 2, 5, 22):
                assert compiled.ngettext(m.id[0], m.id[1], n) in m.string
        elif m.context:
            assert compiled.pgettext(m.context, m.id) == m.string
        else:
            assert compiled.gettext(m.id) == m.string


def test_the_engine_words_shown_are_in_the_catalogue() -> None:
    """The reasons the engine gives for a refused card (every play option on) are listed
    for the catalogue, so a language shows them translated."""
    play = PlayRules(spades_break=True, two_of_clubs_leads=True, no_spades_first_trick=True)
    words = {row.words for row in restrictions(play)} - {"you must follow {suit}: you hold {held}"}
    assert words <= set(i18n.ENGINE_WORDS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_fits_60_columns_in_every_language(lang: str) -> None:
    """Rendered with typical values and wrapped as the prompt wraps, no line of any message
    is wider than 60 columns (display width: a Japanese character is two)."""
    i18n.use(lang)
    values = {"seat": i18n.seat_word("S", "South"), "card": "Q♠", "cards": "A♠ K♠ 2♥", "n": 3, "no": 12}
    for m in _catalogue(lang):
        if not m.id:
            continue
        for said in m.string if isinstance(m.string, tuple) else (m.string,):
            filled = PLACEHOLDER.sub(lambda p: str(values.get(p.group()[1:-1].split(":")[0], "+40")), said)
            for line in wrap(filled, 60).split("\n"):
                assert text_width(line) <= 60 or len(line.split()) == 1, (lang, line)


def test_the_language_comes_from_lang_else_the_environment() -> None:
    assert i18n.choose("pl") == "pl" and i18n.choose("ja_JP.UTF-8") == "ja"
    assert i18n.choose(None, {"LANGUAGE": "de:fa", "LANG": "pl_PL.UTF-8"}) == "fa"
    assert i18n.choose(None, {"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "pl_PL.UTF-8"}) == "ja"
    assert i18n.choose(None, {"LANG": "pl_PL.UTF-8"}) == "pl"
    assert i18n.choose(None, {"LC_ALL": "C", "LANG": "pl_PL.UTF-8"}) == "en"
    assert i18n.choose(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.choose(None, {}) == "en"
    with pytest.raises(ValueError, match="unknown language"):
        i18n.choose("xx")


def test_each_language_s_typed_words_map_to_the_canonical_ones() -> None:
    i18n.use("pl")
    assert i18n.canonical("zatrzymaj") == "keep" and i18n.canonical("Odrzuć") == "discard"
    assert i18n.canonical("zagraj QS") == "play QS" and i18n.canonical("tak") == "yes"
    i18n.use("ja")
    assert i18n.canonical("キープ") == "keep" and i18n.canonical("捨てる") == "discard"
    i18n.use("fa")
    assert i18n.canonical("نگه") == "keep" and i18n.canonical("بسوزان") == "discard"
    i18n.use("en")
    assert i18n.canonical("zatrzymaj") == "zatrzymaj" and i18n.typed_help() == []
