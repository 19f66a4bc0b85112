"""The bot protocol's request format: a request rebuilds exactly the seat's Observation and
the Rules, and carries nothing the seat may not know (docs/bot-protocol.md)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades_cli.engine import DISCARD_PHASE, DRAW, PASS, Rules
from spades_cli.engine.cards import cards_in, mask_of
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.protocol import (
    KIND_OF_PHASE,
    ProtocolError,
    RequestCache,
    format_request,
    parse_request,
    rules_lines,
)

VARIANTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "two-player": ("two-player", ()),
    "four-player": ("four-player", ()),
    "four-player-blind": ("four-player", ("blind_nil.enabled=true", "nil.failed_tricks=partner")),
    "four-player-house": (
        "four-player",
        (
            "play.two_of_clubs_leads=true",
            "play.no_spades_first_trick=true",
            "ten_for_two_hundred=true",
            "bags.limit=7",
            "bidding.team_max=13",
        ),
    ),
    "two-player-no-nil": (
        "two-player",
        ("nil.enabled=false", "blind_nil.enabled=false", "bags.enabled=false"),
    ),
    # The Spades family (issue 30): three seats, seats without partners, jokers.
    "cutthroat": ("cutthroat", ()),
    "solo": ("solo", ()),
    "jokers": ("jokers", ()),
    "joker-joker-deuce-deuce": ("joker-joker-deuce-deuce", ()),
    "zero": ("four-player", ("nil.zero=true",)),  # R-NV-4
    "jokers-discard": ("jokers-discard", ("deck.discard_after_bids=true",)),  # R-J-6, R-J-7
    "blind-pass": (
        "four-player",
        ("blind_nil.enabled=true", "blind_nil.behind_by=null", "blind_nil.pass_cards=2"),
    ),
}
SEED = "do-not-leak-7f3c"


class Recorder:
    """Plays uniformly random legal actions (from the seat's seeded generator) and checks the
    request of every decision."""

    label = "random"

    def __init__(self) -> None:
        self.cache = RequestCache()
        self.kinds: set[str] = set()
        self.requests = 0

    def decide(self, match: Match, seat: int) -> int:
        obs = match.observation(seat)
        key = match.rng_key("bot", seat)
        text = format_request(obs, match.rules, key)
        request = parse_request(text.split("\n"), cache=self.cache)
        assert request.obs == obs
        assert request.rules == match.rules
        assert request.key == key
        assert request.kind == KIND_OF_PHASE[obs.phase]
        # The generator the bot side builds is the one the table's own bots get.
        assert request.rng().random() == match.rng("bot", seat).random()
        check_nothing_hidden(match, seat, text)
        self.kinds.add(request.kind)
        self.requests += 1
        return match.rng("bot", seat).choice(obs.legal)


def check_nothing_hidden(match: Match, seat: int, text: str) -> None:
    """Every card named outside the rule lines is one the seat holds, discarded itself, has
    just drawn, or saw played; the game's seed appears nowhere."""
    state = match.state
    visible = state.hands[seat] | mask_of(state.observation(seat).own_discards) | state.cards_played_mask()
    draft = state.draft_card()
    if draft is not None:
        visible |= 1 << draft
    named = 0
    for line in text.split("\n"):
        if line.startswith(("rule ", "rng ")):
            continue
        for word in line.split()[1:]:
            if len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS":
                named |= 1 << ("23456789TJQKA".index(word[0]) + 13 * "CDHS".index(word[1]))
    assert named & ~visible == 0, [c for c in cards_in(named & ~visible)]
    assert SEED not in text


def play(variant: str, seed: str, actions: int) -> Recorder:
    preset, overrides = VARIANTS[variant]
    rules = load_rules(preset, overrides)
    recorder = Recorder()
    match = Match(rules, seed, [recorder] * rules.players)
    GameRun(match).play(max_actions=actions)
    return recorder


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_request_of_a_long_game_rebuilds_the_observation_and_hides_the_rest(variant: str) -> None:
    recorder = play(variant, SEED, 900)
    assert recorder.requests > 700
    expected = {"bid", "card"}
    if variant.startswith("two-player"):
        expected.add("draft")
    if variant in ("two-player", "four-player-blind"):
        expected.add("double-nil")
    assert expected <= recorder.kinds


@pytest.mark.slow
def test_the_double_nil_exchange_is_requested_and_read_back() -> None:
    """R-2P-3: a seat that declared double nil is asked for its exchange."""
    kinds: set[str] = set()
    for n in range(6):
        kinds |= play("two-player", f"{SEED}-{n}", 300).kinds
    assert {"double-nil", "draft", "exchange", "bid", "card"} <= kinds


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**12), variant=st.sampled_from(sorted(VARIANTS)))
def test_requests_round_trip_for_any_seed(seed: int, variant: str) -> None:
    assert play(variant, str(seed), 250).requests > 150


@pytest.mark.parametrize("variant", ["cutthroat", "solo", "jokers"])
def test_r_ct_7_a_variants_requests_carry_every_side_and_round_trip(variant: str) -> None:
    """R-CT-7, R-I-1, R-J-1: three hands of cutthroat, solo or jokers; every request
    rebuilds the observation, the scores and bags of every side included."""
    recorder = play(variant, SEED, 170)
    assert recorder.requests > 150 and {"bid", "card"} <= recorder.kinds


def test_r_bn_4_the_partners_exchange_is_requested_as_pass_and_read_back() -> None:
    """R-BN-4: after a blind nil, the nil seat and then its partner are sent ``request
    pass`` with their hand as it stands; each request rebuilds the observation and names
    no card the seat has not seen."""
    recorder = play("blind-pass", SEED, 400)
    assert {"double-nil", "pass", "bid", "card"} <= recorder.kinds
    assert KIND_OF_PHASE[PASS] == "pass"


def test_r_nv_4_a_zero_travels_as_zero_and_is_read_back() -> None:
    """R-NV-4: with zero offered, the requests of random play list ``zero`` among the legal
    bids, send a seat's zero as ``zero`` on the ``bids`` and ``result`` lines, and rebuild
    the observation (its ``zero`` included) from them."""
    texts: list[str] = []

    class Keeper(Recorder):
        def decide(self, match: Match, seat: int) -> int:
            texts.append(format_request(match.observation(seat), match.rules, "k"))
            return super().decide(match, seat)

    rules = load_rules("four-player", ("nil.zero=true",))
    keeper = Keeper()
    GameRun(Match(rules, SEED, [keeper] * 4)).play(max_actions=300)
    bid_requests = [t for t in texts if t.startswith("request bid")]
    assert bid_requests and all(" zero" in t.split("\nlegal ")[1] for t in bid_requests)
    assert any(re.search(r"^bids .*\bzero\b", t, re.M) for t in texts)
    assert any(re.search(r"^result .* bids .*\bzero\b", t, re.M) for t in texts)
    read = [parse_request(t.split("\n")).obs for t in texts]
    assert any(obs.zero for obs in read) and any(r.zero for obs in read for r in obs.results)


def test_r_ct_7_a_cutthroat_request_has_three_seats_and_three_scores() -> None:
    """R-CT-1, R-CT-7: a cutthroat request names three seats; its per-seat lines hold three
    values and its scores and bags one per player, earlier hands' results included."""
    rules = load_rules("cutthroat")
    recorder = Recorder()
    match = Match(rules, SEED, [recorder] * 3)
    run = GameRun(match)
    run.play(until=lambda: match.state.hand_no == 1 and match.state.phase.name == "PLAY")
    seat = match.state.current_player()
    text = format_request(match.observation(seat), rules, "k")
    lines = {line.split()[0]: line.split()[1:] for line in text.split("\n") if line and line[0] != "r"}
    assert lines["seat"][0] in ("N", "E", "S")
    assert len(lines["bids"]) == len(lines["won"]) == 3
    assert lines["scores"] == [str(s) for s in match.state.scores] and len(lines["scores"]) == 3
    assert lines["bags"] == [str(b) for b in match.state.bags]
    result = next(line for line in text.split("\n") if line.startswith("result 1 "))
    assert len(result.split()) == 3 + 1 + 3 + 1 + 3  # result 1 DEALER bids B B B tricks T T T
    assert parse_request(text.split("\n")).obs.scores == tuple(match.state.scores)


def test_rules_travel_as_one_json_line_per_key() -> None:
    rules = load_rules("two-player", ["nil.value=50", "bags.limit=null"])
    rules = dataclasses.replace(rules, description='say "hi"\tthere\nand bye')
    lines = rules_lines(rules)
    assert "rule nil.value 50" in lines
    assert "rule bags.limit null" in lines
    assert "rule players 2" in lines
    assert 'rule description "say \\"hi\\"\\tthere\\nand bye"' in lines
    assert all("\n" not in line for line in lines)
    request = [
        "request bid",
        *lines,
        "seat N",
        "deal 1",
        "dealer N",
        "bids - -",
        "current S",
        "won 0 0",
        "broken no",
        "scores 0 0",
        "bags 0 0",
        "legal 1 2",
        "rng k",
    ]
    assert parse_request(request).rules == rules


def sample_request() -> list[str]:
    rules = load_rules("four-player")
    match = Match(rules, "sample", [Recorder()] * 4)
    GameRun(match).play(max_actions=70)  # into the first tricks of the first hand
    seat = match.state.current_player()
    return format_request(match.observation(seat), rules, match.rng_key("bot", seat)).split("\n")


def replace_line(lines: list[str], key: str, new: str | None) -> list[str]:
    out = []
    for line in lines:
        if line.split(" ", 1)[0] == key:
            if new is not None:
                out.append(new)
        else:
            out.append(line)
    return out


@pytest.mark.parametrize(
    ("key", "new", "message"),
    [
        ("request", "request dance", "unknown request 'dance'"),
        ("request", "please play", "a request starts with 'request KIND'"),
        ("seat", None, "missing line 'seat'"),
        ("seat", "seat X", "'X' is not a seat"),
        ("bids", "bids 1 2 3", "bids: expected 4 values, got 3"),
        ("bids", "bids 1 2 3 lots", "invalid literal"),
        ("hand", "hand AS ZZ", "'ZZ' is not a card"),
        ("won", "won 1 2", "won: expected 4 values, got 2"),
        ("broken", "broken maybe", "broken: expected yes or no"),
        ("scores", "scores 10", "scores: expected 2 numbers"),
        ("legal", "legal", "no legal action listed"),
        ("legal", "legal QS sing", "legal:"),
        ("rng", None, "missing line 'rng'"),
        ("current", "current", "current: expected the leader"),
        ("rule", "rule nil.value lots", "is not a JSON value"),
        ("trick", "trick N 2C 3C N", "trick: expected a leader, 4 cards and a winner"),
    ],
)
def test_a_malformed_request_is_a_protocol_error_saying_what_is_wrong(
    key: str, new: str | None, message: str
) -> None:
    lines = sample_request()
    assert any(line.startswith("trick ") for line in lines)
    if key in ("rule", "trick"):
        assert new is not None
        start = "rule nil.value " if key == "rule" else "trick "
        lines = [new if line.startswith(start) else line for line in lines]
    else:
        lines = replace_line(lines, key, new)
    with pytest.raises(ProtocolError, match=re.escape(message)):
        parse_request(lines)


def test_rules_that_break_validation_are_a_protocol_error() -> None:
    lines = ["rule players 3" if line.startswith("rule players ") else line for line in sample_request()]
    with pytest.raises(ProtocolError, match=r"bad rules: .*players"):
        parse_request(lines)


def test_unknown_lines_are_skipped_and_only_the_order_of_tricks_and_results_matters() -> None:
    lines = sample_request()
    body = lines[1:-2]  # without the request line and the end line (and the final empty one)
    assert lines[-2] == "end"
    history = [line for line in body if line.startswith(("trick ", "result "))]
    shuffled = [line for line in body if line not in history]
    random.Random(4).shuffle(shuffled)
    mixed = [lines[0], "mood cheerful", *shuffled, "weather 21 sunny", *history, "end"]
    assert parse_request(mixed).obs == parse_request(lines).obs


def test_no_request_for_a_chance_node() -> None:
    rules: Rules = load_rules("two-player")
    match = Match(rules, "chance", [Recorder()] * 2)
    obs = match.observation(0)  # before the deal: nothing to decide
    assert obs.phase not in KIND_OF_PHASE and obs.phase != DRAW
    with pytest.raises(ValueError, match="nothing to decide"):
        format_request(obs, rules, "k")


def test_r_j_6_the_discard_is_requested_and_the_cards_laid_aside_are_sent_to_their_owner() -> None:
    """R-J-6 / R-J-7 (b): the seat holding the cards left over is sent ``request discard``
    with its fifteen cards; once it has laid one aside, its next request lists it on the
    ``discards`` line (it saw it), and no request names a card another seat laid aside."""
    recorder = play("jokers-discard", SEED, 130)
    assert {"discard", "bid", "card"} <= recorder.kinds
    rules = load_rules("jokers-discard", ("deck.discard_after_bids=true",))
    seen: list[str] = []

    class Keeper(Recorder):
        def decide(self, match: Match, seat: int) -> int:
            obs = match.observation(seat)
            if obs.phase == DISCARD_PHASE:
                seen.append(format_request(obs, match.rules, match.rng_key("bot", seat)))
            return super().decide(match, seat)

    keeper = Keeper()
    GameRun(Match(rules, SEED, [keeper] * 4)).play(max_actions=60)
    assert len(seen) == 2 and seen[0].startswith("request discard")
    assert "\ndiscards " not in seen[0]
    assert len(next(x for x in seen[0].split("\n") if x.startswith("hand ")).split()) == 16
    assert any(x.startswith("discards ") and len(x.split()) == 2 for x in seen[1].split("\n"))
