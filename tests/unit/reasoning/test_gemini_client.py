"""make_client: refuses without a key, honours base URL and transport."""

import pytest
from gemini_fakes import CannedGemini, gemini_settings

from services.common.errors import EngineError
from services.reasoning.gemini.client import make_client


def test_without_key_it_says_what_to_set():
    with pytest.raises(EngineError, match=r"needs Gemini \(set GEMINI_API_KEY\)"):
        make_client(gemini_settings(gemini_api_key=None))
    with pytest.raises(EngineError, match="needs Gemini"):
        make_client(gemini_settings(gemini_api_key=""))


def test_client_goes_through_the_given_transport_and_base_url():
    server = CannedGemini(lambda body, path: (200, {"embeddings": [{"values": [1.0]}]}))
    client = make_client(gemini_settings(), transport=server.transport())
    client.models.embed_content(model="any-model", contents=["x"])
    assert server.requests[0][0].endswith("/models/any-model:batchEmbedContents")
    assert server.requests[0][2]["host"] == "gemini.test"
