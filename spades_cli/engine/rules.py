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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from spades_cli.engine.actions import is_nil_bid

FailedNilTricks = Literal["bags", "partner", "none"]

SEAT_NAMES_4 = ("N", "E", "S", "W")
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


@dataclass(frozen=True, slots=True)
class NilRules:
    # R-C-10 / R-4P-4 decision: nil on or off and what it is worth.
    enabled: bool = True
    value: int = 100
    # What a failed nil bidder's tricks do. R-4P-7: "bags" (team bags, not toward the
    # partner's bid); "partner": they count toward the partner's bid; R-2P-6 decision:
    # "none" (only the penalty is scored).
    failed_tricks: FailedNilTricks = "bags"


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


@dataclass(frozen=True, slots=True)
class Rules:
    name: str = "custom"
    description: str = ""
    # R-2P-1 / R-4P-1: 2 = the two-player draft game, 4 = partnership game.
    players: Literal[2, 4] = 4
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
    bidding: BiddingRules = field(default_factory=BiddingRules)
    nil: NilRules = field(default_factory=NilRules)
    blind_nil: BlindNilRules = field(default_factory=BlindNilRules)
    bags: BagRules = field(default_factory=BagRules)
    play: PlayRules = field(default_factory=PlayRules)

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesProblems(problems)

    def problems(self) -> list[RuleProblem]:
        """The options of these rules that contradict each other (none for a usable table)."""
        return [p for check in _CHECKS if (p := check(self)) is not None]

    def is_nil(self, bid: int, blind: bool = False) -> bool:
        """R-C-10 / R-2P-3: is ``bid`` (declared ``blind`` or not) a nil under these rules?"""
        return is_nil_bid(bid, blind, self.nil.enabled)

    @property
    def draft(self) -> bool:
        """R-2P-2: the two-player game is dealt by drafting from the pile."""
        return self.players == 2

    @property
    def seat_names(self) -> tuple[str, ...]:
        return SEAT_NAMES_2 if self.players == 2 else SEAT_NAMES_4

    @property
    def sides(self) -> int:
        return 2

    def side_of(self, seat: int) -> int:
        """R-4P-1: partners sit opposite (N-S = side 0, E-W = side 1); 2P: one seat a side."""
        return seat % 2

    def side_name(self, side: int) -> str:
        if self.players == 2:
            return SEAT_NAMES_2[side]
        return ("NS", "EW")[side]

    def seat_index(self, name: str) -> int:
        """The seat number of a seat name (case-insensitive); ValueError if unknown."""
        names = self.seat_names
        up = name.strip().upper()
        if up in names:
            return names.index(up)
        raise ValueError(f"unknown seat {name!r} (seats: {', '.join(names)})")


TEN_FOR_TWO_HUNDRED_MIN: Final = 10
TEN_FOR_TWO_HUNDRED_VALUE: Final = 200


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


def _team_min_needs_partners(r: Rules) -> RuleProblem | None:
    if r.players != 2 or r.bidding.team_min == 0:
        return None
    return _problem(("bidding.team_min", "players"), "a team minimum needs partnerships (the 4-player game)")


def _team_max_needs_partners(r: Rules) -> RuleProblem | None:
    if r.players != 2 or r.bidding.team_max is None:
        return None
    return _problem(("bidding.team_max", "players"), "a team maximum needs partnerships (the 4-player game)")


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


def _exchange_needs_draft(r: Rules) -> RuleProblem | None:
    if r.players != 4 or r.blind_nil.exchange <= 0:
        return None
    reason = "the exchange swaps cards with the draft's discard pile, which only the 2-player game has"
    return _problem(("blind_nil.exchange", "players"), reason)


def _partner_tricks_need_partners(r: Rules) -> RuleProblem | None:
    if r.players != 2 or r.nil.failed_tricks != "partner":
        return None
    return _problem(("nil.failed_tricks", "players"), "'partner' needs partnerships (the 4-player game)")


def _two_of_clubs_needs_deal(r: Rules) -> RuleProblem | None:
    if r.players != 2 or not r.play.two_of_clubs_leads:
        return None
    reason = "in the 2-player draft game the two of clubs may be in the discard pile"
    return _problem(("play.two_of_clubs_leads", "players"), reason)


def _losing_score_below_target(r: Rules) -> RuleProblem | None:
    if r.losing_score is None or r.losing_score < r.target:
        return None
    return _problem(("losing_score", "target"), "the losing score must be below the target")


# In the order their problems are listed.
_CHECKS: Final[tuple[Callable[[Rules], RuleProblem | None], ...]] = (
    _first_dealer_seat,
    _team_min_needs_partners,
    _team_max_needs_partners,
    _team_min_above_max,
    _lowest_bids_above_max,
    _zero_bid_is_nil,
    _exchange_needs_draft,
    _partner_tricks_need_partners,
    _two_of_clubs_needs_deal,
    _losing_score_below_target,
)
