"""GCS emulator (PyPI ``gcp-storage-emulator``) on 127.0.0.1, objects stored on disk.

google-cloud-storage 3.x reaches it when ``STORAGE_EMULATOR_HOST`` names its URL.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

import httpx

from deploy.local import process
from deploy.local.component import Component
from deploy.local.process import LocalDeployError
from deploy.local.settings import LocalDeploySettings

logger = logging.getLogger(__name__)

NAME = "gcs"
START_TIMEOUT_S = 30.0
PROJECT = "eduanima-local"


@dataclass(frozen=True)
class GcsPaths:
    root: Path

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "gcs.log"

    @property
    def pid_file(self) -> Path:
        return self.root / "gcs.pid"


def paths(settings: LocalDeploySettings) -> GcsPaths:
    return GcsPaths(settings.eduanima_home.resolve() / NAME)


def emulator_version() -> str:
    try:
        return metadata.version("gcp-storage-emulator")
    except metadata.PackageNotFoundError as exc:
        raise LocalDeployError(
            "the PyPI package gcp-storage-emulator is missing; install eduanima[local]"
        ) from exc


def running_pid(settings: LocalDeploySettings) -> int | None:
    p = paths(settings)
    return process.read_pid(p.pid_file, marker=str(p.data))


def healthy(host: str) -> bool:
    try:
        return httpx.get(f"{host}/", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def list_buckets(host: str) -> list[str]:
    try:
        response = httpx.get(f"{host}/storage/v1/b", params={"project": PROJECT}, timeout=5.0)
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise LocalDeployError(f"GCS emulator at {host} did not list buckets: {exc}") from exc
    return [item["name"] for item in response.json().get("items", [])]


def ensure_bucket(host: str, bucket: str) -> None:
    """Create ``bucket`` unless it exists (idempotent)."""
    if bucket in list_buckets(host):
        return
    try:
        response = httpx.post(
            f"{host}/storage/v1/b", params={"project": PROJECT}, json={"name": bucket}, timeout=5.0
        )
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise LocalDeployError(f"cannot create bucket {bucket} at {host}: {exc}") from exc


def delete_bucket(host: str, bucket: str) -> None:
    """Delete every object of ``bucket``, then the bucket (test runs clean up after themselves)."""
    base = f"{host}/storage/v1/b/{quote(bucket, safe='')}"
    try:
        while True:
            listing = httpx.get(f"{base}/o", timeout=10.0)
            if listing.status_code == 404:
                return
            listing.raise_for_status()
            names = [item["name"] for item in listing.json().get("items", [])]
            if not names:
                break
            for name in names:
                httpx.delete(f"{base}/o/{quote(name, safe='')}", timeout=10.0).raise_for_status()
        httpx.delete(base, timeout=10.0).raise_for_status()
    except httpx.HTTPError as exc:
        raise LocalDeployError(f"cannot delete bucket {bucket} at {host}: {exc}") from exc


def _launch(settings: LocalDeploySettings) -> int:
    p = paths(settings)
    emulator_version()
    p.data.mkdir(parents=True, exist_ok=True)
    argv = [
        sys.executable, "-m", "gcp_storage_emulator", "--data-dir", str(p.data),
        "start", "--host", "127.0.0.1", "--port", str(settings.eduanima_gcs_port),
    ]  # fmt: skip
    return process.spawn_detached(
        argv, log_file=p.log, pid_file=p.pid_file, cwd=p.root, env=dict(os.environ)
    )


def _halt(settings: LocalDeploySettings) -> None:
    pid = running_pid(settings)
    if pid is not None:
        process.terminate(pid, what="GCS emulator", timeout_s=10.0)
    paths(settings).pid_file.unlink(missing_ok=True)


def component(settings: LocalDeploySettings) -> Component:
    host = settings.emulator_host
    return Component(
        name="GCS emulator",
        address=host,
        port=settings.eduanima_gcs_port,
        logs=(paths(settings).log,),
        timeout_s=START_TIMEOUT_S,
        ours=lambda: running_pid(settings) is not None,
        answers=lambda: healthy(host),
        launch=lambda _console: _launch(settings),
        halt=lambda: _halt(settings),
        after_start=lambda: ensure_bucket(host, settings.gcs_bucket),
    )
