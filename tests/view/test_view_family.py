"""The table, the prompt's moves and card counting under the Spades family (issue 30):
three seats without partners (R-CT-1, R-CT-3, R-CT-7) and jokers (R-J-1, R-J-2, R-J-10),
shown and typed as plainly as any card, the suits and the deck read from the rules."""

from __future__ import annotations

from helpers.engine import bid_all, cards, deal_hands, play

from spades_cli.engine import BID_BASE, BIG_JOKER, LITTLE_JOKER, State
from spades_cli.presets import load_rules
from spades_cli.session.moves import completions, read_move
from spades_cli.view import Look, count, plain, render_deal, table_view
from spades_cli.view.table import bids_text, turn_prompt

CUTTHROAT = load_rules("cutthroat")
JOKERS = load_rules("jokers")


def _cutthroat_trick() -> State:
    """North deals; East bids 4, South 5, North 6; East leads the seven of diamonds."""
    state = deal_hands(CUTTHROAT, 0, {1: cards("AS KS 7D 8D"), 2: cards("2S 9D"), 0: cards("3S QD")})
    bid_all(state, {1: 4, 2: 5, 0: 6})
    play(state, "7D")
    return state


def test_r_ct_3_bids_count_against_the_hand_of_17() -> None:
    """R-CT-3: bids run nil to 17, and the total bid is told against 17 tricks."""
    state = deal_hands(CUTTHROAT, 0, {})
    look = Look(CUTTHROAT, symbols=False)
    obs = state.observation(1)
    assert plain(turn_prompt(look, obs, CUTTHROAT)) == "East to bid: nil or 1-17"
    assert bids_text(look, obs) == "N -, E ?, S - (0 of 17 bid)"
    assert read_move("17", obs, look) == BID_BASE + 17
    assert read_move("19", obs, look) == "'19' is not a bid: bid nil or 1-17"


def test_r_ct_1_the_three_seat_table_at_100_and_60_columns() -> None:
    """R-CT-1, R-CT-7: North on top, East at the side, South below; a line per player."""
    look = Look(CUTTHROAT, symbols=False)
    obs = _cutthroat_trick().observation(2)
    sides = "\n".join(f"{s}: bid {b}, took 0, 0 bags, score 0" for s, b in (("N", 6), ("E", 4), ("S", 5)))
    table = (
        "Hand 1, trick 1: East led, East is winning. South to play.\n"
        "   N 6/0\n"
        "              E 4/0  [7D]\n"
        "   S 5/0  ?\n" + sides
    )
    assert plain(table_view(look, obs, 100)) == table
    assert plain(table_view(look, obs, 60)) == table
    narrow = "Hand 1, trick 1: East led, East is winning. South to play.\nN 6/0, E 4/0  [7D], S 5/0  ?\n"
    assert plain(table_view(look, obs, 20)) == narrow + sides


def _joker_trick() -> State:
    """West deals; North, void in hearts after the first trick, may trump the second."""
    hands = {
        0: [BIG_JOKER, LITTLE_JOKER, *cards("AS 3S 4H")],
        1: cards("2S 6H TH"),
        2: cards("KS 7H JH"),
        3: cards("QS 8H 9H"),
    }
    state = deal_hands(JOKERS, 3, hands)
    bid_all(state, {0: 4, 1: 3, 2: 3, 3: 2})
    play(state, "4H 6H 7H 8H 9H")
    return state


def test_r_j_1_a_joker_is_typed_completed_and_shown_as_a_card() -> None:
    """R-J-1, R-J-10: the jokers lead the spades in the hand and the completions, `bj`,
    `lj` and `big joker` name them, and the rank alone never means a joker."""
    state = _joker_trick()
    look = Look(JOKERS, symbols=False)
    obs = state.observation(0)
    assert plain(look.hand(obs.hand)) == "BJ LJ AS 3S  10C 9C 8C 7C 6C 5C 4C 3C"
    assert [c[1] for c in completions(look, JOKERS, obs)][:5] == ["BJ", "LJ", "AS", "3S", "10C"]
    assert read_move("bj", obs, look) == BIG_JOKER
    assert read_move("lj", obs, look) == LITTLE_JOKER
    assert read_move("big joker", obs, look) == BIG_JOKER
    assert read_move("a", obs, look) == 51  # the ace of spades, the only ace
    state.apply(BIG_JOKER)
    table = plain(table_view(look, state.observation(1), 100))
    assert table.splitlines()[:4] == [
        "Hand 1, trick 2: West led, North is winning. East to play.",
        "            N 4/0  [BJ]",
        "W 2/1  9H                 E 3/0  ?",
        "            S 3/0",
    ]


def test_r_j_2_out_counts_the_variants_deck_and_the_jokers_as_spades() -> None:
    """R-J-2, R-J-10: `out` counts the 52 cards of the jokers deck (2C and 2D out, the
    jokers in, with the spades), and a joker on a heart lead shows North out of hearts."""
    state = _joker_trick()
    state.apply(BIG_JOKER)
    look = Look(JOKERS, symbols=False)
    obs = state.observation(1)
    assert count.out_lines(look, obs) == (
        "Not seen yet (34 cards):\n"
        "  S LJ A K Q J 10 9 8 7 6 5 4 3\n"
        "  H A K Q J 5 3 2\n"
        "  C 10 9 8 7 6 5 4 3\n"
        "  D A K Q J 10 9"
    )
    assert count.voids_line(look, obs) == "Shown out: North of hearts."


def test_r_j_10_the_deal_printed_by_replay_puts_the_jokers_with_the_spades() -> None:
    """R-J-1, R-J-10: `replay` and `run` print each hand in the rules' order: the jokers,
    then the ace of spades; in Joker-Joker-Deuce-Deuce the two of diamonds is a spade."""
    hand = [BIG_JOKER, LITTLE_JOKER, *cards("AS 2S 2D KH 3D")]
    assert render_deal([hand], JOKERS, symbols=False).startswith("N  BJ LJ AS 2S  KH  3D 2D")
    jjdd = load_rules("joker-joker-deuce-deuce")
    assert render_deal([hand], jjdd, symbols=False).startswith("N  BJ LJ 2D 2S AS  KH  3D")


def test_r_bb_1_the_declare_prompt_offers_the_blind_numbers() -> None:
    """R-BB-1: a side 100 behind (North-South) is asked before looking whether it bids blind; the
    prompt names the blind numbers it may bid (blind6 up to the hand), beside blind nil."""
    rules = load_rules(
        "four-player", ["blind_bid.enabled=true", "blind_nil.enabled=true", "blind_nil.behind_by=100"]
    )
    state = State(rules, 0, scores=(0, 100))
    state.deal(tuple(rules.deck_cards))
    look = Look(rules, symbols=False)
    obs = state.observation(state.current_player())
    said = plain(turn_prompt(look, obs, rules))
    assert said == (
        "South: bid blind before looking at your cards? (blind6–blind13, blind for blind nil, or noblind)"
    )
    rules = load_rules("four-player", ["blind_bid.enabled=true"])
    state = State(rules, 0, scores=(0, 100))
    state.deal(tuple(rules.deck_cards))
    said = plain(turn_prompt(Look(rules, symbols=False), state.observation(state.current_player()), rules))
    assert said == "South: bid blind before looking at your cards? (blind6–blind13 or noblind)"
