"""BlobStore against the GCS emulator: round trip, content addressing, missing blobs."""

import secrets

import pytest

from services.common.blobstore import BlobStore, parse_uri
from services.common.errors import BlobStoreError
from services.common.ids import sha256_hex

pytestmark = pytest.mark.integration


def test_round_trip_of_japanese_named_file(storage_settings, subject_id):
    store = BlobStore(storage_settings)
    data = "# 第1回 記述統計\n\n平均とは…".encode() + secrets.token_bytes(8)
    uri = store.put(data, subject_id, "uploads/第1回.md", "text/markdown")
    assert uri == f"gs://{storage_settings.gcs_bucket}/{subject_id}/{sha256_hex(data)}/第1回.md"
    assert store.get(uri) == data
    # a second client (another service) reads the same bytes
    assert BlobStore(storage_settings).get(uri) == data


def test_same_bytes_same_uri_and_new_bytes_do_not_overwrite(storage_settings, subject_id):
    store = BlobStore(storage_settings)
    first = store.put(b"version 1", subject_id, "notes.txt")
    assert store.put(b"version 1", subject_id, "notes.txt") == first
    second = store.put(b"version 2", subject_id, "notes.txt")
    assert second != first
    assert (store.get(first), store.get(second)) == (b"version 1", b"version 2")


def test_missing_blob_is_a_blob_store_error(storage_settings, subject_id):
    store = BlobStore(storage_settings)
    uri = f"gs://{storage_settings.gcs_bucket}/{subject_id}/{'0' * 64}/gone.pdf"
    with pytest.raises(BlobStoreError, match=f"blob not found: {uri}"):
        store.get(uri)
    bucket, _ = parse_uri(uri)
    with pytest.raises(BlobStoreError, match="blob not found"):
        store.get(f"gs://{bucket}-no-such-bucket/x")


def test_malformed_uri_is_refused(storage_settings):
    with pytest.raises(BlobStoreError, match="not a gs:// URI"):
        BlobStore(storage_settings).get("/tmp/file.pdf")
