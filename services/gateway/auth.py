"""Bearer tokens → user ids, checked at the gateway.

``GATEWAY_TOKENS`` is ``token1=user1,token2=user2``. A presented token is
compared with every configured one in constant time, so neither the match
nor its position leaks through timing.
"""

from __future__ import annotations

import hmac
import logging
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from services.common.errors import InvalidInput
from services.gateway.metrics import AUTH_FAILURES

logger = logging.getLogger(__name__)


def parse_tokens(spec: str) -> dict[str, str]:
    """``"t1=u1,t2=u2"`` → ``{"t1": "u1", "t2": "u2"}``; InvalidInput on a malformed entry."""
    tokens: dict[str, str] = {}
    for position, entry in enumerate(spec.split(","), start=1):
        entry = entry.strip()
        if not entry:
            continue
        token, sep, user = (part.strip() for part in entry.partition("="))
        if not sep or not token or not user:
            raise InvalidInput(f"GATEWAY_TOKENS entry {position} is not 'token=user'")
        if token in tokens:
            raise InvalidInput(f"GATEWAY_TOKENS entry {position} repeats a token")
        tokens[token] = user
    return tokens


class TokenTable:
    def __init__(self, tokens: dict[str, str]):
        self._entries = [(t.encode(), u) for t, u in tokens.items()]

    def __len__(self) -> int:
        return len(self._entries)

    def user_for(self, presented: str) -> str | None:
        """The user of ``presented``, or None. Every entry is compared: no early exit."""
        candidate = presented.encode()
        found: str | None = None
        for token, user in self._entries:
            if hmac.compare_digest(token, candidate):
                found = user
        return found


_bearer = HTTPBearer(auto_error=False, description="A token from GATEWAY_TOKENS.")


def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """FastAPI dependency: the authenticated user id, or 401."""
    table: TokenTable = request.app.state.tokens
    user = table.user_for(credentials.credentials) if credentials else None
    if user is None:
        AUTH_FAILURES.inc()
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail="missing or unknown bearer token",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return user


CurrentUser = Annotated[str, Depends(current_user)]
