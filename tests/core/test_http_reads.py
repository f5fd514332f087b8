"""A streamable HTTP connection reads its answers in the pieces that have arrived, not 64 KiB at a
time (``core/transport/http/client.py``): every request goes through a :class:`LargeReadStream`,
over TLS too, and a large answer full of multi-byte characters, read in those larger pieces,
arrives whole."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from collections.abc import Iterator

import httpx2
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.http.client import LargeReadStream, http_client
from tests.helpers.bench_http import bench_http_url
from tests.helpers.hand_http import QuietHandler, Served

pytestmark = pytest.mark.anyio
PIECE = 'row "quoted" \\ back <tag attr="1"> & amp\tTab é ü 日本語 $x$\n'
"""What the bench server's ``payload`` repeats (benchmarks/bench_server.py)."""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with bench_http_url() as found:
        yield found


async def test_every_response_is_read_through_a_large_read_stream(url: str) -> None:
    async with http_client({"Accept": "application/json"}, httpx2.Timeout(30), None) as client:
        response = await client.get(url)
    assert isinstance(response.extensions["network_stream"], LargeReadStream)


async def test_a_large_answer_read_in_large_pieces_arrives_whole(url: str) -> None:
    size = 3_000_001  # not a multiple of the piece: the last one is cut inside it
    server = await connect_mcp(mcp.http(name="big", url=url), timeout_seconds=60)
    try:
        text = await server.tool("payload").call({"size_chars": size})
    finally:
        await server.close()
    assert text == (PIECE * (size // len(PIECE) + 1))[:size]


@pytest.fixture(scope="module")
def https_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An HTTPS server on 127.0.0.1 (a certificate of its own) answering every GET with BODY."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(private, hashes.SHA256())
    )
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )

    class Handler(QuietHandler):
        def do_GET(self) -> None:
            self.reply(200, BODY, "text/plain; charset=utf-8")

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    served = Served(Handler, tls=context)
    try:
        with pytest.MonkeyPatch.context() as env:
            env.setenv("SSL_CERT_FILE", str(cert))  # httpx trusts it as it would a company's CA
            yield served.url("/")
    finally:
        served.stop()


BODY = ("é 日本語 " * 300_000).encode()
"""About 4 MB, multi-byte characters cut anywhere a read ends."""


async def test_over_https_a_large_answer_is_read_whole_through_the_tls_stream(https_url: str) -> None:
    async with http_client({}, httpx2.Timeout(30), None) as client:
        response = await client.get(https_url)
    assert response.content == BODY
    stream = response.extensions["network_stream"]
    assert isinstance(stream, LargeReadStream)
    assert stream.get_extra_info("ssl_object") is not None  # the TLS stream start_tls gave, wrapped
