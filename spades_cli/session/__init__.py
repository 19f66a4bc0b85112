"""A seat's session, the same wherever the game is played: the commands a player can type
(``commands``: one registry over a ``SeatView``), reading a move and the view a seat
decides from (``moves``), and the :class:`Output` items a front end shows (``output``).

A game played at this prompt (:mod:`spades_cli.repl`) and a seat joined at a table hosted
elsewhere (:mod:`spades_cli.net.client`) both supply the :class:`SeatView`; this package
imports neither.
"""

from __future__ import annotations

from spades_cli.session.output import Output
from spades_cli.session.seat import SeatView

__all__ = ["Output", "SeatView"]
