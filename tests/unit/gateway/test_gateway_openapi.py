"""docs/openapi.yaml is exactly the served app's schema, and the schema says what clients need."""

from __future__ import annotations

import yaml

from services.gateway.openapi import SPEC_PATH, schema


def test_committed_spec_matches_the_app():
    committed = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
    assert committed == schema(), "docs/openapi.yaml is stale: python -m services.gateway.openapi"


def test_spec_is_openapi_3_1_with_bearer_auth_on_the_v1_routes():
    spec = schema()
    assert spec["openapi"].startswith("3.1")
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    v1 = {
        (path, method): op
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if path.startswith("/v1/")
    }
    assert len(v1) >= 18
    for (path, method), op in v1.items():
        assert op["security"] == [{"HTTPBearer": []}], (path, method)
        assert "401" in op["responses"], (path, method)
    # the routes only teachers (or a note's owner) may call say so, and say they answer 403
    marked = {key for key, op in v1.items() if "x-eduanima-role" in op}
    assert marked == {
        ("/v1/subjects/{subject_id}/enrollments", "post"),
        ("/v1/materials/{material_id}/deactivate", "post"),
        ("/v1/materials/{material_id}/reactivate", "post"),
        ("/v1/materials/{material_id}/reread", "post"),
        ("/v1/materials/{material_id}", "delete"),
        ("/v1/subjects/{subject_id}/unanswered", "get"),
        ("/v1/unanswered/{session_id}/resolve", "post"),
        ("/v1/subjects/{subject_id}/search-test", "post"),
        ("/v1/subjects/{subject_id}/insights", "get"),
    }
    assert all("403" in v1[key]["responses"] for key in marked)
    events = spec["paths"]["/v1/sessions/{session_id}/events"]["get"]["responses"]["200"]
    assert list(events["content"]) == ["text/event-stream"]
    upload = spec["paths"]["/v1/subjects/{subject_id}/materials"]["post"]
    assert "multipart/form-data" in upload["requestBody"]["content"]
    assert {"202", "403", "404", "413"} <= set(upload["responses"])
