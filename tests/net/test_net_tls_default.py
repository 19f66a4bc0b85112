"""TLS by default beyond loopback (issue 34, item 8): the table's own self-signed
certificate, made on first use and kept private; its fingerprint in the join lines,
checked by ``spades join`` (trust on first use per HOST:PORT, a changed certificate
refused with exit 4); plain TCP only on loopback or with ``--insecure``."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from helpers.net import Spawned, host_table

from spades_cli.errors import EXIT_UNTRUSTED, UsageError
from spades_cli.net import hosting, tls
from spades_cli.net.client import RemoteSession

OTHER = "sha256:" + "0" * 64


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The certificate and the trusted tables go to this test's own folder."""
    monkeypatch.setenv("SPADES_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_loopback_stays_plain_and_any_other_address_gets_the_tables_own_certificate(data_home: Path) -> None:
    assert hosting.table_tls("127.0.0.1", None, None, force=False, insecure=False) == (None, None)
    assert hosting.table_tls("::1", None, None, force=False, insecure=False) == (None, None)
    assert not (data_home / "tls").exists()
    context, pin = hosting.table_tls("0.0.0.0", None, None, force=False, insecure=False)
    pem = data_home / "tls" / tls.CERT_NAME
    assert context is not None and pin == tls.pem_fingerprint(pem)
    assert stat.S_IMODE(os.stat(pem).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(pem.parent).st_mode) == 0o700
    again = hosting.table_tls("192.0.2.7", None, None, force=False, insecure=False)
    assert again[1] == pin  # made once, then kept
    assert hosting.table_tls("127.0.0.1", None, None, force=True, insecure=False)[1] == pin


def test_insecure_is_plain_tcp_and_contradicts_the_tls_flags() -> None:
    assert hosting.table_tls("0.0.0.0", None, None, force=False, insecure=True) == (None, None)
    with pytest.raises(UsageError, match="--insecure"):
        hosting.table_tls("0.0.0.0", None, None, force=True, insecure=True)


def test_trust_on_first_use_then_a_changed_certificate_is_refused(tmp_path: Path) -> None:
    mine = tls.fingerprint(b"the table's certificate")
    line = tls.check_pin("host:7311", mine, None, tmp_path)
    assert line is not None and mine in line and "First time" in line
    assert tls.check_pin("host:7311", mine, None, tmp_path) is None  # remembered: nothing to say
    with pytest.raises(tls.UntrustedTable) as refused:
        tls.check_pin("host:7311", OTHER, None, tmp_path)
    assert refused.value.exit_code == EXIT_UNTRUSTED == 4
    assert "\n" not in str(refused.value) and "showed before" in str(refused.value)
    assert tls.check_pin("other:7311", OTHER, None, tmp_path) is not None  # per HOST:PORT
    with pytest.raises(tls.UntrustedTable, match="join line names"):
        tls.check_pin("new:1", mine, OTHER, tmp_path)


@pytest.mark.parametrize("text", ["sha256:" + "AB" * 32, "ab:" * 31 + "ab", "ab" * 32])
def test_a_fingerprint_is_read_in_the_usual_spellings(text: str) -> None:
    assert tls.parse_fingerprint(text) == "sha256:" + "ab" * 32


def test_a_broken_fingerprint_is_one_line() -> None:
    with pytest.raises(UsageError, match="64 hex digits"):
        tls.parse_fingerprint("sha256:xyz")


def test_a_seat_joins_over_the_tables_own_certificate_and_a_wrong_one_sends_nothing(tmp_path: Path) -> None:
    context, pin = hosting.table_tls("127.0.0.1", None, None, force=True, insecure=False)
    assert context is not None and pin is not None
    labels = {"N": "human", "E": "easy", "S": "easy", "W": "easy"}
    table = host_table(tmp_path, seed=8, labels=labels, ssl_context=context)
    try:
        host, port = table.address
        with pytest.raises(tls.UntrustedTable):
            tls.connect(host, port, tls=False, cafile=None, given=OTHER, say=print, folder=tmp_path)
        plain = RemoteSession(tls.connect(host, port, tls=False, cafile=None, given=None, say=print), "x")
        with pytest.raises(UsageError, match="speaks TLS\\? give the whole join line"):
            plain.start()
        said: list[str] = []
        conn = tls.connect(host, port, tls=True, cafile=None, given=None, say=said.append, folder=tmp_path)
        assert said == [f"First time at {host}:{port}: trusting its certificate {pin}."]
        session = RemoteSession(conn, table.token("N"), symbols=False)
        session.start()
        assert session.obs is not None and len(session.obs.hand) == 13
        conn.close()
    finally:
        table.stop()


@pytest.mark.slow
def test_join_refuses_a_table_whose_certificate_changed_with_exit_4(tmp_path: Path, data_home: Path) -> None:
    """The join line's fingerprint is checked by ``spades join``; a certificate other than
    the one remembered for HOST:PORT is refused in one line, exit 4, the token never sent."""
    env = dict(os.environ, SPADES_HOME=str(data_home))
    host = Spawned(["host", "--tls", "--seat", "S=human", "--transcript", str(tmp_path / "t.txt")], env=env)
    try:
        line = host.wait_for("South: spades join").split()
        address, token, flag, pin = line[3], line[5], line[6], line[7]
        assert flag == "--fingerprint" and pin == tls.pem_fingerprint(data_home / "tls" / tls.CERT_NAME)
        known = data_home / "tls" / tls.KNOWN_NAME
        known.write_text(f'{{"{address}": "{OTHER}"}}')
        join = Spawned(["join", address, "--token", token, "--tls"], stdin="quit\n", env=env)
        assert join.finish() == 4
        assert join.lines == [
            f"spades: the table at {address} shows a certificate other than the one it showed "
            f"before ({pin}, expected {OTHER}): not joined; if the host made a new one, join with "
            "the --fingerprint of its new join line"
        ]
        ok = Spawned(["join", address, "--token", token, "--fingerprint", pin], stdin="quit\nyes\n", env=env)
        assert ok.finish() == 3, ok.output
        assert "playing South" in ok.output
    finally:
        host.kill()
