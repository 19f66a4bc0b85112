"""Types of the C double-dummy search core (``_ddcore.c``; slot cards, two teams); see ``solver/fast.py``."""

class Core:
    def __init__(
        self,
        n: int,
        keeps: tuple[tuple[int, ...], ...],
        order: tuple[tuple[int, ...], tuple[int, ...], int, int],
        side: int,
        inc: list[int],
        cnt: list[int],
        keen: list[int],
        table: list[float],
        ngroups: int,
        count_mode: int,
        tt_bits: int,
        team: list[int],
        mate: list[int],
        pairs: int,
        radix: int,
        start_bits: int = ...,
    ) -> None: ...
    def load(
        self,
        hands: list[int],
        trick: list[int],
        leader: int,
        current: int,
        broken: int,
        first: int,
        win_card: int,
        win_seat: int,
        left: int,
        code: int,
        ccode: int,
    ) -> None: ...
    def test(self, card: int, u: float, budget: int) -> tuple[int, int]: ...
    def moves(self) -> list[int]: ...
    def stop(self) -> None: ...
    def tricks(self) -> int: ...
    def legal(self) -> list[int]: ...
    def share(self, other: Core) -> None: ...

def release_kept() -> None: ...
