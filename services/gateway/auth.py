"""Bearer tokens → user ids, checked at the gateway.

Two kinds, either or both configured:

- static tokens for local use: ``GATEWAY_TOKENS`` is ``token1=user1,token2=user2``. A
  presented token is compared with every configured one in constant time, so neither the
  match nor its position leaks through timing;
- JWTs signed by an OIDC provider (PyJWT): the signature against the provider's keys
  (``GATEWAY_JWKS``, a JWKS URL or file), ``iss``, ``aud``, ``exp`` (and ``nbf``/``iat``
  when present) are checked; ``sub`` is the user. Only asymmetric algorithms are accepted,
  so a public key can never be used as an HMAC secret.
"""

from __future__ import annotations

import hmac
import logging
from pathlib import Path
from typing import Annotated

import jwt
from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from services.common.errors import InvalidInput
from services.gateway.metrics import AUTH_FAILURES
from services.gateway.settings import GatewaySettings

ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")

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


class JwtVerifier:
    """Verifies provider-signed JWTs; ``user_for`` gives ``sub`` or None, never raises."""

    def __init__(
        self,
        jwks: str,
        *,
        issuer: str,
        audience: str,
        algorithms: list[str],
        leeway_s: int = 30,
    ):
        if not issuer or not audience:
            raise InvalidInput("GATEWAY_JWKS needs GATEWAY_JWT_ISSUER and GATEWAY_JWT_AUDIENCE")
        unsafe = [a for a in algorithms if a not in ASYMMETRIC]
        if unsafe or not algorithms:
            raise InvalidInput(
                f"GATEWAY_JWT_ALGORITHMS must be asymmetric ({', '.join(ASYMMETRIC)}): {unsafe}"
            )
        self.issuer, self.audience = issuer, audience
        self.algorithms, self.leeway_s = algorithms, leeway_s
        self._client: jwt.PyJWKClient | None = None
        self._keys: jwt.PyJWKSet | None = None
        if jwks.startswith(("https://", "http://")):
            self._client = jwt.PyJWKClient(jwks, cache_keys=True, lifespan=300, timeout=10)
        else:
            try:
                self._keys = jwt.PyJWKSet.from_json(Path(jwks).read_text(encoding="utf-8"))
            except (OSError, jwt.PyJWTError, ValueError) as exc:
                raise InvalidInput(f"cannot read the JWKS file {jwks}: {exc}") from exc

    def _key(self, token: str) -> jwt.PyJWK:
        if self._client is not None:
            return self._client.get_signing_key_from_jwt(token)
        assert self._keys is not None
        kid = jwt.get_unverified_header(token).get("kid")
        if kid is None and len(self._keys.keys) == 1:
            return self._keys.keys[0]
        return self._keys[kid]

    def user_for(self, token: str) -> str | None:
        try:
            claims = jwt.decode(
                token,
                self._key(token),
                algorithms=self.algorithms,
                audience=self.audience,
                issuer=self.issuer,
                leeway=self.leeway_s,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except (jwt.PyJWTError, KeyError) as exc:
            logger.info("JWT refused: %s", exc)
            return None
        subject = claims.get("sub")
        return subject if isinstance(subject, str) and subject else None


class Authenticator:
    """Static tokens and, when configured, JWTs: the user a bearer token stands for."""

    def __init__(self, tokens: TokenTable, verifier: JwtVerifier | None = None):
        self.tokens, self.verifier = tokens, verifier

    @classmethod
    def from_settings(cls, settings: GatewaySettings) -> Authenticator:
        tokens = TokenTable(parse_tokens(settings.gateway_tokens.get_secret_value()))
        verifier = None
        if settings.gateway_jwks:
            verifier = JwtVerifier(
                settings.gateway_jwks,
                issuer=settings.gateway_jwt_issuer,
                audience=settings.gateway_jwt_audience,
                algorithms=[
                    a.strip() for a in settings.gateway_jwt_algorithms.split(",") if a.strip()
                ],
                leeway_s=settings.gateway_jwt_leeway_s,
            )
        return cls(tokens, verifier)

    def __bool__(self) -> bool:
        return bool(len(self.tokens)) or self.verifier is not None

    def user_for(self, presented: str) -> str | None:
        if self.verifier is not None and presented.count(".") == 2:
            user = self.verifier.user_for(presented)
            if user is not None:
                return user
        return self.tokens.user_for(presented)


_bearer = HTTPBearer(
    auto_error=False,
    description="A static token from GATEWAY_TOKENS, or a JWT from the configured OIDC provider.",
)


def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """FastAPI dependency: the authenticated user id, or 401."""
    auth: Authenticator = request.app.state.auth
    user = auth.user_for(credentials.credentials) if credentials else None
    if user is None:
        AUTH_FAILURES.inc()
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail="missing, unknown, expired or invalid bearer token",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return user


CurrentUser = Annotated[str, Depends(current_user)]
