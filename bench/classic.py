#!/usr/bin/env python3
"""A classic Spades player, written apart from the project's bots, to measure them against.

It plays the way a careful club player is taught: it bids by counting sure and likely
tricks, plays second hand low and third hand high, never overtakes its partner's winning
card, counts the cards played (which cards are masters, who has shown a void), protects
its partner's nil and attacks an opponent's, and dumps bags once its contract is safe.
It speaks the bot protocol (docs/bot-protocol.md) over standard input and output, reads
only what the protocol sends, and uses the standard library only (no project imports).

    spades simulate --duplicate --seat N=cmd:'python3 bench/classic.py' \
        --seat S=cmd:'python3 bench/classic.py' --seat E=normal --seat W=normal
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SPADE = 3
KINDS = ("double-nil", "draft", "exchange", "bid", "card")


def card_of(text: str) -> int:
    return SUITS.index(text[1]) * 13 + RANKS.index(text[0])


def text_of(card: int) -> str:
    return RANKS[card % 13] + SUITS[card // 13]


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def beats(card: int, best: int) -> bool:
    """The card beats the one winning the trick: higher in its suit, or a trump on a non-trump."""
    if suit(card) == suit(best):
        return card > best
    return suit(card) == SPADE


@dataclass
class View:
    """What the request tells: the seat's cards and the public history of the hand."""

    rules: dict[str, object] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    seat: int = 0
    hand: list[int] = field(default_factory=list)
    draft: int = -1
    discards: list[int] = field(default_factory=list)
    bids: list[str] = field(default_factory=list)
    tricks: list[tuple[int, list[int], int]] = field(default_factory=list)
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    broken: bool = False
    scores: list[int] = field(default_factory=list)
    bags: list[int] = field(default_factory=list)
    legal: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.seats)


def read_view(lines: list[list[str]]) -> View:
    v = View()
    raw: dict[str, list[str]] = {}
    for words in lines:
        key, rest = words[0], words[1:]
        if key == "rule" and rest:
            v.rules[rest[0]] = json.loads(" ".join(rest[1:]) or "null")
        elif key == "trick":
            raw.setdefault("trick", []).append(" ".join(rest))
        else:
            raw[key] = rest
    v.seats = ["N", "E", "S", "W"] if v.rules.get("players") == 4 else ["N", "S"]
    v.seat = v.seats.index(raw["seat"][0])
    v.hand = [card_of(c) for c in raw.get("hand", [])]
    v.draft = card_of(raw["draft"][0]) if raw.get("draft") else -1
    v.discards = [card_of(c) for c in raw.get("discards", [])]
    v.bids = raw.get("bids", ["-"] * v.n)
    for t in raw.get("trick", []):
        parts = t.split()
        played = [card_of(c) for c in parts[1:-1]]
        v.tricks.append((v.seats.index(parts[0]), played, v.seats.index(parts[-1])))
    cur = raw.get("current", ["N"])
    v.leader = v.seats.index(cur[0])
    v.trick = [card_of(c) for c in cur[1:]]
    v.won = [int(x) for x in raw.get("won", ["0"] * v.n)]
    v.broken = raw.get("broken", ["no"])[0] == "yes"
    v.scores = [int(x) for x in raw.get("scores", ["0", "0"])]
    v.bags = [int(x) for x in raw.get("bags", ["0", "0"])]
    v.legal = raw.get("legal", [])
    return v


# -- bidding --------------------------------------------------------------------------


def count_tricks(hand: list[int], players: int) -> float:
    """Sure and likely tricks: aces, guarded kings and queens, spade length, and ruffs."""
    by_suit = [sorted((rank(c) for c in hand if suit(c) == s), reverse=True) for s in range(4)]
    spades = by_suit[SPADE]
    total = 0.0
    for s in range(3):
        ranks = by_suit[s]
        length = len(ranks)
        if 12 in ranks:
            total += 1.0 if length <= 5 else 0.7
        if 11 in ranks and length >= 2:
            total += (0.8 if 12 in ranks else 0.6) if length <= 5 else 0.3
        if 10 in ranks and length >= 3 and (12 in ranks or 11 in ranks) and length <= 4:
            total += 0.4
    top = 0
    for i, r in enumerate(spades):
        missing = sum(1 for x in range(r + 1, 13) if x not in spades)
        if missing == 0:
            total += 1.0
            top += 1
        elif missing <= i:
            total += 0.9
            top += 1
        elif missing == 1 and len(spades) >= 2:
            total += 0.6
            top += 1
        elif missing == 2 and len(spades) >= 3:
            total += 0.35
            top += 1
    total += max(0, len(spades) - 3 - max(0, top - 3))
    spare = max(0, len(spades) - top)
    ruffs = sum((1.0, 0.6, 0.2)[len(by_suit[s])] for s in range(3) if len(by_suit[s]) <= 2)
    total += min(ruffs, spare * 0.8)
    return total


def nil_safe(hand: list[int]) -> bool:
    spades = [rank(c) for c in hand if suit(c) == SPADE]
    if any(r >= 10 for r in spades) or len(spades) > 3:
        return False
    for s in range(3):
        ranks = sorted(rank(c) for c in hand if suit(c) == s)
        if ranks and ranks[-1] >= 11 and len(ranks) < 4:
            return False
        if ranks and ranks[0] >= 7:
            return False
    return True


def choose_bid(v: View) -> str:
    nil_on = bool(v.rules.get("nil.enabled"))
    est = count_tricks(v.hand, v.n)
    legal = v.legal
    if v.n == 4:
        partner = v.bids[(v.seat + 2) % 4]
        partner_ok = partner == "-" or (partner.isdigit() and int(partner) >= 3)
        if nil_on and "nil" in legal and est < 1.5 and nil_safe(v.hand) and partner_ok:
            return "nil"
        said = sum(int(b) for b in v.bids if b.isdigit())
        est = min(est, 13 - said + 1)
    elif nil_on and "nil" in legal and est < 1.5 and nil_safe(v.hand):
        return "nil"
    want = max(1, int(est + 0.25))
    nums = [int(b) for b in legal if b.isdigit() and int(b) > 0]
    if not nums:
        return legal[0]
    return str(min(nums, key=lambda b: (abs(b - want), b)))


# -- play -----------------------------------------------------------------------------


class Table:
    """Card counting over the view: what is gone, who is void, who is nil, what is needed."""

    def __init__(self, v: View) -> None:
        self.v = v
        n = v.n
        self.gone: set[int] = set()
        self.voids: list[set[int]] = [set() for _ in range(n)]
        for leader, cards, _ in v.tricks:
            self._see(leader, cards)
        self._see(v.leader, v.trick)
        self.mine = set(v.hand)
        self.side = v.seat % 2
        self.partner = (v.seat + 2) % 4 if n == 4 else -1

    def _see(self, leader: int, cards: list[int]) -> None:
        n = self.v.n
        for i, c in enumerate(cards):
            self.gone.add(c)
            if i and suit(c) != suit(cards[0]):
                self.voids[(leader + i) % n].add(suit(cards[0]))

    def is_nil(self, seat: int) -> bool:
        return self.v.bids[seat] in ("nil", "blind", "0")

    def live_nil(self, seat: int) -> bool:
        return seat >= 0 and self.is_nil(seat) and self.v.won[seat] == 0

    def master(self, card: int) -> bool:
        """No card above it in its suit is still out in another hand."""
        return all(c in self.gone or c in self.mine for c in range(card + 1, suit(card) * 13 + 13))

    def side_seats(self, side: int) -> list[int]:
        return [s for s in range(self.v.n) if s % 2 == side]

    def need(self, side: int) -> int:
        """Tricks the side still needs for its contract (non-nil bids only)."""
        seats = self.side_seats(side)
        bid = sum(int(self.v.bids[s]) for s in seats if self.v.bids[s].isdigit() and not self.is_nil(s))
        took = sum(self.v.won[s] for s in seats if not self.is_nil(s))
        return bid - took

    def bags_hurt(self) -> bool:
        limit = self.v.rules.get("bags.limit")
        return bool(self.v.rules.get("bags.enabled")) and isinstance(limit, int) and limit > 0


def winning(v: View) -> tuple[int, int]:
    """(seat, card) winning the trick in progress."""
    best, at = v.trick[0], 0
    for i, c in enumerate(v.trick[1:], 1):
        if beats(c, best):
            best, at = c, i
    return (v.leader + at) % v.n, best


def lowest(cards: list[int]) -> int:
    return min(cards, key=lambda c: (suit(c) == SPADE, rank(c)))


def highest(cards: list[int]) -> int:
    return max(cards, key=lambda c: (rank(c), suit(c) != SPADE))


def choose_card(v: View) -> str:
    t = Table(v)
    legal = [card_of(c) for c in v.legal]
    if len(legal) == 1:
        return text_of(legal[0])
    if t.live_nil(v.seat):
        return text_of(play_nil(v, legal))
    if t.live_nil(t.partner):
        c = cover_nil(v, t, legal)
        if c >= 0:
            return text_of(c)
    opp_nils = [s for s in range(v.n) if s % 2 != t.side and t.live_nil(s)]
    left = 13 - len(v.tricks)
    if opp_nils and t.need(t.side) < left - 1:
        c = attack_nil(v, t, legal, opp_nils[0])
        if c >= 0:
            return text_of(c)
    safe = t.need(t.side) <= 0 and t.bags_hurt() and t.need(1 - t.side) <= left - 2
    return text_of(duck(v, legal) if safe else contest(v, t, legal))


def play_nil(v: View, legal: list[int]) -> int:
    if not v.trick:
        return lowest(legal)
    _, best = winning(v)
    under = [c for c in legal if not beats(c, best)]
    if under:
        return max(under, key=lambda c: (suit(c) == SPADE, rank(c)))
    return highest(legal) if len(v.trick) == v.n - 1 else lowest(legal)


def cover_nil(v: View, t: Table, legal: list[int]) -> int:
    played = {(v.leader + i) % v.n for i in range(len(v.trick))}
    if not v.trick:
        return highest([c for c in legal if suit(c) != SPADE] or legal)
    seat, best = winning(v)
    over = [c for c in legal if beats(c, best)]
    if t.partner not in played:
        return highest(over) if over else -1
    if seat == t.partner and over:
        return min(over, key=lambda c: (suit(c) == SPADE and suit(v.trick[0]) != SPADE, rank(c)))
    return -1


def attack_nil(v: View, t: Table, legal: list[int], nil_seat: int) -> int:
    played = {(v.leader + i) % v.n for i in range(len(v.trick))}
    if not v.trick:
        fits = [c for c in legal if suit(c) not in t.voids[nil_seat] and suit(c) != SPADE]
        return lowest(fits or legal)
    seat, best = winning(v)
    under = [c for c in legal if not beats(c, best)]
    if seat == nil_seat and under:
        return max(under, key=lambda c: (suit(c) == SPADE, rank(c)))
    if nil_seat not in played:
        return lowest(under or legal)
    return -1


def duck(v: View, legal: list[int]) -> int:
    """The contract is safe: take no more tricks than must be taken."""
    if not v.trick:
        return lowest(legal)
    _, best = winning(v)
    under = [c for c in legal if not beats(c, best)]
    if under:
        return max(under, key=lambda c: (suit(c) == SPADE, rank(c)))
    return lowest(legal)


def contest(v: View, t: Table, legal: list[int]) -> int:
    if not v.trick:
        return lead(v, t, legal)
    seat, best = winning(v)
    pos = len(v.trick)
    last = pos == v.n - 1
    led = suit(v.trick[0])
    over = [c for c in legal if beats(c, best)]
    partner_winning = seat == t.partner
    if partner_winning and (last or t.master(best) or pos == 2):
        return discard(legal, t)  # never overtake a partner's winner
    if not over:
        return discard(legal, t)
    following = [c for c in over if suit(c) == led]
    if pos == 1 and v.n == 4:
        # Second hand low, unless a master of the suit led takes it now.
        masters = [c for c in following if t.master(c)]
        if masters and led != SPADE:
            return min(masters)
        if not following and (t.voids[(v.seat + 2) % 4] or led in t.voids[(v.seat + 1) % 4]):
            return min(over)
        return discard(legal, t) if following or t.need(t.side) <= 0 else min(over)
    if following:
        # Third hand high (with the cheapest card that is as good), fourth hand just enough.
        if last:
            return min(following)
        masters = [c for c in following if t.master(c)]
        return min(masters) if masters else max(following)
    return min(over)  # trump as cheaply as possible


def lead(v: View, t: Table, legal: list[int]) -> int:
    masters = [c for c in legal if suit(c) != SPADE and t.master(c)]
    if masters:
        return max(masters, key=rank)
    spades = [c for c in legal if suit(c) == SPADE]
    if spades and t.master(max(spades)) and len(spades) >= 3:
        return max(spades)
    partner_void = t.voids[t.partner] if t.partner >= 0 else set()
    opp_void: set[int] = set()
    for s in range(v.n):
        if s % 2 != t.side:
            opp_void |= t.voids[s]
    side = [c for c in legal if suit(c) != SPADE]
    if not side:
        return min(legal)

    def key(c: int) -> tuple[int, int, int]:
        s = suit(c)
        length = sum(1 for x in v.hand if suit(x) == s)
        return (s in opp_void, s not in partner_void, length)

    best = min(side, key=key)
    return min(c for c in side if suit(c) == suit(best))


def discard(legal: list[int], t: Table) -> int:
    """The least useful card: a low card of a short side suit, never a master if avoidable."""

    def key(c: int) -> tuple[bool, bool, int]:
        return (suit(c) == SPADE, t.master(c) and rank(c) >= 9, rank(c))

    return min(legal, key=key)


# -- the two-player draft -------------------------------------------------------------


def choose_draft(v: View) -> str:
    c = v.draft
    if suit(c) == SPADE and rank(c) >= 5:
        return "keep"
    if rank(c) >= 11:
        return "keep"
    return "discard"


def choose(kind: str, v: View) -> str:
    if kind == "double-nil":
        return "noblind"
    if kind == "draft":
        return choose_draft(v)
    if kind == "exchange":
        return "done"
    if kind == "bid":
        return choose_bid(v)
    return choose_card(v)


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "spades-protocol":
            print("= 1 classic-reference 1.0", flush=True)
        elif words[0] == "request":
            body: list[list[str]] = []
            for raw in sys.stdin:
                w = raw.split()
                if w and w[0] == "end":
                    break
                if w:
                    body.append(w)
            kind = words[1] if len(words) > 1 else ""
            if kind not in KINDS:
                print("? unknown request", flush=True)
                continue
            try:
                answer = choose(kind, read_view(body))
            except (ValueError, KeyError, IndexError) as exc:
                print(f"? cannot read the request: {exc}", flush=True)
                continue
            legal = read_view(body).legal
            print(f"= {answer if answer in legal or not legal else legal[0]}", flush=True)
        elif words[0] == "quit":
            print("= bye", flush=True)
            return
        else:
            print("? unknown command", flush=True)


if __name__ == "__main__":
    main()
