"""The joined seat's connection over TLS: one thread reads while another writes, and
OpenSSL forbids using one TLS connection from two threads at once, so reads and writes
take turns without either waiting on the other for long."""

from __future__ import annotations

import json
import socket
import ssl
import threading
from pathlib import Path

from helpers.net import certificate

from spades_cli.net.client import Connection

ROUNDS = 200


def serve(listener: socket.socket, context: ssl.SSLContext, errors: list[BaseException]) -> None:
    """Answer every line with two lines, the first split over two TLS records."""
    try:
        raw, _ = listener.accept()
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # the split arrives as two records
        with context.wrap_socket(raw, server_side=True) as conn:
            stream = conn.makefile("rb")
            for _ in range(ROUNDS):
                line = stream.readline()
                n = json.loads(line)["n"]
                first = f'{{"type": "echo", "n": {n}}}\n'.encode()
                conn.sendall(first[:7])
                conn.sendall(first[7:] + f'{{"type": "also", "n": {n}}}\n'.encode())
    except BaseException as exc:  # recorded for the test
        errors.append(exc)


def test_a_tls_connection_is_read_and_written_from_two_threads_without_a_hang(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    errors: list[BaseException] = []
    server = threading.Thread(target=serve, args=(listener, context, errors), daemon=True)
    server.start()
    conn = Connection("127.0.0.1", listener.getsockname()[1], tls=True, cafile=cert)
    try:
        got = []
        for n in range(ROUNDS):  # the reader waits in its read while this thread writes
            conn.send({"type": "ping", "n": n})
            got.append(conn.inbox.get(timeout=30))
            got.append(conn.inbox.get(timeout=30))
        server.join(30)
    finally:
        conn.close()
        listener.close()
    assert not errors
    assert got == [m for n in range(ROUNDS) for m in ({"type": "echo", "n": n}, {"type": "also", "n": n})]
    assert conn.inbox.get(timeout=30) is None  # the host closed: the reader says so once
