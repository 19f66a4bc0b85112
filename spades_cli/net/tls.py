"""TLS for the table: the host's own certificate and the joined seat's trust in it.

Beyond this machine's loopback interface ``spades host`` speaks TLS by default (the token
and the cards would otherwise cross the network in clear). Without ``--tls-cert`` it uses
a self-signed certificate made on first use and kept, private (0600, in a 0700 folder),
in the data folder (``$SPADES_HOME/tls``, else ``$XDG_DATA_HOME/spades/tls`` or
``~/.local/share/spades/tls``). The join lines carry its SHA-256 fingerprint; ``spades
join`` checks it, and remembers the fingerprint each ``HOST:PORT`` showed the first time
(trust on first use): a table that later shows another certificate is refused.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import hmac
import ipaddress
import json
import os
import re
import ssl
from collections.abc import Callable
from pathlib import Path

from spades_cli.errors import EXIT_UNTRUSTED, SpadesError, UsageError
from spades_cli.net.client import Connection
from spades_cli.transcript.paths import default_transcript_dir, private_folder

CERT_NAME = "host.pem"  # the key and the certificate, in one file (replaced whole)
KNOWN_NAME = "known-tables.json"
MAX_KNOWN = 1000  # tables remembered (the oldest forgotten first)
_HEX = re.compile(r"[0-9a-f]{64}\Z")
_FINGERPRINT = re.compile(r"sha256:[0-9a-f]{64}\Z")


class UntrustedTable(SpadesError):
    """The table's certificate is not the one its join line named or it showed before."""

    exit_code = EXIT_UNTRUSTED


def tls_folder() -> Path:
    """Where the host's certificate and the remembered tables are kept."""
    return default_transcript_dir().parent / "tls"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def fingerprint(der: bytes) -> str:
    """A certificate's SHA-256 fingerprint, as the join lines print it."""
    return "sha256:" + hashlib.sha256(der).hexdigest()


def parse_fingerprint(text: str) -> str:
    """``sha256:HEX`` or ``HEX`` (64 hex digits, colons allowed) -> ``sha256:hex``."""
    hexits = text.strip().lower().removeprefix("sha256:").replace(":", "")
    if not _HEX.match(hexits):
        raise UsageError(f"--fingerprint {text[:80]!r}: expected sha256: and 64 hex digits, as printed")
    return "sha256:" + hexits


def pem_fingerprint(path: str | Path) -> str:
    """The fingerprint of the (first) certificate in a PEM file."""
    try:
        text = Path(path).read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the certificate: {exc.strerror or exc}") from None
    start = text.find("-----BEGIN CERTIFICATE-----")
    end = text.find("-----END CERTIFICATE-----", start)
    if start < 0 or end < 0:
        raise UsageError(f"{path}: no certificate (PEM) in it")
    try:
        der = ssl.PEM_cert_to_DER_cert(text[start : end + len("-----END CERTIFICATE-----")] + "\n")
    except ValueError as exc:
        raise UsageError(f"{path}: not a certificate: {exc}") from None
    return fingerprint(der)


# --------------------------------------------------------------------------- the host side


def host_certificate(folder: Path | None = None) -> Path:
    """The host's own key and self-signed certificate (one PEM file, 0600), made on first use."""
    where = folder if folder is not None else tls_folder()
    path = where / CERT_NAME
    if path.exists():
        return path
    try:
        private_folder(where)
        pem = _self_signed()
        tmp = where / f".{CERT_NAME}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        if not path.exists():  # two hosts started at once: the first one's stays
            os.replace(tmp, path)
        else:
            tmp.unlink()
    except OSError as exc:
        raise UsageError(f"{where}: cannot keep the table's certificate: {exc.strerror or exc}") from None
    return path


def _self_signed() -> bytes:
    """A new P-256 key and a certificate for it, valid ten years (PEM, key first)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "spades table")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return key_pem + cert.public_bytes(serialization.Encoding.PEM)


def server_context(cert: str | Path, key: str | Path | None = None) -> ssl.SSLContext:
    """The host's TLS context (TLS 1.2 or later) for a certificate and its key."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(str(cert), None if key is None else str(key))
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"cannot load the TLS certificate or key: {exc}") from None
    return context


# --------------------------------------------------------------------------- the joined side


def pinned_context() -> ssl.SSLContext:
    """A client context that takes any certificate: the caller checks its fingerprint."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def check_exact(where: str, shown: str, expected: str) -> None:
    """UntrustedTable unless the table at ``where`` shows the certificate ``expected``."""
    if not hmac.compare_digest(expected, shown):
        raise UntrustedTable(
            f"the table at {where} shows a certificate other than the one expected "
            f"({shown}, expected {expected}): not joined"
        )


def check_pin(where: str, shown: str, given: str | None, folder: Path | None = None) -> str | None:
    """Trust on first use: ``shown`` (the table's fingerprint) against ``given`` (the join
    line's) or else the one ``where`` showed before; UntrustedTable when they differ. The
    fingerprint is remembered; the line to tell the player on first use (else None)."""
    known = _read_known(folder)
    expected = given or known.get(where)
    if expected is not None and not hmac.compare_digest(expected, shown):
        whose = "its join line names" if given else "it showed before"
        raise UntrustedTable(
            f"the table at {where} shows a certificate other than the one {whose} "
            f"({shown}, expected {expected}): not joined; if the host made a new one, "
            f"join with the --fingerprint of its new join line"
        )
    if known.get(where) == shown:
        return None
    known.pop(where, None)
    known[where] = shown
    _write_known(dict(list(known.items())[-MAX_KNOWN:]), folder)
    return None if given else f"First time at {where}: trusting its certificate {shown}."


def _known_path(folder: Path | None) -> Path:
    return (folder if folder is not None else tls_folder()) / KNOWN_NAME


def _read_known(folder: Path | None) -> dict[str, str]:
    try:
        with open(_known_path(folder), encoding="utf-8") as f:
            data = json.loads(f.read(1 << 20))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(f"{_known_path(folder)}: cannot read the tables trusted before: {exc}") from None
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, str) and _FINGERPRINT.match(v)}


def _write_known(known: dict[str, str], folder: Path | None) -> None:
    path = _known_path(folder)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        private_folder(path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(known, f, indent=0)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise UsageError(f"{path}: cannot remember the table's certificate: {exc.strerror or exc}") from None


def connect(
    host: str,
    port: int,
    *,
    tls: bool,
    cafile: str | None,
    given: str | None,
    say: Callable[[str], None],
    folder: Path | None = None,
) -> Connection:
    """The joined seat's connection: plain TCP; TLS checked against ``cafile``; or, with
    ``given`` (``--fingerprint``) or ``tls``, the table's certificate checked against the
    fingerprint given or remembered (trust on first use, said with ``say``)."""
    if cafile is not None:
        return Connection(host, port, tls=True, cafile=cafile)
    if given is None and not tls:
        return Connection(host, port)
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    told: list[str] = []

    def check(der: bytes) -> None:
        line = check_pin(where, fingerprint(der), given, folder)
        if line is not None:
            told.append(line)

    conn = Connection(host, port, context=pinned_context(), check=check)
    for line in told:
        say(line)
    return conn
