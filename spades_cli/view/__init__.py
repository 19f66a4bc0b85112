"""The one text renderer: table, hands, tricks (the winning card marked), scores, hand and
game summaries, for the prompt, the batch mode, ``replay`` and the printers.

- :mod:`~spades_cli.view.layout`: terminal width, wrapping at word boundaries, suit symbols
  or letters (``--ascii``, the C locale, an output that cannot encode ``♠``);
- :mod:`~spades_cli.view.look`: styled fragments, cards, hands, seats, bid words;
- :mod:`~spades_cli.view.table`: the table during a hand (trick by seat, bids and tricks);
- :mod:`~spades_cli.view.summary`: a hand's result, the per-hand table, the end of the game;
- :mod:`~spades_cli.view.lines`: the same as plain strings for line printers.

Views return ``Fragments`` (``(style, text)`` pairs, prompt_toolkit's formatted text, built
without importing it); :func:`plain` drops the styles.
"""

from spades_cli.view.layout import Frag, Fragments, output_width, symbols_ok, terminal_width, wrap, wrap_frags
from spades_cli.view.lines import (
    ansi,
    render_bids,
    render_card,
    render_cards,
    render_deal,
    render_hand,
    render_hand_result,
    render_scores,
    render_trick,
)
from spades_cli.view.look import (
    BAD,
    BLACK,
    DIM,
    ERROR,
    GOOD,
    RED,
    TITLE,
    WIN,
    Look,
    bid_word,
    compress_bids,
    join,
    plain,
    plural,
    sort_hand,
    text,
    winning_index,
)
from spades_cli.view.summary import (
    game_over,
    hand_result,
    rules_summary,
    score_chart,
    score_table,
    side_result,
)
from spades_cli.view.table import (
    bids_text,
    discards_line,
    hand_line,
    pack,
    seat_tag,
    seats_text,
    side_line,
    status,
    status_parts,
    table_view,
    trick_layout,
    tricks_text,
    turn_prompt,
)

__all__ = [
    "BAD",
    "BLACK",
    "DIM",
    "ERROR",
    "GOOD",
    "RED",
    "TITLE",
    "WIN",
    "Frag",
    "Fragments",
    "Look",
    "ansi",
    "bid_word",
    "bids_text",
    "compress_bids",
    "discards_line",
    "game_over",
    "hand_line",
    "hand_result",
    "join",
    "output_width",
    "pack",
    "plain",
    "plural",
    "render_bids",
    "render_card",
    "render_cards",
    "render_deal",
    "render_hand",
    "render_hand_result",
    "render_scores",
    "render_trick",
    "rules_summary",
    "score_chart",
    "score_table",
    "seat_tag",
    "seats_text",
    "side_line",
    "side_result",
    "sort_hand",
    "status",
    "status_parts",
    "symbols_ok",
    "table_view",
    "terminal_width",
    "text",
    "trick_layout",
    "tricks_text",
    "turn_prompt",
    "winning_index",
    "wrap",
    "wrap_frags",
]
