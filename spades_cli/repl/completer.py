"""Tab completion at the prompt: the legal moves of the seat on turn, then the commands."""

from __future__ import annotations

from collections.abc import Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from spades_cli.repl.session import Session


class PlayCompleter(Completer):
    """Completes the first word of the line from :meth:`PlaySession.completions`.

    A card matches both its written form (``QS``) and its label (``Q♠``, ``10♥``), so
    typing ``10`` offers the tens; the canonical form is what gets inserted.
    """

    def __init__(self, session: Session) -> None:
        self.session = session

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        before = document.text_before_cursor
        typed = before.lstrip()
        if " " in typed:
            yield from self._second_word(typed)
            return
        prefix = typed.lower()
        for insert, label, note in self.session.completions():
            if insert.lower().startswith(prefix) or label.lower().startswith(prefix):
                yield Completion(insert, start_position=-len(typed), display=label, display_meta=note)

    def _second_word(self, typed: str) -> Iterable[Completion]:
        word, _, rest = typed.partition(" ")
        if word.lower() == "rules" and "all".startswith(rest.strip().lower()):
            yield Completion("all", start_position=-len(rest), display_meta="every option")
