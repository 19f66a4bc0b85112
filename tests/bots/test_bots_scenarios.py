"""Positions behind the complaints players make about Spades bots, set up with real
engine states; the normal and hard bots must play them well."""

from __future__ import annotations

import pytest
from helpers.engine import E, N, S, W
from helpers.positions import position_4p

from spades_cli.bots import Bot
from spades_cli.bots.expert import ExpertBot
from spades_cli.bots.hard import HardBot
from spades_cli.bots.normal import NormalBot
from spades_cli.engine import BID_BASE, Rules, State, card_str, rng_for
from spades_cli.presets import load_rules, rules_from_dict, rules_to_dict

FOUR = load_rules("four-player")

BOTS: dict[str, Bot] = {"normal": NormalBot(), "hard": HardBot(play_budget=3000)}


def decide(bot: Bot, state_rules: Rules, state: State, seat: int) -> str:
    assert state.current_player() == seat
    action = bot.act(state.observation(seat), state_rules, rng_for("scenario", seat, len(state.history)))
    return card_str(action) if action < 52 else f"bid {action - BID_BASE}"


@pytest.mark.parametrize("level", BOTS)
def test_does_not_trump_a_partners_winning_ace(level: str) -> None:
    # R-C-3 lets South trump, but North's ace of hearts already holds the trick: a
    # spade here is thrown away (the overtrumping-partner complaint).
    state = position_4p(
        FOUR,
        {
            N: "AH KH QH 6C 7C 8C 9C 7D 8D 9D 4S 5S 6S",
            E: "2H 3H 4H 5H 6H TC JC QC TD JD 7S 8S 9S",
            S: "2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S QS AS",
            W: "7H 8H 9H TH JH KC AC QD KD AD TS JS KS",
        },
        {N: 4, E: 3, S: 4, W: 3},
        "AH 6H",
    )
    card = decide(BOTS[level], FOUR, state, S)
    assert not card.endswith("S"), f"{level} trumped its partner's winning ace with {card}"


@pytest.mark.parametrize("level", BOTS)
def test_overtakes_a_partners_nil_card(level: str) -> None:
    # R-C-10 / R-4P-7: North bid nil and is winning this trick with the nine of hearts;
    # South plays last and must overtake (the ace), or North's nil fails.
    state = position_4p(
        FOUR,
        {
            N: "QH JH TH 9H 2C 3C 4C 5C 2D 3D 4D 2S 3S",
            E: "8H 7H 3H 6C 7C 8C 5D 6D 7D 8D 4S 5S 6S",
            S: "AH 4H AC KC QC AD KD QD AS KS QS JS TS",
            W: "KH 6H 5H 2H 9C TC JC 9D TD JD 7S 8S 9S",
        },
        {W: 3, N: 0, E: 2, S: 8},
        "2H 9H 3H",
        dealer=S,
    )
    assert decide(BOTS[level], FOUR, state, S) == "AH"


@pytest.mark.parametrize("level", BOTS)
def test_takes_the_trick_its_contract_needs_rather_than_ducking_under_an_opponents_nil(level: str) -> None:
    # East bid nil and leads the nine of diamonds; North-South bid all 13 tricks.
    # Ducking with the two to leave East winning would risk the contract (a lost trick
    # costs 260 points against the 200 that breaking the nil may gain): take it.
    state = position_4p(
        FOUR,
        {
            E: "9D 3D 4D 2C 3C 4C 2H 3H 4H 5H 2S 3S 4S",
            S: "AD 2D AC KC QC AH KH QH AS KS QS JS TS",
            N: "5D 6D 7D JC TC 9C JH TH 9H 9S 8S 7S 6S",
            W: "KD QD JD TD 8D 8C 7C 6C 5C 8H 7H 6H 5S",
        },
        {E: 0, S: 9, W: 3, N: 4},
        "9D",
        dealer=N,
    )
    assert decide(BOTS[level], FOUR, state, S) == "AD"


@pytest.mark.parametrize("level", BOTS)
def test_ducks_a_trick_that_would_be_the_tenth_bag(level: str) -> None:
    # R-C-9: North-South carry 9 bags and have made their contract of 2; winning this
    # heart with the ace would cost 100 points. The three of hearts loses to East's five.
    state = position_4p(
        FOUR,
        {
            N: "AC AD 2H 4H 2C 3C 4C 2D 3D 4D 2S 3S 4S",
            S: "AH 3H 6H 5C 6C 7C 5D 6D 7D 5S 6S 7S 8S",
            E: "5H KH QH 7H 8C 9C TC 8D 9D TD 9S TS JS",
            W: "JH TH 9H 8H JC QC KC JD QD KD QS KS AS",
        },
        {N: 1, E: 3, S: 1, W: 4},
        "AC 8C 5C JC AD 8D 5D JD 2H 5H",
        scores=(350, 300),
        bags=(9, 0),
    )
    assert state.tricks_won[N] == 2
    assert decide(BOTS[level], FOUR, state, S) == "3H"


@pytest.mark.parametrize("level", BOTS)
def test_near_500_bids_a_small_contract_that_wins_the_game(level: str) -> None:
    # R-C-11: North-South have 470 and North bid 3. Any made contract of 3 or more wins
    # the game, so South bids less than its usual count: a contract it makes all but
    # surely (no bags carried, so overtricks cost nothing, R-C-9).
    hands = {
        N: "2C 3C 4C 5C 2D 3D 4D 5D 2H 3H AS KS 2S",
        E: "6C 7C 8C 6D 7D 8D 4H 5H 6H 7H 3S 4S 5S",
        S: "AC KC QC AD KD 8H 9H TH 6S 7S 8S 9S TS",
        W: "9C TC JC 9D TD JD QD JH QH KH AH JS QS",
    }
    state = position_4p(FOUR, hands, {N: 3, E: 3}, scores=(470, 300))
    assert decide(BOTS[level], FOUR, state, S) in ("bid 1", "bid 2", "bid 3", "bid 4")
    # Without the score in sight the same hand bids its tricks.
    state = position_4p(FOUR, hands, {N: 3, E: 3}, scores=(100, 100))
    usual = decide(BOTS[level], FOUR, state, S)
    assert usual not in ("bid 1", "bid 0")


@pytest.mark.parametrize("level", BOTS)
def test_without_bags_the_same_trick_is_taken(level: str) -> None:
    # bags.enabled false (R-C-9 off): an overtrick costs nothing and every trick taken
    # brings the opponents' contract of 7 closer to failing, so the ace takes the trick.
    d = rules_to_dict(FOUR)
    no_bags = rules_from_dict({**d, "bags": {**d["bags"], "enabled": False}})
    state = position_4p(
        no_bags,
        {
            N: "AC AD 2H 4H 2C 3C 4C 2D 3D 4D 2S 3S 4S",
            S: "AH 3H 6H 5C 6C 7C 5D 6D 7D 5S 6S 7S 8S",
            E: "5H KH QH 7H 8C 9C TC 8D 9D TD 9S TS JS",
            W: "JH TH 9H 8H JC QC KC JD QD KD QS KS AS",
        },
        {N: 1, E: 3, S: 1, W: 4},
        "AC 8C 5C JC AD 8D 5D JD 2H 5H",
        scores=(350, 300),
    )
    assert decide(BOTS[level], no_bags, state, S) == "AH"


@pytest.mark.parametrize("level", BOTS)
def test_third_hand_plays_high_after_a_partners_low_lead(level: str) -> None:
    # R-C-3: North leads the four of hearts and East plays the two. South's three cannot
    # win; the queen wins unless West holds the ace or king, and then makes West spend
    # it (third hand high). Playing the three left West the trick with any heart.
    state = position_4p(
        FOUR,
        {
            S: "QH 3H AC KC 5C 4D 5D 6D 7D 2S 3S 9S TS",
            N: "4H 5H 6H 2C 3C 4C 2D 3D 8D 4S 5S 6S 7S",
            E: "2H 7H 8H 6C 7C 8C 9D TD JD 8S JS QS KS",
            W: "AH KH JH TH 9H 9C TC JC QC QD KD AD AS",
        },
        {N: 3, E: 3, S: 3, W: 4},
        "4H 2H",
    )
    assert decide(BOTS[level], FOUR, state, S) == "QH"


@pytest.mark.parametrize("level", BOTS)
def test_does_not_overtake_a_partners_king_with_the_ace(level: str) -> None:
    # R-C-3: North's king of hearts wins the trick so far and South holds the ace, the
    # card next above it: whichever of the two wins, the side wins the same trick, and
    # the ace spent now is not there to win a later one.
    state = position_4p(
        FOUR,
        {
            S: "AH 3H AC KC 5C 4D 5D 6D 7D 2S 3S 9S TS",
            N: "KH 5H 6H 2C 3C 4C 2D 3D 8D 4S 5S 6S 7S",
            E: "2H 7H 8H 6C 7C 8C 9D TD JD 8S JS QS KS",
            W: "4H QH JH TH 9H 9C TC JC QC QD KD AD AS",
        },
        {N: 3, E: 3, S: 3, W: 4},
        "KH 2H",
    )
    assert decide(BOTS[level], FOUR, state, S) == "3H"


@pytest.mark.parametrize("level", [*BOTS, "expert"])
def test_leads_the_suit_its_nil_partner_has_shown_void_in(level: str) -> None:
    # R-4P-7: North bid nil and threw the king of hearts on West's ace of spades: it has
    # no spades. A spade lead lets North throw its most dangerous card again, whoever
    # wins the trick; any other lead gives North a card it may have to play over.
    state = position_4p(
        FOUR,
        {
            N: "2C 2H 3H 4H 5H 6H KH 3D 4D 5D 6D 7D 8D",
            E: "3C 5C 6C 7C 8C 9C 3S 5S 6S JH QH QD KD",
            S: "AC KC QC JC TC 4C 4S 7S 8S 9S TS AH AD",
            W: "2S JS QS KS AS 7H 8H 9H TH 2D 9D TD JD",
        },
        {E: 3, S: 4, W: 5, N: 0},
        "3C AC 2S 2C AS KH 3S 4S 2D 8D QD AD",
        dealer=N,
    )
    bot = BOTS.get(level) or ExpertBot()
    assert decide(bot, FOUR, state, S).endswith("S")


def test_does_not_lead_into_a_ruff_that_covers_an_opponents_nil() -> None:
    # R-4P-7 / R-C-3: East bid nil and West, its partner, threw a diamond on the first
    # club: West has no clubs and holds spades, so a club lead is ruffed and East throws
    # whatever it likes. South leads a low diamond, a suit West must follow, instead.
    state = position_4p(
        FOUR,
        {
            N: "AC KC QC JC TC 4C 2D 4D 9D 2H 3H 4H 4S",
            E: "9C 8C 7C 6C 5C 5D 6D 7D 8D 5H 6H 7H 2S",
            S: "3C 2C 3D TD JD QD 9H TH JH AH 3S 5S 6S",
            W: "KD AD 8H QH KH AS KS QS JS TS 9S 8S 7S",
        },
        {N: 4, E: 0, S: 3, W: 5},
        "AC 9C 3C KD 2H 7H AH 8H",
    )
    assert decide(BOTS["normal"], FOUR, state, S) == "3D"
