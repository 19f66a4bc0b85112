"""The bot side of the protocol: ``serve`` and ``spades bot`` (docs/bot-protocol.md)."""

from __future__ import annotations

import contextlib
import io
import random
import re
import subprocess
import sys

from helpers.paths import ROOT

from spades_cli import __version__
from spades_cli.bots import make_bot
from spades_cli.engine import Observation, Rules
from spades_cli.engine.notation import action_text
from spades_cli.game.match import Match
from spades_cli.game.run import GameRun
from spades_cli.presets import load_rules
from spades_cli.protocol import format_request, parse_request, serve


class Stop(Exception):
    pass


class _Capture:
    """Plays the normal bot and keeps the request of decision number ``at``."""

    label = "normal"

    def __init__(self, at: int) -> None:
        self.at = at
        self.count = 0
        self.bot = make_bot("normal")
        self.request: str | None = None
        self.answer: int | None = None

    def decide(self, match: Match, seat: int) -> int:
        obs = match.observation(seat)
        action = self.bot.act(obs, match.rules, match.rng("bot", seat))
        if self.count == self.at:
            self.request = format_request(obs, match.rules, match.rng_key("bot", seat))
            self.answer = action
            raise Stop
        self.count += 1
        return action


def request_at(preset: str, at: int, seed: str = "serve") -> tuple[str, int]:
    """The request of the ``at``-th decision of a game of normal bots, and the normal bot's answer."""
    rules = load_rules(preset)
    capture = _Capture(at)
    with contextlib.suppress(Stop):
        GameRun(Match(rules, seed, [capture] * rules.players)).play()
    assert capture.request is not None and capture.answer is not None
    return capture.request, capture.answer


def talk(text: str, level: str = "easy", name: str | None = None) -> list[str]:
    out = io.StringIO()
    serve(make_bot(level), io.StringIO(text), out, name=name)
    return out.getvalue().splitlines()


def test_handshake_gives_the_version_and_the_name() -> None:
    assert talk("spades-protocol 1\n") == [f"= 1 spades-easy {__version__}"]
    assert talk("spades-protocol 3\n", name="  my   bot ") == ["= 1 my bot"]
    assert talk("spades-protocol 0\nspades-protocol one\n") == [
        "? unsupported protocol version '0' (this bot speaks 1)",
        "? unsupported protocol version 'one' (this bot speaks 1)",
    ]


def test_unknown_commands_are_answered_and_the_conversation_goes_on() -> None:
    assert talk("hello\n\n# a comment\n  \ngenmove b\nquit\nhello\n") == [
        "? unknown command 'hello'",
        "? unknown command 'genmove'",
        "= bye",
    ]


def test_a_request_is_answered_like_the_bot_in_process() -> None:
    for preset, at in (("two-player", 0), ("two-player", 40), ("four-player", 30), ("four-player", 3)):
        request, expected = request_at(preset, at)
        assert talk(request, level="normal") == [f"= {action_text(expected)}"]


def test_r_ct_7_spades_bot_serves_the_variants_like_the_bot_in_process() -> None:
    """R-CT-1, R-CT-7, R-I-1, R-J-1, R-J-8: `spades bot` reads a three-seat, a solo and a
    joker table's requests (a score per side, the jokers' cards) and answers as in process;
    a later hand's request carries the earlier results of every side."""
    for preset, at in (("cutthroat", 2), ("cutthroat", 70), ("solo", 60), ("jokers", 30)):
        request, expected = request_at(preset, at)
        assert talk(request, level="normal") == [f"= {action_text(expected)}"]
    request, _ = request_at("cutthroat", 70)
    assert "\nscores " in request and len(request.split("\nscores ")[1].split("\n")[0].split()) == 3
    request, _ = request_at("joker-joker-deuce-deuce", 20)
    assert talk(request, level="easy")[0].startswith("= ")


def test_bad_and_unknown_requests_are_refused_without_ending_the_conversation() -> None:
    request, _ = request_at("four-player", 10)
    broken = request.replace("\nbids ", "\nbets ")
    unknown = "request dance\nseat N\nend\n"
    lines = talk(broken + unknown + "spades-protocol 1\n")
    assert lines == [
        "? bad request: missing line 'bids'",
        "? bad request: unknown request 'dance' "
        "(known: draft, double-nil, exchange, bid, card, pass, discard)",
        f"= 1 spades-easy {__version__}",
    ]


def test_input_ending_inside_a_request_ends_quietly() -> None:
    request, _ = request_at("two-player", 5)
    assert talk(request[: len(request) // 2]) == []


class _Broken:
    level = "broken"

    def __init__(self, result: int | None) -> None:
        self.result = result

    def act(self, obs: Observation, rules: Rules, rng: random.Random) -> int:
        if self.result is None:
            raise RuntimeError("boom\nbang")
        return self.result

    def explain(self, obs: Observation, rules: Rules, rng: random.Random) -> tuple[int, str]:
        return self.act(obs, rules, rng), ""


def test_a_failing_bot_is_reported_as_a_refusal_not_a_crash(capsys) -> None:
    request, _ = request_at("four-player", 20)
    out = io.StringIO()
    serve(_Broken(None), io.StringIO(request + "quit\n"), out)
    assert out.getvalue().splitlines() == ["? the bot failed: RuntimeError: boom bang", "= bye"]
    assert "RuntimeError: boom" in capsys.readouterr().err  # the traceback goes to stderr (the log)
    out = io.StringIO()
    serve(_Broken(70), io.StringIO(request), out)
    assert out.getvalue().splitlines() == ["? the bot chose 70, which is not legal here"]


def example_exchange() -> tuple[list[str], list[str]]:
    """The lines of the full example exchange in docs/bot-protocol.md, table's and bot's."""
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    section = doc.split("## A full example exchange", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    return [x[2:] for x in lines if x.startswith("> ")], [x[2:] for x in lines if x.startswith("< ")]


def test_the_documented_example_exchange_is_what_spades_bot_does() -> None:
    sent, answers = example_exchange()
    request = sent[sent.index("request card") : sent.index("end") + 1]
    parsed = parse_request(request)
    assert parsed.kind == "card" and parsed.rules == load_rules("four-player")
    assert answers[0] == f"= 1 spades-easy {__version__}"
    got = talk("\n".join(sent) + "\n", level="easy")
    assert got[0] == answers[0]
    assert got[1].startswith("= ") and got[1][2:] in [action_text(a) for a in parsed.obs.legal]
    assert got[2:] == answers[2:] == ["? unknown command 'hello'", "= bye"]


def test_spades_bot_speaks_the_protocol_on_stdin_and_stdout() -> None:
    request, expected = request_at("two-player", 12)
    proc = subprocess.run(
        [sys.executable, "-m", "spades_cli", "bot", "--level", "normal", "--name", "Ours"],
        input=f"spades-protocol 1\n{request}quit\nnever read\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["= 1 Ours", f"= {action_text(expected)}", "= bye"]
    assert proc.stderr == ""


def test_spades_bot_started_with_stdin_closed_ends_as_at_the_end_of_input() -> None:
    command = f"'{sys.executable}' -m spades_cli bot --level easy <&-"
    proc = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_spades_bot_rejects_an_unknown_level(cli) -> None:
    result = cli(["bot", "--level", "genius"])
    assert result.exit_code == 2
    assert "genius" in result.stderr
