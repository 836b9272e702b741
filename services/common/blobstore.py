"""Original files in Google Cloud Storage (locally: the GCS emulator).

Objects are content-addressed under their subject,
``gs://<bucket>/<subject>/<sha256>/<filename>``, so uploading the same file
twice is harmless and a new version of a material never overwrites the blob
an older version still points to.
"""

from __future__ import annotations

import logging
import re
import threading
from pathlib import PurePosixPath

from google.api_core import exceptions as gexc
from google.api_core.retry import Retry
from google.auth.credentials import AnonymousCredentials
from google.cloud import storage

from services.common.errors import BlobStoreError, StorageUnavailable
from services.common.ids import sha256_hex
from services.common.settings import StorageSettings

logger = logging.getLogger(__name__)

_URI = re.compile(r"^gs://(?P<bucket>[^/]+)/(?P<name>.+)$")


def parse_uri(uri: str) -> tuple[str, str]:
    """(bucket, object name) of a ``gs://`` URI."""
    match = _URI.match(uri)
    if match is None:
        raise BlobStoreError(f"not a gs:// URI: {uri!r}")
    return match.group("bucket"), match.group("name")


def object_name(data: bytes, subject_id: str, filename: str) -> str:
    base = PurePosixPath(filename.replace("\\", "/")).name.strip() or "file"
    subject = subject_id.strip().replace("/", "_")
    if not subject:
        raise BlobStoreError("a blob needs a subject id")
    return f"{subject}/{sha256_hex(data)}/{base}"


class BlobStore:
    """put/get of original files. The client is built at first use."""

    def __init__(
        self, settings: StorageSettings, *, timeout_s: float = 60.0, retry_s: float | None = None
    ):
        self.settings = settings
        self.bucket_name = settings.gcs_bucket
        self.timeout_s = timeout_s
        # Bounded retries: storage that is down raises StorageUnavailable after ``retry_s``,
        # and the caller decides whether to wait longer (the ingestor does, with backoff).
        self._retry = Retry(timeout=timeout_s if retry_s is None else retry_s)
        self._client: storage.Client | None = None
        self._lock = threading.Lock()

    def _storage(self) -> storage.Client:
        with self._lock:
            if self._client is None:
                self._client = self._make_client()
            return self._client

    def _make_client(self) -> storage.Client:
        host = self.settings.storage_emulator_host
        try:
            if host:
                # Pointing the client at the emulator directly, not via STORAGE_EMULATOR_HOST,
                # keeps every setting in StorageSettings.
                return storage.Client(
                    project=self.settings.gcs_project,
                    credentials=AnonymousCredentials(),
                    client_options={"api_endpoint": host.rstrip("/")},
                )
            return storage.Client(project=self.settings.gcs_project)
        except Exception as exc:  # google-auth raises several unrelated types
            raise BlobStoreError(f"cannot create a storage client: {exc}") from exc

    def ensure_bucket(self) -> None:
        """Create the bucket if it does not exist (local deployments and tests)."""
        client = self._storage()
        try:
            if client.lookup_bucket(self.bucket_name, timeout=self.timeout_s) is None:
                client.create_bucket(self.bucket_name, timeout=self.timeout_s)
        except gexc.Conflict:
            pass  # created concurrently
        except (gexc.GoogleAPIError, OSError) as exc:
            raise BlobStoreError(f"cannot create bucket {self.bucket_name!r}: {exc}") from exc

    def put(self, data: bytes, subject_id: str, filename: str, content_type: str = "") -> str:
        """Store the bytes; returns their ``gs://`` URI."""
        name = object_name(data, subject_id, filename)
        uri = f"gs://{self.bucket_name}/{name}"
        blob = self._storage().bucket(self.bucket_name).blob(name)
        try:
            blob.upload_from_string(
                data,
                content_type=content_type or "application/octet-stream",
                timeout=self.timeout_s,
                retry=self._retry,
            )
        except (gexc.GoogleAPIError, OSError) as exc:
            raise _failure(f"cannot upload {uri}", exc) from exc
        logger.info("stored blob", extra={"uri": uri, "bytes": len(data)})
        return uri

    def delete(self, uri: str) -> bool:
        """Delete the object; False if it was already gone."""
        bucket, name = parse_uri(uri)
        blob = self._storage().bucket(bucket).blob(name)
        try:
            blob.delete(timeout=self.timeout_s, retry=self._retry)
        except gexc.NotFound:
            return False
        except (gexc.GoogleAPIError, OSError) as exc:
            raise BlobStoreError(f"cannot delete {uri}: {exc}") from exc
        logger.info("deleted blob", extra={"uri": uri})
        return True

    def exists(self, uri: str) -> bool:
        bucket, name = parse_uri(uri)
        try:
            return self._storage().bucket(bucket).blob(name).exists(timeout=self.timeout_s)
        except (gexc.GoogleAPIError, OSError) as exc:
            raise BlobStoreError(f"cannot look up {uri}: {exc}") from exc

    def get(self, uri: str) -> bytes:
        """The bytes at ``uri``; BlobStoreError if it is missing or unreadable."""
        bucket, name = parse_uri(uri)
        blob = self._storage().bucket(bucket).blob(name)
        try:
            return blob.download_as_bytes(timeout=self.timeout_s, retry=self._retry)
        except gexc.NotFound as exc:
            raise BlobStoreError(f"blob not found: {uri}") from exc
        except (gexc.GoogleAPIError, OSError) as exc:
            raise _failure(f"cannot download {uri}", exc) from exc


def _failure(what: str, exc: Exception) -> BlobStoreError:
    """StorageUnavailable when storage did not answer (worth retrying), else BlobStoreError."""
    busy = getattr(exc, "code", None) in (408, 429)  # request timeout, too many requests
    if isinstance(exc, gexc.ClientError) and not busy:  # any other 4xx: the request is refused
        return BlobStoreError(f"{what}: {exc}")
    return StorageUnavailable(f"{what}: storage did not answer: {exc}")
