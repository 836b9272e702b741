"""A session's AnswerEvents as Server-Sent Events.

``Client.follow`` is a blocking Kafka read, so it runs in a thread of its own
and hands events to the event loop through an asyncio queue; when the HTTP
client goes away the thread is told to stop and closes its consumer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any

from sse_starlette import ServerSentEvent

from services.common.events import AnswerEvent
from services.gateway.metrics import OPEN_STREAMS
from services.sdk import Client

logger = logging.getLogger(__name__)

_DONE = object()


def to_sse(event: AnswerEvent) -> ServerSentEvent:
    """``event:`` progress | delta | final, ``id:`` the event's seq, ``data:`` the event as JSON."""
    return ServerSentEvent(
        data=json.dumps(dataclasses.asdict(event), ensure_ascii=False),
        event=event.kind.lower(),
        id=str(event.seq),
    )


def error_sse(detail: str) -> ServerSentEvent:
    return ServerSentEvent(data=json.dumps({"detail": detail}), event="error")


async def answer_stream(
    client: Client, session_id: str, timeout_s: float, since_ms: int | None = None
) -> AsyncIterator[ServerSentEvent]:
    """The session's events; ``since_ms`` (when the session started) bounds what is read to
    one partition of ``answers`` from then on (``Client.follow``)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    stop = threading.Event()

    def hand_over(item: Any) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the loop is gone: nobody is listening any more
            stop.set()

    def pump() -> None:
        try:
            for event in client.follow(session_id, timeout_s, stop=stop, since_ms=since_ms):
                hand_over(event)
            hand_over(_DONE)
        except Exception as exc:  # noqa: BLE001 - handed to the stream as an error event
            hand_over(exc)

    thread = threading.Thread(target=pump, name=f"follow-{session_id[:8]}", daemon=True)
    OPEN_STREAMS.inc()
    thread.start()
    try:
        while True:
            item = await queue.get()
            if item is _DONE:
                return
            if isinstance(item, TimeoutError):
                yield error_sse(f"no final answer within {timeout_s:g}s")
                return
            if isinstance(item, Exception):
                logger.warning("following session %s failed: %s", session_id, item)
                yield error_sse("reading the answers failed; try again")
                return
            yield to_sse(item)
    finally:
        stop.set()
        OPEN_STREAMS.dec()
