"""Single keys at a terminal for ``replay --step``: each key of the stepper acts at once
(no Enter), while ``g N`` and a hand number are typed as a line and ended with Enter."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output

STEP_KEYS = "npbtThHeq"  # the keys that act alone (replay.stepper.Stepper.move reads them)
STEP_PROMPT = "step (n p t T h H g N e q)> "


def key_reader(
    prompt: str = STEP_PROMPT, *, input: Input | None = None, output: Output | None = None
) -> Callable[[], str | None]:
    """A reader of one key (or one line) at a time; None at the end of input or Ctrl-C."""
    bindings = KeyBindings()
    empty = Condition(lambda: not get_app().current_buffer.text)

    def alone(key: str) -> None:
        @bindings.add(key, filter=empty)
        def _(event: KeyPressEvent) -> None:
            event.app.exit(result=key)

    for key in STEP_KEYS:
        alone(key)
    session = PromptSession[str](key_bindings=bindings, input=input, output=output, erase_when_done=True)

    def read() -> str | None:
        try:
            return session.prompt(prompt)
        except (EOFError, KeyboardInterrupt):
            return None

    return read
