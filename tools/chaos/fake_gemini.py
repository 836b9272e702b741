"""A local HTTP server in place of the Gemini REST API, failing the ways Gemini can.

Point ``GEMINI_BASE_URL`` at it (with any ``GEMINI_API_KEY``). Each request gets the next
failure of the cycle: an HTTP 5xx, a 200 whose body is not what was asked for, or no
answer before the client's timeout. It counts what it served, so a test can show the
engine really met each failure.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAILURES = ("unavailable", "malformed", "slow")
UNAVAILABLE = b'{"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}'
# a well-formed response whose text is not the JSON the adapter asked for
NOT_JSON = b'{"candidates": [{"content": {"parts": [{"text": "Sure! {not json"}]}}]}'


class FakeGemini:
    def __init__(self, failures: tuple[str, ...] = FAILURES, slow_s: float = 3.0):
        self._cycle = itertools.cycle(failures)
        self.slow_s = slow_s
        self.served: Counter[str] = Counter()
        self.paths: Counter[str] = Counter()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args) -> None:  # quiet
                return

            def do_POST(self) -> None:  # noqa: N802 - the http.server hook
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                failure = fake._next(self.path)
                if failure == "slow":
                    time.sleep(fake.slow_s)
                    failure = "unavailable"
                if failure == "unavailable":
                    self._send(503, "application/json", UNAVAILABLE)
                elif "stream" in self.path:
                    self._send(200, "text/event-stream", b"data: {not json at all\n\n")
                else:
                    text = (
                        b'{"candidates": [{"content": {"parts": [{"text": "Sure! {not json"}]}}]}'
                    )
                    self._send(200, "application/json", text)

            def _send(self, status: int, kind: str, body: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", kind)
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:  # the client gave up (its timeout): that was the point
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _next(self, path: str) -> str:
        with self._lock:
            failure = next(self._cycle)
            self.served[failure] += 1
            self.paths[path.split(":")[-1].split("?")[0]] += 1
            return failure

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> FakeGemini:
        self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.server.server_close()
