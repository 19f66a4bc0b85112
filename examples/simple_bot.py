#!/usr/bin/env python3
"""A small, stateless Spades bot that speaks the spades bot protocol (standard library only).

Seat it with:  spades play --seat E=cmd:'python3 examples/simple_bot.py'
Every request carries the seat's whole view, so this bot remembers nothing between them.
"""

import sys

RANKS = "23456789TJQKA"
KINDS = ("double-nil", "draft", "exchange", "bid", "card")


def rank(card: str) -> int:
    return RANKS.index(card[0])


def winning(cards: list[str]) -> str:
    """The card winning a trick so far: the highest spade, else the highest of the suit led."""
    best = cards[0]
    for card in cards[1:]:
        if (card[1] == best[1] and rank(card) > rank(best)) or card[1] == "S" != best[1]:
            best = card
    return best


def choose(kind: str, view: dict[str, list[str]]) -> str:
    legal = view["legal"]
    hand = view.get("hand", [])
    if kind == "double-nil":
        return "noblind"
    if kind == "draft":  # keep spades and high cards
        card = view["draft"][0]
        return "keep" if card[1] == "S" or rank(card) >= 10 else "discard"
    if kind == "exchange":
        return "done"
    if kind == "bid":  # aces, kings and long or high spades
        tricks = sum(c[0] == "A" or (c[0] == "K" and c[1] == "S") for c in hand)
        tricks += max(0, sum(c[1] == "S" for c in hand) - 3)
        bids = [b for b in legal if b != "nil"] or legal
        return min(bids, key=lambda b: abs((0 if b == "nil" else int(b)) - max(tricks, 1)))
    played = view["current"][1:]  # a card: win cheaply if we can, else throw the lowest
    if played:
        best = winning(played)
        winners = [c for c in legal if winning([best, c]) == c]
        if winners:
            return min(winners, key=lambda c: (c[1] == "S", rank(c)))
    else:
        non_spades = [c for c in legal if c[1] != "S"]
        top = max(non_spades or legal, key=rank)
        if top[0] in "AK":
            return top
    return min(legal, key=lambda c: (c[1] == "S", rank(c)))


def main() -> None:
    for line in sys.stdin:
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "spades-protocol":
            print("= 1 simple-example 1.0", flush=True)
        elif words[0] == "request":
            view: dict[str, list[str]] = {}
            for body in sys.stdin:
                key, *values = body.split() or [""]
                if key == "end":
                    break
                view[key] = values  # repeated keys (rule, trick, result) keep the last
            if words[1] in KINDS:
                print("= " + choose(words[1], view), flush=True)
            else:
                print("? unknown request", flush=True)
        elif words[0] == "quit":
            print("= bye", flush=True)
            return
        else:
            print("? unknown command", flush=True)


if __name__ == "__main__":
    main()
