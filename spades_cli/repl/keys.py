"""Single keys at a terminal: each acts at once (no Enter) while the line is empty.

- ``replay --step``: the stepper's keys (``g N`` and a hand number are typed as a line
  and ended with Enter);
- the two-player draft at the prompt: ``k`` keeps the card, ``d`` discards it (in a pipe
  the answers are the words ``keep`` and ``discard``, as always).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output

from spades_cli.i18n import N_, _

STEP_KEYS = "npbtThHeq"  # the keys that act alone (replay.stepper.Stepper.move reads them)
STEP_PROMPT = N_("step (n p t T h H g N e q)> ")
DRAFT_KEYS: Mapping[str, str] = {"k": "keep", "d": "discard"}  # the draft's keys and what they answer


def single_keys(
    keys: Mapping[str, str],
    when: Callable[[], bool] = lambda: True,
    pressed: Callable[[str], None] | None = None,
) -> KeyBindings:
    """Bindings by which each key of ``keys`` ends the prompt at once with its answer, while
    the line is empty and ``when()`` holds (other keys are typed as usual); ``pressed`` is
    told the answer of each key that acted."""
    bindings = KeyBindings()
    active = Condition(lambda: not get_app().current_buffer.text and when())

    def alone(key: str, answer: str) -> None:
        @bindings.add(key, filter=active)
        def _(event: KeyPressEvent) -> None:
            if pressed is not None:
                pressed(answer)
            event.app.exit(result=answer)

    for key, answer in keys.items():
        alone(key, answer)
    return bindings


def key_reader(
    prompt: str = STEP_PROMPT, *, input: Input | None = None, output: Output | None = None
) -> Callable[[], str | None]:
    """A reader of one key (or one line) at a time; None at the end of input or Ctrl-C."""
    bindings = single_keys({key: key for key in STEP_KEYS})
    session = PromptSession[str](key_bindings=bindings, input=input, output=output, erase_when_done=True)

    def read() -> str | None:
        try:
            return session.prompt(_(prompt))
        except (EOFError, KeyboardInterrupt):
            return None

    return read
