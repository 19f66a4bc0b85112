"""The JSON summary of a game (``run``, ``resume`` and ``replay`` with ``--json``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spades_cli.engine import DEAL, PLAY, Rules, deck_cards, deck_for
from spades_cli.game.match import Match

__all__ = ["game_summary"]


def _side_dict(rules: Rules, values: Sequence[int]) -> dict[str, int]:
    return {rules.side_name(s): values[s] for s in range(rules.sides)}


def _seat_dict(rules: Rules, values: Sequence[Any]) -> dict[str, Any]:
    return {rules.seat_names[s]: values[s] for s in range(rules.players)}


def _deck_from_seed(match: Match, hand_no: int) -> bool | None:
    """Whether the deck of hand ``hand_no`` (0-based) is the one the seed deals (a replayed
    transcript without a ``[Seed]`` has the seed "": None)."""
    if str(match.seed) == "" or hand_no >= len(match.decks):
        return None
    return tuple(deck_for(match.seed, hand_no, deck_cards(match.rules))) == tuple(match.decks[hand_no])


def game_summary(match: Match, labels: Mapping[int, str] | None = None, **extra: Any) -> dict[str, Any]:
    """The JSON result of ``run``, ``resume`` and ``replay``.

    Keys: rules, players, seed, first_dealer, seats, finished, winner, scores, bags,
    hands (per hand: hand, dealer, bids (0 = nil), declared, tricks per seat, points,
    bags and running scores and bags per side, and ``deck_from_seed``: whether the deck is
    the one the seed deals, None without a seed), in_progress, actions, and ``extra``.
    """
    rules = match.rules
    st = match.state
    winner = st.winner()
    assert match.dealer is not None
    hands = []
    for r in st.results:
        hands.append(
            {
                "hand": r.hand_no + 1,
                "dealer": rules.seat_names[r.dealer],
                "bids": _seat_dict(rules, r.bids),
                "declared": [rules.seat_names[s] for s in range(rules.players) if r.blind[s]],
                # R-NV-4: the seats whose bid of 0 was a zero, not nil (only when one was).
                **({"zero": [rules.seat_names[s] for s, z in enumerate(r.zero) if z]} if r.zero else {}),
                "tricks": _seat_dict(rules, r.tricks),
                "points": _side_dict(rules, [s.points for s in r.sides]),
                "bags": _side_dict(rules, [s.bags for s in r.sides]),
                "scores": _side_dict(rules, [s.score for s in r.sides]),
                "bags_total": _side_dict(rules, [s.bags_total for s in r.sides]),
                "deck_from_seed": _deck_from_seed(match, r.hand_no),
            }
        )
    in_progress = None
    if not st.is_terminal() and (st.phase != DEAL or st.history):
        in_progress = {
            "hand": st.hand_no + 1,
            "phase": str(st.phase),
            "trick": st.trick_no + 1 if st.phase == PLAY else None,
            "deck_from_seed": _deck_from_seed(match, st.hand_no),
        }
    out: dict[str, Any] = {
        "rules": rules.name,
        "players": rules.players,
        "seed": str(match.seed),
        "first_dealer": rules.seat_names[match.dealer],
        "seats": {
            rules.seat_names[s]: (labels or {}).get(s, match.controllers[s].label)
            for s in range(rules.players)
        },
        "finished": st.is_terminal(),
        "winner": rules.side_name(winner) if winner is not None else None,
        "scores": _side_dict(rules, st.scores),
        "bags": _side_dict(rules, st.bags),
        "hands": hands,
        "in_progress": in_progress,
        "actions": len(st.history),
    }
    out.update(extra)
    return out


# ============================================================================ scripts
