"""A bot-protocol speaker that plays legally, then misbehaves: for the table's failure tests.

    python misbehave.py MODE [AFTER]

It answers the first legal action of AFTER requests (default 0), then does what MODE
says on every later one. With MISBEHAVE_ONCE=PATH in the environment it misbehaves
only if PATH does not exist yet (and creates it): once, even across restarts.
Standard library only; it knows nothing of the spades package.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

MODE = sys.argv[1]
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 0


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def misbehave(legal: list[str], hand: list[str]) -> None:
    if MODE == "garbage":
        say("hello table, how are you")
    elif MODE == "nonsense":
        say("= banana")
    elif MODE == "illegal":
        # The lowest card this seat does not hold.
        say("= " + next(r + s for s in "CDHS" for r in "23456789TJQKA" if r + s not in hand))
    elif MODE == "refuse":
        say("? I would rather not")
    elif MODE == "silent":
        time.sleep(3600)
    elif MODE == "crash":
        sys.exit(3)
    elif MODE == "flood":
        chunk = "x" * 65536
        for _ in range(160):  # 10 MiB without a newline
            sys.stdout.write(chunk)
        sys.stdout.flush()
        time.sleep(3600)
    elif MODE == "flood-lines":
        while True:
            sys.stdout.write("# thinking very hard about it\n" * 1000)
    elif MODE == "trickle":  # output that never ends a line, slowly enough to last
        while True:
            sys.stdout.write("x")
            sys.stdout.flush()
            time.sleep(0.02)
    elif MODE == "twice":
        say(f"= {legal[0]}\n= {legal[-1]}")  # one write: both lines arrive together
    elif MODE == "orphan":
        # A child that would outlive us unless the table kills the whole process group.
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        with open(os.environ["ORPHAN_PID_FILE"], "w") as f:
            f.write(str(child.pid))
        time.sleep(3600)
    elif MODE in ("deaf", "setsid"):  # they misbehave when the game ends, not before
        say(f"= {legal[0]}")
    elif MODE == "stderr":
        sys.stderr.write("debug: " + " ".join(legal) + "\n")
        sys.stderr.flush()
        say(f"= {legal[0]}")
    else:
        raise SystemExit(f"unknown mode {MODE}")


def first_time() -> bool:
    marker = os.environ.get("MISBEHAVE_ONCE")
    if marker is None:
        return True
    try:
        open(marker, "x").close()
    except FileExistsError:
        return False
    return True


def linger() -> None:
    """Deaf: outlive the end of input, "quit" and SIGTERM (only SIGKILL ends it)."""
    if MODE == "deaf":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)


def escape() -> None:
    """Setsid: start a child in a session of its own (out of reach of our process group)."""
    if MODE == "setsid":
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(3600)"], start_new_session=True
        )
        with open(os.environ["ORPHAN_PID_FILE"], "a") as f:
            f.write(f"{child.pid}\n")


def main() -> None:
    seen = 0
    escape()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "spades-protocol":
            if MODE == "bad-hello":
                say("= 7 from the future")
            elif MODE == "no-hello":
                say("? unknown command")
            elif MODE == "silent-hello":
                time.sleep(3600)
            else:
                say(f"= 1 misbehave {MODE}")
        elif words[0] == "request":
            legal: list[str] = []
            hand: list[str] = []
            for body in sys.stdin:
                key, *rest = body.split() or [""]
                if key == "end":
                    break
                if key == "legal":
                    legal = rest
                elif key == "hand":
                    hand = rest
            if MODE == "stderr" or (seen >= AFTER and first_time()):
                misbehave(legal, hand)
            else:
                say(f"= {legal[0]}")
            seen += 1
        elif words[0] == "quit":
            say("= bye")
            linger()
            return
        else:
            say("? unknown command")
    linger()


if __name__ == "__main__":
    main()
