"""Every call an analysis makes to the C search core, recorded once and replayed on any build.

``record`` runs the analysis of ``bench/analyze.py``'s ten dealt hands (``bench``) or of
every hand of a transcript, one runner a hand so that the calls come in one order, and
writes each call to the core (a solver made, a position loaded, a table shared, a question
and its answer, a solver let go) as a line of JSON. ``replay`` makes the same calls on the
core this Python imports, checks that every answer is the recorded one, and prints the
positions searched by kind of question (a seat counted alone, a side's tricks, points)
beside the record's, with the CPU time. A change to the C core is then measured on exactly
the same questions, with no analysis code in between: run the replay under
``valgrind --tool=callgrind`` for instruction counts that do not depend on the machine's load.

Run: ``python bench/corelog.py record bench OUT.jsonl`` (or ``record transcripts/four-player.txt
OUT.jsonl``; ``--budget N``), then ``python bench/corelog.py replay OUT.jsonl``. A record is
read as data: each line must be a JSON array of one of the known calls, or it is refused.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from unittest import mock

from common import build_line

from spades_cli.solver import fast

if TYPE_CHECKING:
    from spades_cli.solver._ddcore import Core

CALLS = ("init", "load", "share", "test", "del")


class Recorder:
    """A stand-in for the core's module: each ``Core`` it makes writes its calls to ``out``."""

    def __init__(self, out: TextIO) -> None:
        from spades_cli.solver import _ddcore  # built: main() stops first when it is not

        self.out = out
        self.made = 0
        self.release_kept = _ddcore.release_kept
        recorder = self

        class Core:
            def __init__(self, *args: Any) -> None:
                self.id = recorder.made
                recorder.made += 1
                self.core = _ddcore.Core(*args)
                recorder.write("init", self.id, list(args))

            def load(self, *args: Any) -> None:
                recorder.write("load", self.id, list(args))
                return self.core.load(*args)

            def test(self, *args: Any) -> tuple[int, int]:
                answer = self.core.test(*args)
                recorder.write("test", self.id, list(args), list(answer))
                return answer

            def share(self, other: Core) -> None:
                recorder.write("share", self.id, other.id)
                return self.core.share(other.core)

            def __getattr__(self, name: str) -> Any:  # moves, legal, stop, tricks: not recorded
                return getattr(self.core, name)

            def __del__(self) -> None:
                recorder.write("del", self.id)

        self.Core = Core

    def write(self, *call: Any) -> None:
        self.out.write(json.dumps(call) + "\n")


def record(what: str, out_path: Path, budget: int) -> None:
    import analyze  # bench/analyze.py, beside this script

    game = None if what == "bench" else analyze.read_game(what)  # (exit 2: not a game)
    fd = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # private to the user
    with open(fd, "w", encoding="utf-8") as out:
        recorder = Recorder(out)
        analyze.THREADS["threads"] = 1  # one runner: the calls in one order
        # The analysis's solvers make their cores through the recorder; the module is put back
        # after (patched by name: ``fast._ddcore`` is typed as the module, not as a stand-in).
        with mock.patch.object(fast, "_ddcore", recorder):
            if what == "bench":
                analyze.whole_hands(analyze.played_hands(10), budget)
            else:
                analyze.recorded_game(what, budget, match=game)
            gc.collect()  # the last solvers' "del" lines
    print(f"{recorder.made} solvers recorded in {out_path}")


def kind_of(args: list[Any]) -> str:
    count_mode, inc = args[9], args[4]
    return "points" if not count_mode else ("a seat alone" if sum(inc) == 1 else "a side's tricks")


def replay(log_path: Path) -> int:
    try:
        with log_path.open(encoding="utf-8") as log:
            return replay_lines(log_path, log)
    except (OSError, UnicodeDecodeError) as e:
        print(f"{log_path}: cannot be read ({e.__class__.__name__})", file=sys.stderr)
        return 2


def replay_lines(log_path: Path, log: Iterable[str]) -> int:
    cores: dict[int, Core] = {}
    kinds: dict[int, str] = {}
    now: Counter[str] = Counter()
    then: Counter[str] = Counter()
    differing = 0
    start = time.process_time()
    for number, line in enumerate(log, 1):
        try:
            differing += replay_call(json.loads(line), cores, kinds, now, then)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError):
            print(f"{log_path}:{number}: not a recorded call", file=sys.stderr)
            return 2
    cpu = time.process_time() - start
    total, recorded = sum(now.values()), sum(then.values())
    print(f"positions {total:,} (recorded {recorded:,}); answers differing: {differing}; CPU {cpu:.1f} s")
    for kind in sorted(then):
        print(f"  {kind}: {now[kind]:,} (recorded {then[kind]:,})")
    return 1 if differing else 0


def replay_call(
    call: Any, cores: dict[int, Core], kinds: dict[int, str], now: Counter[str], then: Counter[str]
) -> int:
    """Make one recorded call; 1 when it is a question whose answer differs from the record."""
    if not isinstance(call, list) or not call or call[0] not in CALLS or not isinstance(call[1], int):
        raise ValueError("not a recorded call")
    name, which = call[0], call[1]
    if name == "init":
        from spades_cli.solver import _ddcore  # built: main() stops first when it is not

        args = call[2]
        args[2] = tuple(args[2])  # the card order is read as a tuple
        cores[which] = _ddcore.Core(*args)
        kinds[which] = kind_of(args)
    elif name == "load":
        cores[which].load(*call[2])
    elif name == "share":
        cores[which].share(cores[call[2]])
    elif name == "del":
        cores.pop(which, None)
    else:
        answer, searched = cores[which].test(*call[2])
        recorded_answer, recorded_searched = call[3][0], call[3][1]
        now[kinds[which]] += searched
        then[kinds[which]] += int(recorded_searched)
        return int(answer >= 0 and recorded_answer >= 0 and answer != recorded_answer)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record an analysis's calls to the C core")
    rec.add_argument("what", help="'bench' (the ten dealt hands) or a transcript file")
    rec.add_argument("out", type=Path, help="the record to write (JSON lines)")
    rec.add_argument("--budget", type=int, default=20_000_000, help="positions a question")
    rep = sub.add_parser("replay", help="replay a record on this build's C core")
    rep.add_argument("log", type=Path)
    args = parser.parse_args()
    print(build_line())
    if not fast.available():
        print("no C search core in this build: nothing to record or replay", file=sys.stderr)
        return 2
    if args.command == "record":
        try:
            record(args.what, args.out, args.budget)
        except OSError as e:
            print(f"{args.out}: cannot be written ({e.strerror or e.__class__.__name__})", file=sys.stderr)
            return 2
        return 0
    return replay(args.log)


if __name__ == "__main__":
    sys.exit(main())
