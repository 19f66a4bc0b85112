"""A seat's decision at the prompt: the view it decides from, what it may type, and
reading what it typed (the same at a local and at a joined seat)."""

from __future__ import annotations

from collections.abc import Iterable

from spades_cli import view
from spades_cli.engine import (
    BID,
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    HAND_CARD_PHASES,
    KEEP,
    NO_BLIND,
    PASS,
    PLAY,
    ZERO,
    Observation,
    Phase,
    Rules,
)
from spades_cli.engine.cards import RANK_NAMES, card_label, is_card
from spades_cli.engine.notation import NotationError, action_text, parse_action
from spades_cli.engine.text import shown
from spades_cli.i18n import _, canonical
from spades_cli.session.commands import COMMAND_NAMES, COMMANDS, suggest_command
from spades_cli.session.output import GAP, STATUS, VIEW, Output
from spades_cli.view import Fragments, Look, plain, text

_VERBS = ("play", "lead", "bid", "give", "exchange", "pass", "discard")  # words a move may start with


def prompt_word(phase: Phase, players: int) -> str:
    """What the prompt asks for in a phase (``play``, ``bid``, ``blind nil?`` ...)."""
    declare = _("double nil?") if players == 2 else _("blind nil?")
    word = {
        PLAY: _("play"),
        BID: _("bid"),
        DRAFT: _("keep/discard"),
        DECLARE: declare,
        EXCHANGE: _("exchange"),
        PASS: _("pass"),
        DISCARD_PHASE: _("discard"),
    }
    return word.get(phase, str(phase))


def turn_view(look: Look, obs: Observation, width: int, last_status: str) -> tuple[list[Output], str]:
    """What a seat sees when it must decide, and the status line shown (a status line
    is shown when it changed, outside the play, where the table shows it)."""
    out = [Output(GAP, [])]
    line = plain(view.status(look, obs, width))
    if line != last_status and obs.phase != PLAY:
        last_status = line
        out.append(Output(STATUS, text(line)))
    frags: Fragments = []
    if obs.phase == PLAY:
        frags += [*view.table_view(look, obs, width), ("", "\n")]
    if obs.phase == BID:
        frags += text(_("Bids: {bids}").format(bids=view.bids_text(look, obs)) + "\n")
    if obs.phase != DECLARE:
        frags += [*view.hand_line(look, obs), ("", "\n")]
    frags += view.turn_prompt(look, obs, look.rules)
    out.append(Output(VIEW, frags, obs.seat))
    return out, last_status


def read_move(entry: str, obs: Observation, look: Look) -> int | str:
    """The action ``entry`` names at the decision ``obs`` (legal or not: the engine or the
    host judges that), or one line saying why it names none."""
    phase = obs.phase
    entry = canonical(entry)
    words = entry.split()
    if len(words) > 1 and words[0].lower() in _VERBS:
        entry = " ".join(words[1:])
    if phase == BID and entry.lower() == "pass":
        legal = view.compress_bids([a - BID_BASE for a in obs.legal if a != ZERO], ZERO in obs.legal)
        return _("Nobody may pass in Spades: bid {bids}").format(bids=legal)
    try:
        return parse_action(entry, phase)
    except NotationError as exc:
        shortcut = _rank_shortcut(entry, obs, look)
        if shortcut is not None:
            return shortcut
        if entry.isalpha() and len(entry) > 2:
            guess = suggest_command(entry)
            if guess is not None:
                return _("Unknown command {word}: did you mean {guess}?").format(
                    word=repr(entry), guess=repr(guess)
                )
            if phase in HAND_CARD_PHASES or phase == BID:
                return _("Unknown command {word} (type help)").format(word=repr(entry))
        if phase == BID and " is not a bid " in str(exc):
            # The engine reads a bid without the rules: the range said is this table's
            # legal bids (nil or 1-17 in cutthroat), not a fixed one.
            bids = view.compress_bids([a - BID_BASE for a in obs.legal if a != ZERO], ZERO in obs.legal)
            return _("{word} is not a bid: bid {bids}").format(word=shown(entry.strip()), bids=bids)
        return sentence(engine_words(str(exc), exc.hint))


def _rank_shortcut(entry: str, obs: Observation, look: Look) -> int | str | None:
    """``q`` when exactly one legal card is a queen; a question when several are."""
    if obs.phase not in HAND_CARD_PHASES:
        return None
    rank = entry.strip().upper()
    rank = "10" if rank == "T" else rank
    if rank not in RANK_NAMES:
        return None
    # A card's rank is its word without the suit (``10`` of ``10C``); a joker has none.
    cards = [a for a in obs.legal if is_card(a) and card_label(a, symbols=False)[:-1] == rank]
    if len(cards) == 1:
        return cards[0]
    if not cards:
        return _("No {rank} you can play here.").format(rank=rank)
    options = _(" or ").join(look.card_text(c) for c in reversed(cards))
    return _("Which one: {cards}?").format(cards=options)


def _card_note(phase: Phase) -> str:
    """What a card does in the completion list: played, given up (R-2P-3) or passed (R-BN-4)."""
    if phase == PASS:
        return _("pass to your partner")
    if phase == DISCARD_PHASE:
        return _("lay aside, out of play")  # R-J-6
    return _("give up") if phase == EXCHANGE else _("play")


def completions(look: Look, rules: Rules, obs: Observation | None) -> list[tuple[str, str, str]]:
    """``(text to insert, label shown, note)`` for the legal moves at the decision ``obs``
    (None: nothing to decide), then the commands."""
    out: list[tuple[str, str, str]] = []
    if obs is not None:
        for action in _hand_order(look, obs.legal):
            word = action_text(action)
            if obs.phase == EXCHANGE and action == EXCHANGE_DONE:
                out.append((word, word, _("keep the rest")))
            elif is_card(action):
                label = look.card_text(action)
                out.append((word, label, _card_note(obs.phase)))
            elif action == BLIND:
                note = _("declare double nil") if rules.players == 2 else _("bid blind nil")
                out.append(("blind", "blind", note))
            elif action == NO_BLIND:
                out.append(("noblind", "noblind", _("do not declare")))
            elif action == KEEP:
                out.append((word, word, _("keep this card, discard the next")))
            elif action == DISCARD:
                out.append((word, word, _("discard this card, keep the next")))
            else:
                out.append((word, word, _("bid")))
    notes = {c.name: _(c.summary) for c in COMMANDS}
    out.extend((name, name, notes[name]) for name in COMMAND_NAMES)
    return out


def _hand_order(look: Look, actions: Iterable[int]) -> list[int]:
    """Actions with the cards first, in the order the hand shows them (spades, hearts,
    clubs, diamonds, high to low; jokers with the spades), then the rest in their own order."""
    actions = list(actions)
    cards = [c for group in look.sorted_hand(a for a in actions if is_card(a)) for c in group]
    return cards + [a for a in actions if not is_card(a)]


def engine_words(message: str, hint: str = "") -> str:
    """An engine's message (a refused move, a word that names none) in the language in use:
    a whole message the catalogue has, else its closing hint translated (the words quoted
    from the player and the cards stay as they are)."""
    said = _(message)
    if said != message or not hint or not message.endswith(hint):
        return said
    return message[: len(message) - len(hint)] + _(hint)


def sentence(s: str) -> str:
    """``s`` with its first letter in upper case."""
    s = s.strip()
    return s[:1].upper() + s[1:] if s else s
