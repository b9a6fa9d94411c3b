"""uvicorn's httptools protocol with Nagle's algorithm off on every connection, as asyncio does for the sockets it
opens.

With several workers uvicorn binds the listening socket itself, without naming TCP as its
protocol, and asyncio then leaves Nagle's algorithm on for the connections it accepts: the body
of each answer, written after its headers, waits for the client's delayed ACK of them, 40 ms
for every request, a kept answer too. Named by ``uvicorn.run(http=...)`` as an import path.
httptools (llhttp, in C) rather than h11: about 0.4 ms less work a request (bench_serve.py).
"""

from __future__ import annotations

import asyncio
import socket

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class NoDelay(HttpToolsProtocol):
    """HttpToolsProtocol setting ``TCP_NODELAY`` on the connection's socket."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
