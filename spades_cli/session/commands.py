"""The commands a player can type besides a move: one registry, each command once (its
name, aliases, help and handler), answering from a :class:`~spades_cli.session.seat.SeatView`
so that a local and a joined seat give the same answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spades_cli import view
from spades_cli.engine import (
    BID_BASE,
    BLIND,
    DECLARE,
    DISCARD,
    DISCARD_PHASE,
    DRAFT,
    EXCHANGE,
    EXCHANGE_DONE,
    KEEP,
    NO_BLIND,
    PASS,
    PLAY,
    ZERO,
    Observation,
    Phase,
    Rules,
    action_text,
)
from spades_cli.engine import compiled as _compiled
from spades_cli.engine.actions import MAX_BID
from spades_cli.engine.cards import card_label, is_card
from spades_cli.i18n import N_, _, canonical, typed_help
from spades_cli.session.output import REPLY, Output, error, reply
from spades_cli.session.seat import SeatView
from spades_cli.view import Fragments, count, text

Handler = Callable[[SeatView, str], list[Output]]


@dataclass(frozen=True)
class Command:
    name: str
    aliases: tuple[str, ...]
    summary: str
    handler: Handler


def default_hint_level() -> str:
    """The bot that answers ``hint``: the expert answers well within a second when the
    engine is compiled; on a pure-Python install the hard bot does."""
    return "expert" if _compiled() else "hard"


ZERO_HELP = N_("At this table zero is a bid of its own: no tricks, with no nil bonus or penalty (0 is nil).")
PASS_HELP = N_(
    "At this table a blind nil passes {n} cards face down to the partner after the bids, one at a "
    "time (pass QS), and the partner passes {n} back."
)
DISCARD_HELP = N_(
    "At this table {n} cards are left over after the deal: {who} takes them up and, before the "
    "bidding, lays {n} cards aside face down, out of play, one at a time (discard QS)."
)
DISCARD_AFTER_HELP = N_(
    "At this table {n} cards are left over after the deal: {who} takes them up and, after the "
    "bidding, lays {n} cards aside face down, out of play, one at a time (discard QS)."
)


def _discard_help(rules: Rules) -> tuple[str, ...]:
    """R-J-6 / R-J-7: the help line of a table whose deal leaves cards over."""
    k = rules.deck.discard
    if not k:
        return ()
    who = _("the holder of the two of clubs") if rules.deck.discard_to == "two_of_clubs" else _("the dealer")
    said = _(DISCARD_AFTER_HELP) if rules.deck.discard_after_bids else _(DISCARD_HELP)
    return (said.format(n=k, who=who),)


def _help(seat: SeatView, arg: str) -> list[Output]:
    zero = (_(ZERO_HELP),) if seat.rules.nil.zero else ()  # R-NV-4
    k = seat.rules.blind_nil.pass_cards
    passing = (_(PASS_HELP).format(n=k),) if k else ()  # R-BN-4
    discard = _discard_help(seat.rules)  # R-J-6
    return [reply("\n".join(help_lines((*zero, *passing, *discard, *seat.extra_help))))]


def _hand(seat: SeatView, arg: str) -> list[Output]:
    obs = seat.observation()
    if obs is None:
        return [reply(_("Nobody is at the table."))]
    frags = view.hand_line(seat.look, obs)
    if seat.rules.players == 2 and obs.phase in (DRAFT, DECLARE, EXCHANGE) and obs.looked:
        frags += [("", "\n"), *view.discards_line(seat.look, obs)]
    return [Output(REPLY, frags)]


def _table(seat: SeatView, arg: str) -> list[Output]:
    obs = seat.observation()
    if obs is None or obs.phase != PLAY:
        return [reply(_("No trick is being played now."))]
    if not seat.up_to_date():
        return [reply(_("The trick in progress is shown as it is played."))]
    return [Output(REPLY, view.table_view(seat.look, obs, seat.width))]


def _last(seat: SeatView, arg: str) -> list[Output]:
    tricks = seat.hand_tricks()
    if tricks:
        return [Output(REPLY, seat.look.finished_trick(len(tricks), tricks[-1]))]
    previous = seat.previous_trick()
    if previous is None:
        return [reply(_("No trick has been played yet."))]
    trick, hand_no = previous
    return [
        Output(
            REPLY,
            [
                *seat.look.finished_trick(seat.rules.hand_size, trick),
                ("", " " + _("(hand {no})").format(no=hand_no + 1)),
            ],
        )
    ]


def _tricks(seat: SeatView, arg: str) -> list[Output]:
    tricks = seat.hand_tricks()
    if not tricks:
        return [reply(_("No trick of this hand has been played yet."))]
    lines: Fragments = []
    for i, trick in enumerate(tricks):
        if i:
            lines.append(("", "\n"))
        lines += seat.look.finished_trick(i + 1, trick)
    return [Output(REPLY, lines)]


def _score(seat: SeatView, arg: str) -> list[Output]:
    results, rules = seat.hands_scored(), seat.rules
    if not results:
        return [reply(_("No hand has been scored yet (game to {target}).").format(target=rules.target))]
    table = view.score_table(seat.look, rules, results)
    return [Output(REPLY, [("", _("Score (game to {target}):").format(target=rules.target) + "\n"), *table])]


def _bids(seat: SeatView, arg: str) -> list[Output]:
    obs = seat.observation()
    if obs is None:
        return [reply(_("Nobody is at the table."))]
    bids, tricks = view.seats_text(seat.look, obs), view.tricks_text(seat.look, obs)
    return [reply(_("Bids/tricks: {bids}. Sides: {tricks}.").format(bids=bids, tricks=tricks))]


def _discards(seat: SeatView, arg: str) -> list[Output]:
    if seat.rules.players != 2 and not seat.rules.deck.discard:
        return [reply(_("Nobody discards in this game."))]
    obs = seat.observation()
    if obs is None:
        return [reply(_("Nobody is at the table."))]
    frags = view.discards_line(seat.look, obs)
    if seat.rules.players != 2:  # R-J-6: the cards left over, laid aside by one seat
        if not obs.own_discards:
            frags = text(_("You have laid no cards aside this hand."))
        other = _("Cards another seat lays aside are out of play, unseen.")
        return [Output(REPLY, frags + text("\n" + other))]
    other = _("{seat}'s discards are out of play too, unseen.").format(seat=seat.look.seat(1 - obs.seat))
    frags += text("\n" + other)
    return [Output(REPLY, frags)]


def _counted(seat: SeatView) -> Observation | str:
    """The observation card counting reads, or why there is none to count from now."""
    obs = seat.observation()
    if obs is None:
        return _("Nobody is at the table.")
    if not obs.looked:
        return _("{seat} has not looked at the cards yet.").format(seat=seat.look.seat(obs.seat))
    if not seat.up_to_date():
        return _("The cards are counted on your turn, as the table is then.")
    return obs


def _out(seat: SeatView, arg: str) -> list[Output]:
    obs = _counted(seat)
    return [reply(obs if isinstance(obs, str) else count.out_lines(seat.look, obs))]


def _voids(seat: SeatView, arg: str) -> list[Output]:
    obs = _counted(seat)
    return [reply(obs if isinstance(obs, str) else count.voids_line(seat.look, obs))]


def _rules(seat: SeatView, arg: str) -> list[Output]:
    if arg.lower() == "all":
        from spades_cli.presets import rules_to_yaml

        return [reply(rules_to_yaml(seat.rules).rstrip("\n"))]
    return [Output(REPLY, view.rules_summary(seat.look, seat.rules))]


def _hint(seat: SeatView, arg: str) -> list[Output]:
    obs = seat.deciding()
    if obs is None:
        return [reply(_("Nothing to decide now."))]
    rng = seat.hint_rng()
    if rng is None:
        return [reply(_("The host has turned hints off at this table."))]
    from spades_cli.bots import make_bot

    level = seat.hint_level
    try:
        action, reason = make_bot(level).explain(obs, seat.rules, rng)
    except Exception as exc:  # a failing adviser must not end the game
        failed = _("No hint this time: the {level} bot failed ({error}).")
        return [error(failed.format(level=level, error=f"{type(exc).__name__}: {exc}"))]
    if action not in obs.legal:
        return [error(_("No hint this time: the {level} bot suggested an illegal move.").format(level=level))]
    said = _("Hint ({level} bot): {move} - {reason}")
    return [reply(said.format(level=level, move=_typed(action, obs.phase), reason=reason))]


def _typed(action: int, phase: Phase) -> str:
    """An action in the words a player types for it (``play 9C``, ``bid 3``, ``blind``)."""
    if is_card(action):
        card = card_label(action, symbols=False)
        if phase == PASS:
            return f"pass {card}"  # R-BN-4
        if phase == DISCARD_PHASE:
            return f"discard {card}"  # R-J-6
        return f"give up {card}" if phase == EXCHANGE else f"play {card}"
    if BID_BASE <= action <= BID_BASE + MAX_BID:
        return "bid nil" if action == BID_BASE else f"bid {action - BID_BASE}"
    if action == ZERO:
        return "bid zero"  # R-NV-4
    words = {BLIND: "blind", NO_BLIND: "noblind", EXCHANGE_DONE: "done", KEEP: "keep", DISCARD: "discard"}
    return words.get(action) or action_text(action)  # (a blind bid: blind6, R-BB-1)


def _undo(seat: SeatView, arg: str) -> list[Output]:
    return seat.take_back()


def _claim(seat: SeatView, arg: str) -> list[Output]:
    return seat.claim()


def _transcript(seat: SeatView, arg: str) -> list[Output]:
    if seat.shared:
        return [reply(_("The host keeps the game's transcript."))]
    if seat.transcript_path is None:
        return [reply(_("This game is not being saved."))]
    return [reply(_("The game is saved in {path}").format(path=seat.transcript_path))]


def _quit(seat: SeatView, arg: str) -> list[Output]:
    seat.confirming = True
    if seat.shared:
        said = _("Leave the table? Type yes to leave, anything else to keep playing.")
    elif seat.transcript_path:
        said = _(
            "Leave the game (it stays saved in {path})? Type yes to leave, anything else to keep playing."
        )
    else:
        said = _("Leave the game? Type yes to leave, anything else to keep playing.")
    return [reply(said.format(path=seat.transcript_path))]


COMMANDS: tuple[Command, ...] = (
    Command("help", ("?",), N_("what you can type"), _help),
    Command("hand", ("cards",), N_("your cards, sorted by suit"), _hand),
    Command("table", ("trick",), N_("the trick in progress, who led it and who is on turn"), _table),
    Command("last", (), N_("the previous trick"), _last),
    Command("tricks", (), N_("every trick of this hand so far"), _tricks),
    Command("score", ("scores",), N_("points of every hand, totals and bags"), _score),
    Command("bids", (), N_("the bids and the tricks taken against them"), _bids),
    Command("out", (), N_("the cards you have not seen yet in this hand, by suit"), _out),
    Command("voids", (), N_("the suits each seat has shown out of in this hand"), _voids),
    Command(
        "discards",
        (),
        N_("the cards you discarded or laid aside this hand"),
        _discards,
    ),
    Command("rules", (), N_("the rules of this table ('rules all' prints every option)"), _rules),
    Command(
        "hint", (), N_("what the expert bot (hard on a pure-Python install) would do here, and why"), _hint
    ),
    Command("undo", (), N_("take back your last decision and the moves made after it"), _undo),
    Command("claim", (), N_("the rest of the tricks for your side, when they are certain"), _claim),
    Command("transcript", (), N_("where the game is saved"), _transcript),
    Command("quit", ("exit",), N_("leave; the game stays saved and 'spades resume' continues it"), _quit),
)

_BY_WORD = {word: c for c in COMMANDS for word in (c.name, *c.aliases)}

COMMAND_NAMES: tuple[str, ...] = tuple(c.name for c in COMMANDS)


LEAVE_WORDS = frozenset({"y", "yes", "quit", "leave", "ok"})  # answers that confirm leaving


def answer(seat: SeatView, entry: str) -> list[Output] | None:
    """What the command ``entry`` starts with answers (None: it names no command); a word of
    the language in use for a command counts (``pomoc``: ``help``)."""
    word, _sep, rest = canonical(entry).partition(" ")
    command = find_command(word)
    return None if command is None else command.handler(seat, rest.strip())


def find_command(word: str) -> Command | None:
    """The command a word names (a name or an alias, any letter case), else None."""
    return _BY_WORD.get(word.strip().lower())


def suggest_command(word: str) -> str | None:
    """The command a mistyped word most likely meant (``hnad`` -> ``hand``), else None."""
    import difflib

    close = difflib.get_close_matches(word.strip().lower(), list(_BY_WORD), n=1, cutoff=0.7)
    return _BY_WORD[close[0]].name if close else None


MOVES_HELP = N_(
    "Moves: a card as QS, qs, Q♠, 10h or Th (a rank alone, like q, when only one card of it is legal); "
    "a bid as 4 or nil; keep or discard in the draft; blind or noblind when asked about double / "
    "blind nil; in the exchange a card to give up, or done."
)


def help_lines(extra: tuple[str, ...] = ()) -> list[str]:
    """The help text; ``extra`` lines (words only some seats understand) follow the commands."""
    width = max(len(c.name) for c in COMMANDS)
    lines = [_(MOVES_HELP)]
    words = typed_help()
    if words:
        lines.append(_("Your language's words for the moves: {words}.").format(words="; ".join(words)))
    lines.append(_("Commands:"))
    for c in COMMANDS:
        lines.append(f"  {c.name.ljust(width)}  {_(c.summary)}")
    lines += extra
    lines.append(_("Tab completes moves and commands; Ctrl-C clears the line; Ctrl-D saves and leaves."))
    return lines
