"""docker-compose.yml configures each service only with fields of its settings class.

Docker is not needed: the file is parsed with PyYAML (anchors and merge keys resolved,
as Compose resolves them) and every env name is held against pydantic-settings, which
matches env vars to field names case-insensitively.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic_settings import BaseSettings

from services.common.settings import KafkaSettings
from services.gateway.settings import GatewaySettings
from services.ingestor.settings import IngestionSettings
from services.insights.settings import InsightsSettings
from services.librarian.settings import LibrarianSettings
from services.professor.settings import ProfessorSettings
from services.searcher.settings import SearcherSettings

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
DOCKERFILE = "deploy/docker/Dockerfile"

SETTINGS: dict[str, type[BaseSettings]] = {
    "ingestor": IngestionSettings,
    "searcher": SearcherSettings,
    "librarian": LibrarianSettings,
    "professor": ProfessorSettings,
    "gateway": GatewaySettings,
    "insights": InsightsSettings,
    "topics": KafkaSettings,  # `eduanima topics apply` reads KafkaSettings only
}
INFRASTRUCTURE = {"kafka", "postgres", "gcs"}
CREDENTIALS = ("DATABASE_URL", "DB_", "STORAGE_", "GCS_")


@pytest.fixture(scope="module")
def services() -> dict[str, dict]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"]


def env_names(service: dict) -> set[str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # the KEY=value list form
        return {item.split("=", 1)[0] for item in env}
    return set(env)


def test_every_service_is_either_infrastructure_or_ours(services):
    assert set(services) == INFRASTRUCTURE | set(SETTINGS)


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_env_names_are_fields_of_the_services_settings(services, name):
    fields = {field.upper() for field in SETTINGS[name].model_fields}
    names = env_names(services[name])
    assert names, f"{name} sets no environment"
    assert names <= fields, f"{name}: not settings fields: {sorted(names - fields)}"
    assert "KAFKA_BOOTSTRAP_SERVERS" in names


@pytest.mark.parametrize(
    "name", ["ingestor", "searcher", "librarian", "professor", "gateway", "insights"]
)
def test_services_run_from_the_one_image_by_module(services, name):
    service = services[name]
    assert service["command"] == ["python", "-m", f"services.{name}"]
    assert service["build"]["dockerfile"] == DOCKERFILE
    assert service["image"] == services["topics"]["image"]


@pytest.mark.parametrize("name", ["librarian", "insights"])
def test_librarian_and_insights_get_no_database_or_storage_and_cannot_hold_them(services, name):
    names = env_names(services[name])
    assert not [n for n in names if n.startswith(CREDENTIALS)]
    fields = {f.upper() for f in SETTINGS[name].model_fields}
    assert not [f for f in fields if f.startswith(CREDENTIALS)]
    assert set(services[name]["depends_on"]) == {"topics"}


def test_credentialed_services_reach_the_compose_database_and_emulator(services):
    for name in ("ingestor", "searcher", "professor", "gateway"):
        assert "@postgres:5432/" in services[name]["environment"]["DATABASE_URL"]
    for name in ("ingestor", "gateway"):
        assert services[name]["environment"]["STORAGE_EMULATOR_HOST"] == "http://gcs:9023"
    assert services["gateway"]["environment"]["GATEWAY_HOST"] == "0.0.0.0"


def test_infrastructure_images_and_health(services):
    assert services["kafka"]["image"] == "apache/kafka:4.0.1"
    assert services["kafka"]["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"
    # pgvector >= 0.8 on PostgreSQL 18, as deploy/local runs it
    assert services["postgres"]["image"] == "pgvector/pgvector:0.8.2-pg18"
    assert "postgres18-data:/var/lib/postgresql" in services["postgres"]["volumes"]
    for name in INFRASTRUCTURE:
        assert "healthcheck" in services[name], name
    for name in ("ingestor", "gateway"):
        deps = services[name]["depends_on"]
        assert deps["postgres"]["condition"] == "service_healthy"
        assert deps["topics"]["condition"] == "service_completed_successfully"


def test_no_default_credentials_and_no_unauthenticated_port_on_all_interfaces(services):
    # the gateway's tokens and the database password come from the environment, never a default
    assert services["gateway"]["environment"]["GATEWAY_TOKENS"] == "${GATEWAY_TOKENS:-}"
    password = services["postgres"]["environment"]["POSTGRES_PASSWORD"]
    assert password.startswith("${POSTGRES_PASSWORD:?")
    for name in ("ingestor", "searcher", "professor", "gateway"):
        url = services[name]["environment"]["DATABASE_URL"]
        assert "${POSTGRES_PASSWORD:?" in url and "eduanima:eduanima@" not in url
    # Kafka, PostgreSQL and the emulator have no authentication: loopback only
    for name in INFRASTRUCTURE:
        for port in services[name]["ports"]:
            assert port.startswith("127.0.0.1:"), (name, port)
    assert services["gateway"]["ports"] == ["8765:8765"]  # the API itself authenticates
    assert "ports" not in services["insights"]  # no authentication: through the gateway only


def test_dockerfile_installs_with_the_constraints():
    text = (COMPOSE.parent / DOCKERFILE).read_text(encoding="utf-8")
    assert "FROM python:3.11-slim AS app" in text
    assert "pip install -c constraints.txt -e ." in text
