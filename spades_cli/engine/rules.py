"""The rules of one table, as a frozen tree of dataclasses.

This is the one place where rule options live; the engine reads these fields and
nothing else. The YAML presets in ``rules/`` map one to one onto this tree (a key
path such as ``nil.value`` is the attribute path ``rules.nil.value``); loading and
validating YAML is done outside the engine (``spades_cli.presets``).

Options that contradict each other are refused here, whatever builds the ``Rules``:
:meth:`Rules.problems` lists them and building such a ``Rules`` raises
:class:`RulesProblems` (the presets loader reports the same problems at the keys that
gave them).

Every field cites the rule it implements or names the house rule it expresses.

The options of the Spades family (issue 30: seats, sides, the deck, the trump order,
Suicide / Mirror / Whiz bidding, Boston, ...) are marked ``QUIET``: a record of the rules
(a transcript's ``[Rule]`` tags, the protocol's ``rule`` lines) writes them only when they
differ from their default, so the records of the games that existed before stay as they
were, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from spades_cli.engine.actions import MAX_BID, is_nil_bid
from spades_cli.engine.cards import (
    BIG_JOKER,
    DECK,
    LITTLE_JOKER,
    TWO_OF_CLUBS,
    CardParseError,
    card_str,
    parse_card,
)

FailedNilTricks = Literal["bags", "partner", "none"]
BidMode = Literal["free", "mirror", "whiz"]
BostonMode = Literal["off", "win", "points"]
Breaking = Literal["played", "trumped"]
DiscardTo = Literal["dealer", "two_of_clubs"]

# The metadata key of a family option (see the module doc): written only when not default.
QUIET: Final = "quiet"
_QUIET: Final = {QUIET: True}

SEAT_NAMES_4 = ("N", "E", "S", "W")
SEAT_NAMES_3 = ("N", "E", "S")
SEAT_NAMES_2 = ("N", "S")
# A seat's letter in words.
SEAT_WORDS: Final = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True, slots=True)
class RuleProblem:
    """Options that contradict each other: ``keys`` are their key paths (the option the
    ``reason`` is about first, then the ones it conflicts with); ``reads`` are every key
    the check read (``keys`` and any it needed only to decide)."""

    keys: tuple[str, ...]
    reason: str
    reads: tuple[str, ...]

    def __str__(self) -> str:
        if len(self.keys) == 1:
            return f"{self.keys[0]}: {self.reason}"
        return f"{self.keys[0]}: {self.reason} (conflicts with {', '.join(self.keys[1:])})"


class RulesProblems(ValueError):
    """A ``Rules`` whose options contradict each other; ``problems`` lists them all."""

    def __init__(self, problems: list[RuleProblem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class BiddingRules:
    # R-C-7 / R-4P-4: the lowest bid other than nil. The seed's basic 4P game is 1..13.
    min_bid: int = 1
    # House rule: the partners' combined contract must be at least this (4P only; 0 = no minimum).
    team_min: int = 0
    # House rule: partners' bids may add up to at most this (4P only; None = no cap).
    team_max: int | None = None
    # R-M-1 / R-W-1: "free" (any bid), "mirror" (bid the spade-suit cards you hold: nil
    # with none, R-M-3) or "whiz" (nil, or exactly your spade-suit cards).
    mode: BidMode = field(default="free", metadata=_QUIET)
    # R-S-1: one partner of each side bids nil and the other a number (4P partnerships).
    suicide: bool = field(default=False, metadata=_QUIET)
    # R-S-2: in Suicide, the number bid by the partner who does not bid nil is at least this.
    suicide_min: int = field(default=1, metadata=_QUIET)


@dataclass(frozen=True, slots=True)
class NilRules:
    # R-C-10 / R-4P-4 decision: nil on or off and what it is worth.
    enabled: bool = True
    value: int = 100
    # What a failed nil bidder's tricks do. R-4P-7: "bags" (team bags, not toward the
    # partner's bid); "partner": they count toward the partner's bid; R-2P-6 decision:
    # "none" (only the penalty is scored).
    failed_tricks: FailedNilTricks = "bags"
    # R-NV-4 (GGZ's zero bids): beside nil a seat may bid "zero", a contract of no tricks
    # that is not a nil: no bonus or penalty, its tricks count for the side (bags past the
    # side's contract), as an ordinary bid of 0 (``min_bid: 0`` with nil off) would.
    zero: bool = field(default=False, metadata=_QUIET)


@dataclass(frozen=True, slots=True)
class BlindNilRules:
    # R-2P-3 double nil / 4P house rule blind nil: declared before seeing one's cards.
    enabled: bool = False
    value: int = 200
    # House rule: may only be declared by a side behind by at least this many points.
    behind_by: int | None = None
    # R-2P-3: after the draft, give up to this many cards for random cards of the
    # discard pile (two-player draft game only).
    exchange: int = 0
    # R-BN-4 / R-BN-5: after the bidding a blind nil bidder passes this many cards to the
    # partner, who passes as many back (0: no exchange; partnerships only).
    pass_cards: int = field(default=0, metadata=_QUIET)


@dataclass(frozen=True, slots=True)
class BlindBidRules:
    """R-BB-1 .. R-BB-5: a number bid for the side before anyone of it looks at the cards."""

    # R-BB-1: blind bids are offered (off in every shipped preset; R-BB-4: many forbid them).
    enabled: bool = False
    # R-BB-1 / R-BB-4: the least number bid blind.
    min: int = 6
    # R-BB-3: the side must take exactly the number (False: at least it, R-BB-1 / R-BB-2).
    exact: bool = False
    # R-BB-1: a failed blind bid loses double (False: single, R-BB-3's variation).
    set_double: bool = True
    # R-BB-1 / R-BB-2: only a side behind by at least this many points (None: any time).
    behind_by: int | None = 100


@dataclass(frozen=True, slots=True)
class BagRules:
    # R-C-9. enabled=False: overtricks score nothing and are not counted.
    enabled: bool = True
    value: int = 1  # points per overtrick (R-C-8: +1; house rule: -1)
    limit: int | None = 10  # running count that costs a penalty (None: never)
    penalty: int = 100


@dataclass(frozen=True, slots=True)
class PlayRules:
    # R-C-6: spades may not be led until broken (False: spades may be led any time).
    spades_break: bool = True
    # House rule: the holder of the two of clubs leads it to the first trick (4P only).
    two_of_clubs_leads: bool = False
    # House rule: nobody may play a spade to the first trick unless holding only spades.
    no_spades_first_trick: bool = False
    # R-L-2: what breaks spades: "played" (any spade-suit card played, also one led by a
    # seat holding only spades) or "trumped" (one played on a trick led in another suit).
    breaking: Breaking = field(default="played", metadata=_QUIET)
    # R-L-5: no spade-suit card may lead the first trick (unless the leader holds only them).
    no_spade_lead_first_trick: bool = field(default=False, metadata=_QUIET)
    # R-F-3 (Britannica): to the first trick every seat plays its lowest club; a seat with
    # no club plays any card but a spade-suit one (unless it holds nothing else).
    lowest_club_first_trick: bool = field(default=False, metadata=_QUIET)


@dataclass(frozen=True, slots=True)
class DeckRules:
    """R-C-1 / R-J-*: the cards of the game and the cards ranked above the ace of spades.
    Card lists are card words separated by spaces (``"2C 2D"``, ``"BJ LJ 2D 2S"``)."""

    # R-CT-1 / R-J-2 / R-J-9: the cards taken out of the 52 before dealing.
    removed: str = ""
    # R-J-1: add the Big and Little Joker.
    jokers: bool = False
    # R-J-1 / R-J-8 / R-J-17: the trumps above the ace of spades, highest first; each counts
    # as a spade for following, leading and breaking (the jokers must be listed).
    trumps: str = ""
    # R-J-6: this many cards are left over after the deal; one player takes them up and lays
    # as many aside face down, out of play for the hand (0: none left over).
    discard: int = field(default=0, metadata=_QUIET)
    # R-J-6 / R-J-7 (a): who takes them: the dealer, or the holder of the two of clubs.
    discard_to: DiscardTo = field(default="dealer", metadata=_QUIET)
    # R-J-7 (b): the cards are laid aside after the bidding instead of before it.
    discard_after_bids: bool = field(default=False, metadata=_QUIET)


@dataclass(frozen=True, slots=True)
class BostonRules:
    """R-B-1 / R-B-2: a bid of every trick of the hand (Boston, moon) that is made."""

    # "off": scored as any contract; "win": the side wins the game at once (R-B-2, [S14]);
    # "points": the contract scores ``value`` made and loses ``value`` failed.
    mode: BostonMode = "off"
    value: int = 200


@dataclass(frozen=True, slots=True)
class Rules:
    name: str = "custom"
    description: str = ""
    # R-2P-1 / R-4P-1 / R-CT-1: 2 = the two-player draft game, 3 = cutthroat (each for
    # themself), 4 = the partnership game (or each for themself with ``solo``).
    players: Literal[2, 3, 4] = 4
    # R-C-11: the game ends when a side has at least this many points after a hand.
    target: int = 500
    # House rule: a side at or below this score ends the game (and loses it).
    losing_score: int | None = None
    # House rule (mercy): the game ends when one side leads by at least this many.
    mercy: int | None = None
    # R-4P-2 decision: the first dealer (2P: the first hand's first player); None = from the seed.
    first_dealer: str | None = None
    # House rule "10 for 200" (Boston): a contract of 10+ that is made scores this flat value.
    ten_for_two_hundred: bool = False
    # R-I-1: the four-player game with every seat for itself (no partners).
    solo: bool = field(default=False, metadata=_QUIET)
    # R-T-3: only a contract of exactly 10 scores 200 (False: 10 or more, R-H-5).
    ten_for_two_hundred_exact: bool = field(default=False, metadata=_QUIET)
    # R-T-2: what a failed "10 for 200" contract loses (None: ten a trick bid, as any contract).
    ten_for_two_hundred_set: int | None = field(default=None, metadata=_QUIET)
    # R-E-2: the game ends after this many hands (the higher score wins; a tie plays on).
    hand_limit: int | None = field(default=None, metadata=_QUIET)
    bidding: BiddingRules = field(default_factory=BiddingRules)
    nil: NilRules = field(default_factory=NilRules)
    blind_nil: BlindNilRules = field(default_factory=BlindNilRules)
    bags: BagRules = field(default_factory=BagRules)
    play: PlayRules = field(default_factory=PlayRules)
    deck: DeckRules = field(default_factory=DeckRules, metadata=_QUIET)
    boston: BostonRules = field(default_factory=BostonRules, metadata=_QUIET)
    blind_bid: BlindBidRules = field(default_factory=BlindBidRules, metadata=_QUIET)

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesProblems(problems)

    def problems(self) -> list[RuleProblem]:
        """The options of these rules that contradict each other (none for a usable table)."""
        out = [p for check in _CHECKS if (p := check(self)) is not None]
        if not any(p.keys[0].startswith("deck.") for p in out):
            out += [p for check in _DECK_CHECKS if (p := check(self)) is not None]
        return out

    def is_nil(self, bid: int, blind: bool = False, zero: bool = False) -> bool:
        """R-C-10 / R-2P-3: is ``bid`` (declared ``blind`` or not) a nil under these rules?
        R-NV-4: a bid of 0 made as ``zero`` never is."""
        return is_nil_bid(bid, blind, self.nil.enabled) and not zero

    @property
    def draft(self) -> bool:
        """R-2P-2: the two-player game is dealt by drafting from the pile."""
        return self.players == 2

    @property
    def seat_names(self) -> tuple[str, ...]:
        return {2: SEAT_NAMES_2, 3: SEAT_NAMES_3}.get(self.players, SEAT_NAMES_4)

    @property
    def partnerships(self) -> bool:
        """R-4P-1: two partnerships; otherwise (2P, R-CT-1, R-I-1) every seat is a side."""
        return self.players == 4 and not self.solo

    @property
    def sides(self) -> int:
        """How many sides score: 2 partnerships, else one per seat."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """R-4P-1: partners sit opposite (N-S = side 0, E-W = side 1); else the seat's own."""
        return seat % 2 if self.partnerships else seat

    def side_seats(self, side: int) -> tuple[int, ...]:
        """The seats of a side, in seat order."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def side_name(self, side: int) -> str:
        if not self.partnerships:
            return self.seat_names[side]
        return ("NS", "EW")[side]

    @property
    def deck_cards(self) -> tuple[int, ...]:
        """R-C-1 / R-CT-1 / R-J-1: the cards of the deck in their unshuffled order (the 52
        without the removed cards, then the jokers); ValueError for a card word that is
        no card (``problems`` reports it at its key)."""
        removed = set(card_words(self.deck.removed))
        jokers = (LITTLE_JOKER, BIG_JOKER) if self.deck.jokers else ()
        return tuple(c for c in DECK + jokers if c not in removed)

    @property
    def hand_size(self) -> int:
        """R-CT-1 / R-J-6: the cards each seat is dealt (and the tricks of a hand): the deck
        shared evenly, less the ``deck.discard`` cards left over (laid aside, out of play
        for the hand; the 2P draft: half the pile)."""
        return (len(self.deck_cards) - self.deck.discard) // self.players if self.players != 2 else 13

    @property
    def trump_cards(self) -> tuple[int, ...]:
        """R-J-1 / R-J-8: the cards ranked above the ace of spades, highest first."""
        return card_words(self.deck.trumps)

    def seat_index(self, name: str) -> int:
        """The seat number of a seat name (case-insensitive); ValueError if unknown."""
        names = self.seat_names
        up = name.strip().upper()
        if up in names:
            return names.index(up)
        raise ValueError(f"unknown seat {name!r} (seats: {', '.join(names)})")


TEN_FOR_TWO_HUNDRED_MIN: Final = 10
TEN_FOR_TWO_HUNDRED_VALUE: Final = 200


def card_words(text: str) -> tuple[int, ...]:
    """The cards of a card list option (words separated by spaces or commas), in order;
    ValueError naming the first word that is no card."""
    out: list[int] = []
    for word in text.replace(",", " ").split():
        try:
            out.append(parse_card(word))
        except CardParseError as exc:
            raise ValueError(str(exc)) from None
    return tuple(out)


# --------------------------------------------------------------------------- the cross-field checks


def _problem(keys: tuple[str, ...], reason: str, *, also: tuple[str, ...] = ()) -> RuleProblem:
    return RuleProblem(keys, reason, keys + also)


def _first_dealer_seat(r: Rules) -> RuleProblem | None:
    if r.first_dealer is None or r.first_dealer in r.seat_names:
        return None
    reason = (
        f"{r.first_dealer!r} is not a seat of the {r.players}-player game (seats: {', '.join(r.seat_names)})"
    )
    return _problem(("first_dealer", "players"), reason)


_PARTNERS: Final = "needs partnerships (the 4-player game)"


def _team_min_needs_partners(r: Rules) -> RuleProblem | None:
    if r.partnerships or r.bidding.team_min == 0:
        return None
    return _problem(("bidding.team_min", "players"), f"a team minimum {_PARTNERS}", also=("solo",))


def _team_max_needs_partners(r: Rules) -> RuleProblem | None:
    if r.partnerships or r.bidding.team_max is None:
        return None
    return _problem(("bidding.team_max", "players"), f"a team maximum {_PARTNERS}", also=("solo",))


def _team_min_above_max(r: Rules) -> RuleProblem | None:
    b = r.bidding
    if b.team_max is None or b.team_min <= b.team_max:
        return None
    return _problem(("bidding.team_min", "bidding.team_max"), "the team minimum is above the team maximum")


def _lowest_bids_above_max(r: Rules) -> RuleProblem | None:
    b = r.bidding
    keys = ("bidding.min_bid", "bidding.team_max")
    if b.team_max is None:
        return None
    if b.min_bid > b.team_max:
        return _problem(keys, "the lowest bid is above the team maximum")
    if r.nil.enabled or 2 * b.min_bid <= b.team_max:
        return None
    reason = "with nil off, two partners' lowest bids add up to more than the team maximum"
    return _problem(keys, reason, also=("nil.enabled",))


def _zero_bid_is_nil(r: Rules) -> RuleProblem | None:
    if not r.nil.enabled or r.bidding.min_bid != 0:
        return None
    reason = (
        "min_bid 0 makes 0 an ordinary bid, but with nil enabled a bid of 0 is nil "
        "(use min_bid 1, or disable nil)"
    )
    return _problem(("bidding.min_bid", "nil.enabled"), reason)


def _zero_problem(r: Rules) -> RuleProblem | None:
    """R-NV-4: a zero beside nil needs nil, and no bidding rule that fixes the bid's kind."""
    if not r.nil.zero:
        return None
    if not r.nil.enabled:
        reason = "zero is the bid of 0 that is not nil: with nil off, min_bid 0 makes 0 that bid"
        return _problem(("nil.zero", "nil.enabled"), reason)
    if r.bidding.suicide:
        reason = "in Suicide one partner bids nil and the other a number: a zero is neither"
        return _problem(("nil.zero", "bidding.suicide"), reason)
    return None


def _exchange_needs_draft(r: Rules) -> RuleProblem | None:
    if r.players == 2 or r.blind_nil.exchange <= 0:
        return None
    reason = "the exchange swaps cards with the draft's discard pile, which only the 2-player game has"
    return _problem(("blind_nil.exchange", "players"), reason)


def _pass_cards_problem(r: Rules) -> RuleProblem | None:
    """R-BN-4: the blind-nil exchange is between partners, after a blind nil."""
    k = r.blind_nil.pass_cards
    if k == 0:
        return None
    if not 0 < k <= r.hand_size:
        return _problem(("blind_nil.pass_cards",), f"the cards passed must be 0 to {r.hand_size}")
    if not r.partnerships or not r.blind_nil.enabled:
        reason = "the exchange follows a blind nil between partners: it needs blind_nil.enabled and partners"
        return _problem(("blind_nil.pass_cards", "blind_nil.enabled"), reason)
    return None


def _partner_tricks_need_partners(r: Rules) -> RuleProblem | None:
    if r.partnerships or r.nil.failed_tricks != "partner":
        return None
    return _problem(("nil.failed_tricks", "players"), f"'partner' {_PARTNERS}", also=("solo",))


def _two_of_clubs_needs_deal(r: Rules) -> RuleProblem | None:
    if r.players != 2 or not r.play.two_of_clubs_leads:
        return None
    reason = "in the 2-player draft game the two of clubs may be in the discard pile"
    return _problem(("play.two_of_clubs_leads", "players"), reason)


def _losing_score_below_target(r: Rules) -> RuleProblem | None:
    if r.losing_score is None or r.losing_score < r.target:
        return None
    return _problem(("losing_score", "target"), "the losing score must be below the target")


def _card_list(r: Rules) -> RuleProblem | None:
    for key, text in (("deck.removed", r.deck.removed), ("deck.trumps", r.deck.trumps)):
        try:
            cards = card_words(text)
        except ValueError as exc:
            return RuleProblem((key,), str(exc), (key,))
        if len(set(cards)) != len(cards):
            return RuleProblem((key,), "a card is listed twice", (key,))
    return None


def _deck_problem(r: Rules) -> RuleProblem | None:
    """R-C-1 / R-CT-1 / R-J-2: the deck holds what is ranked, and deals out evenly."""
    removed = set(card_words(r.deck.removed))
    trumps = card_words(r.deck.trumps)
    jokers = {LITTLE_JOKER, BIG_JOKER}
    if removed & jokers:
        return _problem(("deck.removed",), "the jokers are added with deck.jokers, not removed")
    for c in trumps:
        if c in removed or (c in jokers and not r.deck.jokers):
            reason = f"{card_str(c)} is ranked as a trump but is not in the deck"
            return _problem(("deck.trumps", "deck.removed", "deck.jokers"), reason)
    if r.deck.jokers and not jokers <= set(trumps):
        reason = "the jokers need their places: list BJ and LJ (highest first)"
        return _problem(("deck.trumps", "deck.jokers"), reason)
    size = len(r.deck_cards)
    if r.players == 2:
        if size != 52 or trumps:
            reason = "the 2-player draft game uses the whole ordinary 52-card pile"
            return _problem(("deck.removed", "players"), reason, also=("deck.jokers", "deck.trumps"))
        return None
    over = r.deck.discard
    if (size - over) % r.players or (size - over) // r.players > MAX_BID:
        reason = (
            f"{size} cards do not deal evenly to {r.players} players "
            "(remove cards or add the jokers so that none is left over)"
        )
        if over:  # R-J-6
            reason = (
                f"{size} cards with {over} left over (deck.discard) do not deal evenly to "
                f"{r.players} players (dealt out evenly, {size % r.players} would be left over)"
            )
            return _problem(("deck.discard", "deck.removed", "players", "deck.jokers"), reason)
        return _problem(("deck.removed", "players", "deck.jokers"), reason)
    return None


def _discard_problem(r: Rules) -> RuleProblem | None:
    """R-J-6 / R-J-7: cards left over need a deal (not the 2P draft), fewer than a hand, and
    the two of clubs in the deck when its holder takes them."""
    d = r.deck
    if d.discard == 0:
        if d.discard_to != "dealer" or d.discard_after_bids:
            key = "deck.discard_to" if d.discard_to != "dealer" else "deck.discard_after_bids"
            return _problem((key, "deck.discard"), "no cards are left over to discard: set deck.discard")
        return None
    if r.players == 2:
        return _problem(("deck.discard", "players"), "the two-player game is drafted: no cards are left over")
    if not 0 < d.discard < len(r.deck_cards) // r.players:
        reason = "the cards left over must be more than 0 and fewer than a hand"
        return _problem(("deck.discard", "deck.removed", "players"), reason)
    if d.discard_to == "two_of_clubs" and TWO_OF_CLUBS not in r.deck_cards:
        return _problem(("deck.discard_to", "deck.removed"), "the two of clubs is not in the deck")
    return None


def _two_of_clubs_in_deck(r: Rules) -> RuleProblem | None:
    if lowest_club(r) >= 0:
        return None
    if r.play.two_of_clubs_leads:
        return _problem(("play.two_of_clubs_leads", "deck.removed"), "the deck has no club to lead")
    if r.play.lowest_club_first_trick:
        return _problem(("play.lowest_club_first_trick", "deck.removed"), "the deck has no club to play")
    return None


def lowest_club(r: Rules) -> int:
    """R-H-21 / R-CT-6: the club that leads the first trick: the lowest club in the deck
    that is not ranked as a trump (the 3 of clubs when the two is removed); -1 if none."""
    trumps = set(card_words(r.deck.trumps))
    clubs = [c for c in r.deck_cards if c < 13 and c not in trumps]
    return clubs[0] if clubs else -1


def _solo_needs_four(r: Rules) -> RuleProblem | None:
    if not r.solo or r.players == 4:
        return None
    return _problem(("solo", "players"), "solo is the 4-player game without partners")


def _suicide_problem(r: Rules) -> RuleProblem | None:
    b = r.bidding
    if not b.suicide:
        return None
    if not r.partnerships:
        return _problem(("bidding.suicide", "players"), f"Suicide {_PARTNERS}", also=("solo",))
    if not r.nil.enabled:
        return _problem(
            ("bidding.suicide", "nil.enabled"), "Suicide needs nil (one partner of each side bids it)"
        )
    if b.mode != "free":
        reason = "a bid fixed by the spades held could leave the partner of a nil no legal bid"
        return _problem(("bidding.suicide", "bidding.mode"), reason)
    if b.team_min > max(b.suicide_min, b.min_bid) or b.team_max is not None:
        reason = (
            "a team minimum above the non-nil partner's minimum, or a team maximum, "
            "leaves a side no legal bid"
        )
        return _problem(("bidding.suicide", "bidding.team_min", "bidding.team_max"), reason)
    return None


def _spade_count_bids(r: Rules) -> RuleProblem | None:
    """R-M-1 / R-W-1: a bid fixed by the spades held must always be a legal bid."""
    b = r.bidding
    if b.mode == "free":
        return None
    if not r.nil.enabled:
        reason = "a hand with no spade would have no legal bid: these bids need nil"
        return _problem(("bidding.mode", "nil.enabled"), reason)
    if b.min_bid > 1 or b.team_min > 0 or b.team_max is not None:
        reason = "the bid is the spades held: no minimum bid, team minimum or team maximum can apply"
        return _problem(("bidding.mode", "bidding.min_bid", "bidding.team_min", "bidding.team_max"), reason)
    return None


def _ten_for_two_hundred_options(r: Rules) -> RuleProblem | None:
    if r.ten_for_two_hundred or not (r.ten_for_two_hundred_exact or r.ten_for_two_hundred_set is not None):
        return None
    reason = "only applies with ten_for_two_hundred"
    return _problem(
        ("ten_for_two_hundred_exact", "ten_for_two_hundred"), reason, also=("ten_for_two_hundred_set",)
    )


def _blind_bid_problem(r: Rules) -> RuleProblem | None:
    """R-BB-1: blind bids need a number some hand can take, and a free bid of the side."""
    b = r.blind_bid
    if not b.enabled:
        return None
    if r.players == 2:
        reason = "the 2-player draft game declares double nil only"
        return _problem(("blind_bid.enabled", "players"), reason)
    lo, hi = blind_bid_range(r)
    if lo > hi:
        reason = f"no blind bid from {b.min} to the hand size ({r.hand_size}) fits the team limits"
        keys = ("blind_bid.min", "players", "bidding.team_min", "bidding.team_max")
        return _problem(keys, reason, also=("deck.removed", "deck.jokers"))
    if r.bidding.suicide or r.bidding.mode != "free":
        reason = "the side's bid is fixed by Suicide or by the spades held"
        return _problem(("blind_bid.enabled", "bidding.suicide", "bidding.mode"), reason)
    return None


def blind_bid_range(r: Rules) -> tuple[int, int]:
    """R-BB-1: the least and the greatest number a blind bid may be: from ``blind_bid.min``
    to the hand size, within the partners' team minimum and maximum (the blind bid is the
    side's whole contract)."""
    lo, hi = r.blind_bid.min, r.hand_size
    if r.partnerships:
        lo = max(lo, r.bidding.team_min)
        hi = hi if r.bidding.team_max is None else min(hi, r.bidding.team_max)
    return lo, hi


# In the order their problems are listed.
_CHECKS: Final[tuple[Callable[[Rules], RuleProblem | None], ...]] = (
    _card_list,
    _first_dealer_seat,
    _team_min_needs_partners,
    _team_max_needs_partners,
    _team_min_above_max,
    _lowest_bids_above_max,
    _zero_bid_is_nil,
    _zero_problem,
    _exchange_needs_draft,
    _pass_cards_problem,
    _partner_tricks_need_partners,
    _two_of_clubs_needs_deal,
    _losing_score_below_target,
    _solo_needs_four,
    _suicide_problem,
    _spade_count_bids,
    _ten_for_two_hundred_options,
)
# These read the deck, so only once its card lists are words (problems() stops at _card_list).
_DECK_CHECKS: Final[tuple[Callable[[Rules], RuleProblem | None], ...]] = (
    _deck_problem,
    _discard_problem,
    _two_of_clubs_in_deck,
    _blind_bid_problem,
)
