"""The words a player reads, in the player's language: one gettext catalogue (domain
``spades``) with English (the source text), Polish, Japanese and Persian.

- :func:`use` chooses the language once per process: ``--lang``, else the first shipped
  language named by ``LANGUAGE`` (a colon list), ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``;
  English otherwise (also in the C / POSIX locale).
- :func:`_`, :func:`ngettext` and :func:`pgettext` translate at the moment they are called
  (so a constant is marked with :func:`N_` and translated where it is shown).
- Typed words: each language may add its own words for the moves (``zatrzymaj`` for
  ``keep``); they are the catalogue's translations of the canonical word in the context
  ``"typed"``, and :func:`canonical` maps them back, so transcripts keep the canonical words.

The catalogues are ``locale/LANG/LC_MESSAGES/spades.po``, extracted and compiled with
Babel (``babel.cfg`` at the top of the repository, README "Translations"); the compiled
``.mo`` files are committed and installed as package data.
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "spades"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: dict[str, str] = {"en": "English", "pl": "polski", "ja": "日本語", "fa": "فارسی"}
RIGHT_TO_LEFT = frozenset({"fa"})
SEAT = "seat"  # the context of a seat's name, by its letter (the engine's SEAT_WORDS in English)
TYPED = "typed"  # the context of a move word's translations: the words a player may type

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def normal(name: str) -> str | None:
    """The shipped language a locale name means (``pl_PL.UTF-8`` -> ``pl``), else None."""
    code = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def choose(lang: str | None = None, environ: dict[str, str] | None = None) -> str:
    """The language to speak: ``lang`` (``--lang``) if given, else the environment's."""
    if lang:
        found = normal(lang)
        if found is None:
            raise ValueError(f"unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
        return found
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var != "LANGUAGE" and value.split(".")[0] in ("C", "POSIX"):
            return "en"
        for name in value.split(":"):
            found = normal(name)
            if found is not None:
                return found
        if var != "LANGUAGE":
            return "en"
    return "en"


def use(lang: str | None = None) -> str:
    """Speak ``lang`` (see :func:`choose`) from now on; the language chosen."""
    global _current, _language
    _language = choose(lang)
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)
    _words.clear()
    return _language


def seat_word(letter: str, english: str) -> str:
    """A seat's name (``english``: the engine's) in the language in use."""
    said = pgettext(SEAT, letter)
    return english if said == letter else said


def language() -> str:
    return _language


def right_to_left() -> bool:
    return _language in RIGHT_TO_LEFT


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _current.gettext(message)


def N_(message: str) -> str:
    """Marks a constant for the catalogue; :func:`_` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _current.pgettext(context, message)


_words: dict[str, str] = {}


def typed_words() -> dict[str, str]:
    """The words of the language in use a player may type for a canonical move word
    (``{"zatrzymaj": "keep"}``), lower case; empty in English."""
    if not _words:
        for word in MOVE_WORDS:
            for said in pgettext(TYPED, word).split("|"):
                said = said.strip().lower()
                if said and said != word:
                    _words[said] = word
    return _words


def canonical(entry: str) -> str:
    """``entry`` with its words of the language in use replaced by the canonical ones
    (``zatrzymaj`` -> ``keep``, ``licytuj 3`` -> ``bid 3``)."""
    words = typed_words()
    if not words:
        return entry
    return " ".join(words.get(w.lower(), w) for w in entry.split())


def typed_help() -> list[str]:
    """``keep: zatrzymaj``: the language's own words for the moves, for ``help``."""
    by_word: dict[str, list[str]] = {}
    for said, word in typed_words().items():
        by_word.setdefault(word, []).append(said)
    return [f"{word} = {' / '.join(saids)}" for word, saids in by_word.items()]


def NP_(context: str, message: str) -> str:
    """Marks a constant with its context for the catalogue (:func:`pgettext` translates it)."""
    return message


# The typed words each language may add, by canonical word: the catalogue's translation of
# each in the context "typed" (several words split with "|"; the word itself adds none).
MOVE_WORDS = (
    NP_("typed", "keep"),
    NP_("typed", "discard"),
    NP_("typed", "blind"),
    NP_("typed", "noblind"),
    NP_("typed", "done"),
    NP_("typed", "nil"),
    NP_("typed", "zero"),
    NP_("typed", "play"),
    NP_("typed", "bid"),
    NP_("typed", "yes"),
    NP_("typed", "no"),
    NP_("typed", "help"),
)

# Words the program shows from tables of the engine (seat names by their letters, suit names, the reasons a
# move is refused, the hints of a word that names no move): listed here so that the
# catalogue has them; the view translates them where it shows them
# (tests/i18n/test_catalogues.py keeps this list in step with the engine).
ENGINE_WORDS = (
    NP_("seat", "N"),
    NP_("seat", "E"),
    NP_("seat", "S"),
    NP_("seat", "W"),
    N_("spades"),
    N_("hearts"),
    N_("diamonds"),
    N_("clubs"),
    N_("spades may not be played to the first trick while you hold other cards"),
    N_("the two of clubs must lead the first trick"),
    N_("no spade may lead the first trick while you hold another suit"),
    N_("spades are not broken yet: lead another suit"),
    N_("answer blind to declare double / blind nil, or noblind"),
    N_("answer keep to keep this card and discard the next, or discard to keep the next"),
    N_("bid a number 1-13, or nil"),
    N_("a bid is a number 1-13, or nil"),
    N_("give up a card, or answer done"),
    N_("a card, such as QS, 10h, Th or Q♠"),
    N_("empty input"),
    N_("double / blind nil is declared before you see your cards, not now"),
)
