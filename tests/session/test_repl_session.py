"""The play session core (spades_cli.repl.core): moves, commands, errors, undo, hint, quit.

The session is driven directly, one input line at a time, with the real bots; every
expected outcome is computed from the engine or written out exactly.
"""

from __future__ import annotations

import pytest
from helpers.prompt import first_legal, new_session, play_until, texts

from spades_cli.engine import BID, DECLARE, DRAFT, EXCHANGE, PLAY, State, first_dealer_for
from spades_cli.engine.cards import SUIT_NAMES, card_label
from spades_cli.engine.notation import action_text
from spades_cli.engine.scoring import score_side
from spades_cli.errors import EXIT_OK, EXIT_UNFINISHED
from spades_cli.game.events import Event, Undone
from spades_cli.presets import load_rules
from spades_cli.repl.core import (
    ERROR,
    GAME,
    HAND,
    HANDOFF,
    MOVE,
    OWN,
    REPLY,
    TRICK,
    VIEW,
    PlaySession,
)
from spades_cli.session.commands import COMMAND_NAMES
from spades_cli.view import Look, hand_result

SAVED = "Game saved in /saved/game.txt\nContinue it with: spades resume /saved/game.txt"


def label(card: int) -> str:
    return card_label(card, symbols=False)


# -- a whole hand of each preset ----------------------------------------------------------


def test_four_player_hand_is_played_to_its_score() -> None:
    # R-4P-2: the first dealer follows from the seed; R-4P-4: bidding starts left of the dealer.
    session = new_session()
    start = session.start()
    dealer = first_dealer_for(7, 4)
    look = Look(session.rules, symbols=False)
    assert texts(start, "info") == [f"Hand 1: {look.seat(dealer)} deals."]
    assert session.on_turn == 2 and session.state.phase == BID
    bidders_before_me = [o.text.split()[0] for o in start if o.kind == MOVE]
    expected = [look.seat((dealer + 1 + i) % 4) for i in range(4)]
    assert bidders_before_me == expected[: expected.index("South")]
    shown = play_until(session, lambda s: len(s.state.results) == 1)
    result = session.state.results[0]
    # R-C-5: thirteen tricks, each announced with its winner; the counts match the engine.
    tricks = texts(shown, TRICK)
    assert [t.split()[1] for t in tricks] == [f"{n}:" for n in range(1, 14)]
    winners = [t.split()[2] for t in tricks]
    assert [winners.count(look.seat(s)) for s in range(4)] == list(result.tricks)
    # R-4P-6: the summary gives each side's hand points, running score and bags from the engine.
    (summary,) = texts(shown, HAND)
    lines = summary.splitlines()
    assert lines[0] == "Hand 1 is over."
    for side, name in enumerate(("North-South", "East-West")):
        r = result.sides[side]
        assert lines[side + 1].startswith(f"  {name}: bid {r.contract} (")
        took = ", ".join(f"{look.letter(x)} {result.tricks[x]}" for x in (side, side + 2))
        assert f", took {r.tricks} ({took}): " in lines[side + 1]  # a nil's own tricks are visible
        assert lines[side + 1].endswith(
            f" = {r.points:+d}; score {r.score}, {r.bags_total} bag" + ("" if r.bags_total == 1 else "s")
        )


def test_two_player_draft_hand_is_played_at_the_prompt() -> None:
    session = new_session("two-player", seed=3)
    shown = session.start()
    # R-2P-3: each player is asked about double nil before her own first card.
    assert session.state.phase == DECLARE and session.on_turn == 1
    assert texts(shown, VIEW)[-1] == "South: declare double nil before your first card? (blind or noblind)"
    shown = session.handle("noblind")
    assert texts(shown, OWN) == ["South does not declare double nil."]
    # R-2P-2: thirteen keep/discard decisions; the card kept joins the hand, the other is gone.
    kept: list[str] = []
    for turn in range(13):
        state = session.state
        pair = state.draft_pair()
        assert state.phase == DRAFT and session.on_turn == 1 and pair is not None
        top, nxt = pair
        word = "keep" if turn % 2 == 0 else "discard"
        shown = session.handle(word)
        own = texts(shown, OWN)[0]
        a, b = (top, nxt) if word == "keep" else (nxt, top)
        if word == "keep":
            assert own == f"South keeps {label(a)} and discards {label(b)}."
        else:
            assert own == f"South discards {label(b)} and keeps {label(a)}."
        kept.append(card_label(a, symbols=False))
        assert a in session.state.hand_of(1) and b not in session.state.hand_of(1)
    assert len(session.state.hand_of(1)) == 13
    # R-2P-4: the second player (here South) bids first; R-2P-5: and leads.
    assert session.state.phase == BID and session.on_turn == 1
    assert session.state.dealer == 0
    shown = session.handle("4")
    assert texts(shown, OWN) == ["South bids 4."]
    assert texts(shown, MOVE)[0].startswith("North bids ")
    assert session.state.phase == PLAY and session.on_turn == 1
    shown = play_until(session, lambda s: len(s.state.results) == 1)
    assert len(texts(shown, TRICK)) == 13
    assert len(texts(shown, HAND)) == 1
    # R-2P-7: the roles swap: South draws first in hand 2.
    assert texts(shown, "info")[-1] == "Hand 2: South draws first; North bids first and leads."


# -- errors change nothing --------------------------------------------------------------------


def _to_follow(session: PlaySession) -> None:
    """Play on until South must follow a suit while holding other suits too."""

    def must_follow(s: PlaySession) -> bool:
        st = s.state
        return (
            s.on_turn == 2
            and st.phase == PLAY
            and bool(st.trick)
            and len(st.legal_actions()) < len(st.hand_of(2))
        )

    play_until(session, must_follow)


def test_not_following_suit_is_refused_with_the_cards_to_follow() -> None:
    # R-C-3: a player who holds the led suit must play it.
    session = new_session()
    session.start()
    _to_follow(session)
    state = session.state
    led = state.trick[0] // 13
    legal = state.legal_actions()
    other = next(c for c in state.hand_of(2) if c not in legal)
    before = list(state.history)
    shown = session.handle(action_text(other).lower())
    held = " ".join(label(c) for c in sorted(legal, reverse=True))
    expected = f"You must follow {SUIT_NAMES[led]}: you hold {held}"
    assert [(o.kind, o.text) for o in shown] == [(ERROR, expected)]
    assert session.state.history == before


def test_leading_a_spade_before_they_are_broken_is_refused() -> None:
    # R-C-6: no spade lead until spades are broken (unless holding only spades).
    session = new_session(seed=11)
    session.start()

    def my_lead_unbroken(s: PlaySession) -> bool:
        st = s.state
        return s.on_turn == 2 and st.phase == PLAY and not st.trick and not st.broken

    def no_spade_first(s: PlaySession) -> str:
        legal = s.state.legal_actions()
        return action_text(next((a for a in legal if not 39 <= a < 52), legal[0]))

    play_until(
        session,
        lambda s: (
            my_lead_unbroken(s)
            and any(c >= 39 for c in s.state.hand_of(2))
            and any(c < 39 for c in s.state.hand_of(2))
        ),
        no_spade_first,
    )
    spade = max(c for c in session.state.hand_of(2))
    before = len(session.state.history)
    shown = session.handle(action_text(spade))
    assert texts(shown) == ["Spades are not broken yet: lead another suit"]
    assert len(session.state.history) == before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("19", "'19' is not a bid: bid nil or 1-13"),
        ("double nil", "Double / blind nil is declared before you see your cards, not now"),
        ("QS", "'QS' is not a bid: bid nil or 1-13"),
        ("shuffle", "Unknown command 'shuffle' (type help)"),
    ],
)
def test_bad_bids_and_unknown_words_get_one_line(line: str, message: str) -> None:
    session = new_session()
    session.start()
    before = list(session.state.history)
    assert [(o.kind, o.text) for o in session.handle(line)] == [(ERROR, message)]
    assert session.state.history == before


def test_forgiving_card_forms_name_the_same_card() -> None:
    for line in ("play kh", "K♥", "hk", "KH", "kh"):
        session = new_session()
        session.start()
        session.handle("3")
        assert session.on_turn == 2 and not session.state.trick  # seed 7: South leads trick 1
        shown = session.handle(line)
        assert texts(shown, OWN) == ["South leads KH."], line


def test_a_rank_alone_plays_the_only_legal_card_of_that_rank() -> None:
    session = new_session()
    session.start()
    _to_follow(session)
    legal = session.state.legal_actions()
    ranks = [c % 13 for c in legal]
    unique = next(c for c in legal if ranks.count(c % 13) == 1)
    rank = card_label(unique, symbols=False)[:-1]
    shown = session.handle(rank.lower())
    assert texts(shown, OWN)[0] == f"South plays {card_label(unique, symbols=False)}."


# -- commands ------------------------------------------------------------------------------


def test_commands_answer_without_changing_the_game() -> None:
    session = new_session()
    session.start()
    session.handle("3")
    before = list(session.state.history)
    for command in (
        "help",
        "hand",
        "table",
        "last",
        "tricks",
        "score",
        "bids",
        "rules",
        "rules all",
        "transcript",
        "?",
        "cards",
        "SCORE",
    ):
        shown = session.handle(command)
        assert shown and all(o.kind == REPLY for o in shown), command
    assert session.state.history == before
    assert texts(session.handle("transcript")) == ["The game is saved in /saved/game.txt"]
    assert texts(session.handle("score")) == ["No hand has been scored yet (game to 500)."]
    hand = texts(session.handle("hand"))[0]
    assert hand.startswith("South's hand: ")
    assert len(hand.removeprefix("South's hand: ").split()) == 13


def test_last_and_tricks_show_finished_tricks() -> None:
    session = new_session()
    session.start()
    play_until(session, lambda s: len(s.state.tricks) == 2 and s.on_turn == 2)
    look = Look(session.rules, symbols=False)
    tricks = session.state.tricks
    assert texts(session.handle("last")) == ["".join(t for _, t in look.finished_trick(2, tricks[1]))]
    listed = texts(session.handle("tricks"))[0].splitlines()
    assert len(listed) == 2 and listed[0].startswith("Trick 1 (")


def test_completions_are_the_legal_moves_then_the_commands() -> None:
    session = new_session()
    session.start()
    words = [w for w, _, _ in session.completions()]
    bids = [action_text(a) for a in session.state.legal_actions()]
    assert words == bids + list(COMMAND_NAMES)


def test_hint_names_a_legal_move_and_changes_nothing() -> None:
    session = new_session()
    session.start()
    session.handle("3")
    before = list(session.state.history)
    (reply,) = session.handle("hint")
    assert reply.kind == REPLY
    level = session.hint_level
    assert reply.text.startswith(f"Hint ({level} bot): play ")
    card = reply.text.removeprefix(f"Hint ({level} bot): play ").split(" - ")[0]
    assert card in [card_label(a, symbols=False) for a in session.state.legal_actions()]
    assert session.state.history == before


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_bid_hint_names_the_bid_once(level: str) -> None:
    session = new_session()
    session.hint_level = level
    session.start()
    (reply,) = session.handle("hint")
    assert reply.kind == REPLY
    move, reason = reply.text.removeprefix(f"Hint ({level} bot): ").split(" - ", 1)
    assert move.startswith("bid ")
    said = move.removeprefix("bid ")
    assert f"bids {said}" not in reason and f"bid {said}" not in reason


# -- undo --------------------------------------------------------------------------------------


class _Log:
    def __init__(self, session: PlaySession) -> None:
        self.session = session
        self.undos: list[tuple[int, list[int]]] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, Undone):
            self.undos.append((event.seat, list(self.session.state.history)))


def test_undo_takes_back_the_last_decision_and_the_bot_moves_after_it() -> None:
    session = new_session(undo="always")
    log = _Log(session)
    session.run.subscribe(log)
    session.start()
    session.handle("3")
    play_until(session, lambda s: len(s.state.tricks) == 3 and s.on_turn == 2)
    snapshot = list(session.state.history)
    line = first_legal(session)
    after_move = session.handle(line)
    moved = session.state.history[len(snapshot) :]
    shown = session.handle("undo")
    assert session.state.history == snapshot
    assert log.undos == [(2, snapshot)]  # recorded after the game was rebuilt
    label = card_label(moved[0], symbols=False)
    more = len(moved) - 1
    after = {0: "", 1: " and 1 move after it"}.get(more, f" and {more} moves after it")
    assert texts(shown, REPLY) == [f"Took back South's {label}{after}."]
    # The bots are deterministic: the same move gives the same answers.
    again = session.handle(line)
    assert texts(again) == texts(after_move)


def test_undo_across_the_end_of_a_hand() -> None:
    session = new_session(undo="always")
    session.start()
    play_until(session, lambda s: len(s.state.results) == 1 and s.on_turn == 2)
    last_before = texts(session.handle("last"))
    shown = session.handle("undo")
    assert session.state.results == [] and session.state.phase in (PLAY,)
    assert len(session.state.hand_of(2)) == 1
    assert texts(shown, REPLY)[0].startswith("Took back South's ")
    assert texts(session.handle("last"))[0].startswith("Trick 12 ")
    session.handle(first_legal(session))
    assert texts(session.handle("last")) == last_before


def test_undo_with_nothing_to_take_back() -> None:
    session = new_session()
    session.start()
    assert [(o.kind, o.text) for o in session.handle("undo")] == [
        (ERROR, "South has made no decision yet: nothing to undo.")
    ]


def test_undo_before_new_info_refuses_once_another_seat_has_moved() -> None:
    # The default: a bid stands once the other bids and the lead have been seen.
    session = new_session()
    session.start()
    session.handle("3")
    history = list(session.state.history)
    assert [(o.kind, o.text) for o in session.handle("undo")] == [
        (
            ERROR,
            "South's decision stands: South has seen West's move since "
            "(undo only before anything new is seen: --undo before-new-info).",
        )
    ]
    assert session.state.history == history


def test_undo_before_new_info_takes_back_a_card_when_nothing_new_was_seen() -> None:
    # South plays the last card of a trick and wins it: South leads next, nothing new seen.
    session = new_session()
    session.start()
    session.handle("3")

    def south_closes_and_leads(s: PlaySession) -> bool:
        return s.on_turn == 2 and not s.state.trick and s.state.tricks[-1:] != [] and _south_last(s)

    play_until(session, south_closes_and_leads)
    shown = session.handle("undo")
    assert texts(shown, REPLY)[0].startswith("Took back South's ")
    assert len(session.state.trick) == 3


def _south_last(s: PlaySession) -> bool:
    return s.state.history[-1] < 52 and s._log.actors[-1] == 2


def test_undo_in_the_draft_never_keeps_the_card_just_seen() -> None:
    # Two-player draft: keep shows the other card of the pair, so keep stands.
    session = new_session("two-player")
    session.start()
    play_until(session, lambda s: s.state.phase == DRAFT and s.on_turn is not None)
    session.handle("keep")
    shown = session.handle("undo")
    assert texts(shown, ERROR) == [
        "South's decision stands: South has seen the other card of that draft pair "
        "(undo only before anything new is seen: --undo before-new-info)."
    ]


def test_undo_never() -> None:
    session = new_session(undo="never")
    session.start()
    session.handle("3")
    refused = "Undo is off at this table (--undo never): decisions stand."
    assert texts(session.handle("undo"), ERROR) == [refused]


# -- forced moves ---------------------------------------------------------------------------------


def test_autoplay_plays_the_only_legal_card_and_says_so() -> None:
    # Seed 7, South bids 3 and plays the first legal card: in trick 6 South must follow
    # hearts with its only heart (R-C-3), and its last card is forced too.
    typed, auto = new_session(), new_session(autoplay=True)
    for session in (typed, auto):
        session.start()
        session.handle("3")
    typed_shown = play_until(typed, lambda s: len(s.state.results) == 1)
    auto_shown = play_until(auto, lambda s: len(s.state.results) == 1)
    assert auto.state.history == typed.state.history  # the same game, two cards fewer typed
    assert [t for t in texts(auto_shown, OWN) if "only legal" in t] == [
        "South plays KH (the only legal card).",
        "South leads JS (the only legal card).",
    ]
    assert len(texts(auto_shown, VIEW)) == len(texts(typed_shown, VIEW)) - 2
    assert not any("only legal" in t for t in texts(typed_shown))


def test_undo_of_a_forced_card_leaves_it_to_the_player() -> None:
    session = new_session(undo="always", autoplay=True)
    session.start()
    session.handle("3")
    play_until(session, lambda s: len(s.state.tricks) == 6 and s.on_turn == 2)
    shown = session.handle("undo")
    assert texts(shown, REPLY)[0].startswith("Took back South's KH and ")
    assert texts(shown, VIEW)[-1].endswith("South to play: follow hearts (KH)")
    assert session.on_turn == 2 and len(session.state.tricks) == 5


# -- claiming ------------------------------------------------------------------------------------


def test_a_claim_is_checked_with_every_hand_known_and_played_out() -> None:
    # Seed 1: North bids nil, South 3. With three tricks left South cannot be sure of them;
    # with two left, 10S and QS take them whatever East and West play (R-C-4).
    session = new_session(seed=1)
    session.start()
    assert texts(session.handle("claim"), ERROR) == [
        "A claim is made on your turn in the play: the rest of the tricks for your side."
    ]
    session.handle("3")
    play_until(session, lambda s: len(s.state.tricks) == 10 and s.on_turn == 2)
    assert texts(session.handle("claim"), ERROR) == [
        "Not certain: South cannot be sure of the last 3 tricks whatever the others play. Play on."
    ]
    play_until(session, lambda s: len(s.state.tricks) == 11 and s.on_turn == 2)
    shown = session.handle("claim")
    assert texts(shown, REPLY) == ["South claims the last 2 tricks; they are played out."]
    assert texts(shown, OWN) == ["South plays 10S.", "South leads QS."]
    assert session.state.results[0].tricks[2] == 5 and session.state.hand_no == 1


# -- card counting ------------------------------------------------------------------------------


def test_out_and_voids_count_from_the_seats_observation() -> None:
    # Seed 7, South bids 3 and plays the first legal card: in trick 8 East leads 7C and
    # South, out of clubs, discards KD (R-C-3: follow suit when able); in trick 9 North
    # leads 8C and East, out of clubs too, ruffs with AS.
    session = new_session()
    session.start()
    assert texts(session.handle("voids")) == ["Nobody has shown out of a suit in this hand yet."]
    assert texts(session.handle("out"))[0].startswith("Not seen yet (39 cards):\n")
    session.handle("3")
    play_until(session, lambda s: len(s.state.tricks) == 8 and s.on_turn == 2)
    assert texts(session.handle("voids")) == ["Shown out: East of clubs; South of clubs."]
    assert texts(session.handle("out")) == [
        "Not seen yet (13 cards):\n  S K Q 9 8 6 5 4\n  H Q J 10 9 4\n  C J\n  D -"
    ]


# -- leaving ------------------------------------------------------------------------------------


def test_quit_asks_first_and_leaves_the_game_saved() -> None:
    session = new_session()
    session.start()
    assert texts(session.handle("quit")) == [
        "Leave the game (it stays saved in /saved/game.txt)? "
        "Type yes to leave, anything else to keep playing."
    ]
    assert session.prompt_text() == "Leave the game? (yes/no) "
    assert texts(session.handle("no")) == ["Still playing."]
    assert not session.done and session.prompt_text() == "S bid> "
    session.handle("quit")
    shown = session.handle("yes")
    assert texts(shown) == [SAVED]
    assert session.done and session.exit_code == EXIT_UNFINISHED
    assert session.handle("3") == []


def test_end_of_input_during_the_question_leaves_saved() -> None:
    session = new_session()
    session.start()
    session.handle("quit")
    assert texts(session.leave()) == [SAVED]
    assert session.exit_code == EXIT_UNFINISHED


def test_a_finished_game_ends_the_session_with_exit_0() -> None:
    # R-C-11: the game ends when a side reaches the target after a hand.
    session = new_session("two-player", seed=5, overrides=["target=60"])
    session.start()
    shown = play_until(session, lambda s: s.done)
    state = session.state
    assert state.is_terminal() and session.exit_code == EXIT_OK
    win = state.winner()
    assert win is not None
    look = Look(session.rules, symbols=False)
    table, game = texts(shown, GAME)
    result = "You win!" if win == 1 else "You lose."
    scores = f"{state.scores[win]} to {state.scores[1 - win]}"
    assert game == f"Game over: {look.side(win)} wins, {scores}. {result}"
    # The end of the game: the whole table (one row per hand), the winner and the chart.
    lines = table.splitlines()
    assert lines[0] == "Final score, hand by hand:"
    header = ["hand", "N", "bid", "took", "pts", "score", "S", "bid", "took", "pts", "score"]
    assert lines[1].split() == header
    rows = [line.split() for line in lines[2 : 2 + len(state.results)]]
    assert [int(r[0]) for r in rows] == [r.hand_no + 1 for r in state.results]
    assert [(int(r[4]), int(r[8])) for r in rows] == [r.scores for r in state.results]
    assert f"{look.side(win)} wins, {scores}." in lines
    assert "The scores over the hands:" in lines
    assert lines[-1].strip() == f"hands 0 to {len(state.results)}; N = North, S = South; # = both"


# -- hot seat, double nil ------------------------------------------------------------------------


def test_hot_seat_hands_over_between_people() -> None:
    session = new_session(seats=["N=human", "S=human"])
    shown = session.start()
    first = session.on_turn
    assert first in (0, 2)
    assert [o.seat for o in shown if o.kind == HANDOFF] == [first]
    look = Look(session.rules, symbols=False)
    view = texts(shown, VIEW)[-1]
    assert f"{look.seat(first)}'s hand: " in view  # only the player on turn is shown
    other = 2 - first
    shown = session.handle(first_legal(session))
    assert [o.seat for o in shown if o.kind == HANDOFF] == [other]
    handoff = next(o for o in shown if o.kind == HANDOFF)
    assert handoff.text == f"{look.seat(other)}'s turn: pass the keyboard to {look.seat(other)}."
    assert f"{look.seat(other)}'s hand: " in texts(shown, VIEW)[-1]


def test_double_nil_with_the_exchange() -> None:
    # R-2P-3: declared before the first card; after the draft, up to three cards are swapped
    # for cards drawn from the discard pile; the declaration is the bid.
    session = new_session("two-player", seed=3)
    session.start()
    assert texts(session.handle("blind"), OWN) == ["South declares double nil."]
    play_until(session, lambda s: s.state.phase != DRAFT, lambda s: "keep")
    assert session.state.phase == EXCHANGE and session.on_turn == 1
    view_prompt = "South: give up a card for one from the discard pile (3 exchanges left), or done"
    for left in (3, 2):
        hand = session.state.hand_of(1)
        give = max(hand)
        shown = session.handle(action_text(give))
        own = texts(shown, OWN)
        assert own[0] == f"South gives up {card_label(give, symbols=False)}."
        drawn = own[1].removeprefix("South draws ").removesuffix(" from the discard pile.")
        assert drawn != card_label(give, symbols=False)
        assert give not in session.state.hand_of(1)
        if left == 3:
            assert texts(shown, VIEW)[-1].endswith(view_prompt.replace("3 exchanges", "2 exchanges"))
    shown = session.handle("done")
    assert texts(shown, OWN)[0] == "South keeps the other cards."
    assert session.state.bids[1] == 0 and session.state.blind[1]
    assert "South bids" not in " ".join(texts(shown))
    assert session.state.phase == PLAY


# -- the score breakdown ---------------------------------------------------------------------------


def test_hand_result_breakdown_names_every_part() -> None:
    rules = load_rules("four-player")
    bids, blind, tricks = (0, 4, 3, 2), (False,) * 4, (1, 4, 6, 2)
    # R-4P-7: N's failed nil is -100 and its trick is a bag; R-C-8: S bid 3 took 6 -> +30 and 3 bags;
    # E-W bid 6 took 6 -> +60. R-C-9: 9 bags before + 4 = 13: -100, 3 carried.
    ns = score_side(rules, bids, blind, tricks, (0, 2), 200, 9)
    ew = score_side(rules, bids, blind, tricks, (1, 3), 150, 0)
    from spades_cli.engine import HandResult

    result = HandResult(0, 3, bids, blind, tricks, (ns, ew))
    shown = "".join(t for _, t in hand_result(Look(rules, symbols=False), rules, result))
    assert shown == (
        "Hand 1 is over.\n"
        "  North-South: bid 3 (N nil, S 3), took 7 (N 1, S 6): made +30, N nil failed -100, 4 bags +4, "
        "bag penalty -100 = -166; score 34, 3 bags\n"
        "  East-West: bid 6 (E 4, W 2), took 6 (E 4, W 2): made +60 = +60; score 210, 0 bags"
    )


def test_state_is_not_touched_by_the_session_view() -> None:
    session = new_session()
    session.start()
    clone: State = session.state.clone()
    session.handle("bids")
    session.handle("hand")
    assert clone.history == session.state.history and clone.phase == session.state.phase


def test_rules_summary_of_the_presets() -> None:
    # R-4P-4 (nil on), R-4P-7 (failed nil: bags), R-C-9 (10 bags: -100), R-C-6 (spades break).
    four = new_session()
    assert texts(four.handle("rules")) == [
        "Rules: four-player - Four players in two partnerships (North-South against East-West), with nil.\n"
        "  4 players, partners sit opposite; game to 500.\n"
        "  Bids 1-13; nil 100 (a failed nil's tricks are bags).\n"
        "  Overtricks: +1 each; every 10 bags cost 100.\n"
        "  Play: spades must be broken before they are led.\n"
        "  Type 'rules all' for every option."
    ]
    # R-2P-3 (double nil 200, three cards exchanged), R-2P-6 (failed nil: only the penalty).
    two = new_session("two-player")
    lines = texts(two.handle("rules"))[0].splitlines()
    assert lines[1:3] == [
        "  2 players, cards drafted; game to 500.",
        "  Bids 1-13; nil 100 (a failed nil's tricks score nothing); "
        "double nil 200 with up to 3 cards exchanged.",
    ]
    assert texts(two.handle("rules all"))[0].startswith("name: two-player\n")


def test_hot_seat_undo_never_takes_back_another_persons_move() -> None:
    session = new_session(seats=["N=human", "S=human"])  # seed 7: East deals, South bids first
    session.start()
    assert session.on_turn == 2
    session.handle("3")  # South; West (bot) bids, then North
    assert session.on_turn == 0
    session.handle("2")  # North; East (bot) bids, then South leads
    assert session.on_turn == 2 and session.state.phase == PLAY
    before = list(session.state.history)
    shown = session.handle("undo")
    assert [(o.kind, o.text) for o in shown] == [
        (ERROR, "North has moved since; only your own last decision can be undone.")
    ]
    assert session.state.history == before
