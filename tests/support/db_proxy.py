"""A TCP proxy in front of the test PostgreSQL, so a test can cut the database off for real and bring it back.

`cut()` closes the listening socket and every open connection through it (the server's side sees the
client go away; the client sees "server closed the connection" and then "connection refused");
`restore()` listens on the same port again.
"""
from __future__ import annotations

import socket
import threading


class DatabaseProxy:
    def __init__(self, *, host: str, port: int | str | None):
        # A socket directory (the embedded server) or a TCP address.
        if host.startswith("/"):
            self._target = (socket.AF_UNIX, f"{host.rstrip('/')}/.s.PGSQL.{port or 5432}")
        else:
            self._target = (socket.AF_INET, (host or "127.0.0.1", int(port or 5432)))
        self.port = 0
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> int:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self.port

    def cut(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._open = self._open, set()
        if listener is not None:
            _close(listener)  # shutdown wakes the thread blocked in accept()
        for sock in sockets:
            _close(sock)

    def restore(self) -> None:
        self.start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.socket(self._target[0], socket.SOCK_STREAM)
            try:
                server.connect(self._target[1])
            except OSError:
                _close(client)
                continue
            with self._lock:
                if self._listener is not listener:
                    _close(client)
                    _close(server)
                    return
                self._open.update((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
