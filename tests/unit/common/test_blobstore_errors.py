"""Which object-storage failures are worth waiting out (StorageUnavailable) and which are not."""

import pytest
import requests
from google.api_core import exceptions as gexc

from services.common.blobstore import _failure
from services.common.errors import BlobStoreError, StorageUnavailable


@pytest.mark.parametrize(
    "exc",
    [
        requests.exceptions.ConnectionError("connection refused"),
        gexc.RetryError("deadline exceeded", cause=None),
        gexc.ServiceUnavailable("503"),
        gexc.InternalServerError("500"),
        gexc.TooManyRequests("429"),
        gexc.from_http_status(408, "slow"),
    ],
)
def test_no_answer_is_worth_waiting_for(exc):
    assert isinstance(_failure("cannot download x", exc), StorageUnavailable)


@pytest.mark.parametrize(
    "exc", [gexc.NotFound("gone"), gexc.Forbidden("no"), gexc.BadRequest("bad")]
)
def test_a_refused_request_is_not(exc):
    failure = _failure("cannot download x", exc)
    assert isinstance(failure, BlobStoreError) and not isinstance(failure, StorageUnavailable)
