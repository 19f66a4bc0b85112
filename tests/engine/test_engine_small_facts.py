"""Small facts with one home each: the nil test, the seat words, the quoting policy."""

from __future__ import annotations

import dataclasses
import re

import pytest
from helpers.paths import ROOT

from spades_cli.engine.rules import SEAT_WORDS, BiddingRules, NilRules, Rules
from spades_cli.engine.scoring import score_side
from spades_cli.engine.text import excerpt, shown
from spades_cli.net import wire

PACKAGE = ROOT / "spades_cli"

NIL_ON = Rules(players=2)
NIL_OFF = dataclasses.replace(NIL_ON, nil=NilRules(enabled=False), bidding=BiddingRules(min_bid=0))


def _sources() -> list[tuple[str, str]]:
    return [(p.relative_to(PACKAGE).as_posix(), p.read_text()) for p in sorted(PACKAGE.rglob("*.py"))]


@pytest.mark.parametrize("rules", [NIL_ON, NIL_OFF], ids=["nil on", "nil off"])
@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("bid", range(14))
def test_the_nil_test_agrees_with_scoring_on_every_bid(rules: Rules, blind: bool, bid: int) -> None:
    # R-C-10 / R-2P-3: a nil that takes no trick scores its bonus; any other bid scores no nil points.
    side = score_side(rules, [bid, 3], [blind, False], [0, 13], [0], 0, 0)
    nil_value = rules.blind_nil.value if blind else rules.nil.value
    assert (side.nil_points == nil_value) is rules.is_nil(bid, blind)
    assert side.contract == (0 if rules.is_nil(bid, blind) else bid)


def test_the_nil_test_is_written_once() -> None:
    # A bid of 0 compared together with nil.enabled or a blind flag is the nil test itself.
    pattern = re.compile(r"== 0 and \(?[\w.\[\]]*(nil|blind|declared)")
    assert [path for path, text in _sources() if pattern.search(text)] == ["engine/actions.py"]


def test_the_seat_words_are_written_once() -> None:
    assert [path for path, text in _sources() if '"North"' in text] == ["engine/rules.py"]
    assert SEAT_WORDS == {"N": "North", "E": "East", "S": "South", "W": "West"}
    assert all(name in SEAT_WORDS for name in Rules(players=4).seat_names + Rules(players=2).seat_names)


def test_untrusted_text_is_escaped_and_cut_to_a_short_excerpt() -> None:
    assert excerpt("a\x1b[31mb\u202ec\udc80") == "a\\x1b[31mb\\u202ec\\udc80"
    assert excerpt("x" * 100) == "x" * 37 + "..."
    assert excerpt("x" * 40) == "x" * 40
    assert shown("x" * 100) == "'" + "x" * 37 + "...'"
    assert shown("it's\n") == '"it\'s\\n"'
    assert excerpt("y" * 300, 200) == "y" * 197 + "..."
    assert wire.safe_text("\x1b]0;title\x07" + "z" * 300) == excerpt("\x1b]0;title\x07" + "z" * 300, 200)


def test_the_quoting_policy_is_written_once() -> None:
    # Cutting a text and marking the cut with "..." is the policy's own.
    cut = re.compile(r"\[:[^\]]*\] \+ \"\.\.\.\"|\"\.\.\.\" if len\(")
    assert [path for path, text in _sources() if cut.search(text)] == []
    helpers = re.compile(r"^def (_?excerpt|_?shown|safe_text)\(", re.M)
    assert [path for path, text in _sources() if helpers.search(text)] == ["engine/text.py", "net/wire.py"]
