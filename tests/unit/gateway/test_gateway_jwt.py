"""Bearer JWTs (acceptance 5): a provider-signed token is a user; expired, wrong issuer,
wrong audience, a bad signature and the usual algorithm tricks are 401.

Keys are generated here; the JWKS reaches the gateway as a file and, once, as a URL
served by a local HTTP server. ``GET /v1/me`` needs no backend, so no infrastructure runs.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from fastapi.testclient import TestClient
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from services.common.errors import InvalidInput
from services.gateway.app import create_app
from services.gateway.settings import GatewaySettings

ISSUER, AUDIENCE = "https://id.example.test/", "eduanima-api"
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
OTHER_RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def jwks() -> dict:
    rsa_jwk = json.loads(RSAAlgorithm.to_jwk(RSA_KEY.public_key()))
    ec_jwk = json.loads(ECAlgorithm.to_jwk(EC_KEY.public_key()))
    return {
        "keys": [
            {**rsa_jwk, "kid": "rsa-1", "alg": "RS256", "use": "sig"},
            {**ec_jwk, "kid": "ec-1", "alg": "ES256", "use": "sig"},
        ]
    }


def token(key=RSA_KEY, kid="rsa-1", algorithm="RS256", **overrides) -> str:
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "iat": now, "exp": now + 300}
    claims.update(overrides)
    claims = {k: v for k, v in claims.items() if v is not None}
    return jwt.encode(claims, key, algorithm=algorithm, headers={"kid": kid})


@pytest.fixture(scope="module")
def jwks_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("jwks") / "jwks.json"
    path.write_text(json.dumps(jwks()), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def client(jwks_file) -> TestClient:
    settings = GatewaySettings(
        gateway_tokens="tok-local=bob",
        gateway_jwks=jwks_file,
        gateway_jwt_issuer=ISSUER,
        gateway_jwt_audience=AUDIENCE,
        gateway_jwt_leeway_s=0,
    )
    return TestClient(create_app(settings))


def me(client: TestClient, bearer: str):
    return client.get("/v1/me", headers={"Authorization": f"Bearer {bearer}"})


def test_a_valid_rs256_or_es256_token_is_its_sub(client):
    for good in (token(), token(EC_KEY, "ec-1", "ES256", sub="carol")):
        response = me(client, good)
        assert response.status_code == 200, response.text
    assert me(client, token()).json() == {"user_id": "alice"}
    assert me(client, token(EC_KEY, "ec-1", "ES256", sub="carol")).json() == {"user_id": "carol"}


def test_static_tokens_still_work_beside_jwts(client):
    assert me(client, "tok-local").json() == {"user_id": "bob"}


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda: token(exp=int(time.time()) - 10), id="expired"),
        pytest.param(lambda: token(iss="https://evil.example.test/"), id="wrong-issuer"),
        pytest.param(lambda: token(aud="another-api"), id="wrong-audience"),
        pytest.param(lambda: token(OTHER_RSA_KEY), id="bad-signature"),
        pytest.param(lambda: token()[:-4] + "AAAA", id="tampered-signature"),
        pytest.param(lambda: token(exp=None), id="no-expiry"),
        pytest.param(lambda: token(sub=None), id="no-subject"),
        pytest.param(lambda: token(kid="unknown"), id="unknown-key"),
        pytest.param(lambda: token(nbf=int(time.time()) + 600), id="not-yet-valid"),
        pytest.param(
            lambda: jwt.encode(
                {"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "exp": int(time.time()) + 60},
                None,
                algorithm="none",
            ),
            id="alg-none",
        ),
        pytest.param(
            lambda: token(key=b"k" * 32, algorithm="HS256"), id="hmac-instead-of-signature"
        ),
    ],
)
def test_refused_tokens_answer_401(client, bad):
    response = me(client, bad())
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


class _JwksHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
        body = json.dumps(jwks()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def jwks_url() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _JwksHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json"
    finally:
        server.shutdown()


def test_keys_from_a_jwks_url(jwks_url):
    settings = GatewaySettings(
        gateway_jwks=jwks_url, gateway_jwt_issuer=ISSUER, gateway_jwt_audience=AUDIENCE
    )
    client = TestClient(create_app(settings))
    assert me(client, token()).json() == {"user_id": "alice"}
    assert me(client, token(OTHER_RSA_KEY)).status_code == 401


@pytest.mark.parametrize(
    "overrides",
    [{"gateway_jwt_issuer": ""}, {"gateway_jwt_audience": ""}, {"gateway_jwt_algorithms": "HS256"}],
)
def test_incomplete_or_unsafe_jwt_settings_refuse_to_start(jwks_file, overrides):
    settings = {
        "gateway_jwks": jwks_file,
        "gateway_jwt_issuer": ISSUER,
        "gateway_jwt_audience": AUDIENCE,
        **overrides,
    }
    with pytest.raises(InvalidInput):
        create_app(GatewaySettings(**settings))
