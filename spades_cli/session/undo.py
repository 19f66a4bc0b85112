"""Fair play with ``undo``: how far a seat may take back its decisions (``--undo``).

- ``always``: the last decision, whatever has been seen since;
- ``before-new-info`` (the default): only while nothing new has been seen since that
  decision: no move of another seat, no new deal, no card of the draft shown;
- ``never``: decisions stand.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades_cli.engine import DISCARD, KEEP
from spades_cli.i18n import _

UNDO_POLICIES = ("always", "before-new-info", "never")
UNDO_DEFAULT = "before-new-info"


def undo_policy(recorded: str | None) -> str:
    """The undo policy a transcript recorded (its ``Undo`` tag), the default when it names none."""
    return recorded if recorded in UNDO_POLICIES else UNDO_DEFAULT


def seen_since(actions: Sequence[int], actors: Sequence[int], seat: int, names: Sequence[str]) -> str | None:
    """What ``seat`` has seen since its decision ``actions[0]`` (``actors``: who took each of
    ``actions``, -1 for chance), in words; None when nothing new."""
    for action, actor in zip(actions, actors, strict=True):
        if actor < 0:
            return _("the cards dealt since")
        if actor != seat:
            return _("{seat}'s move since").format(seat=names[actor])
        if action in (KEEP, DISCARD):
            return _("the other card of that draft pair")
    return None
