"""The published OpenAPI schema is valid and describes the whole context API."""
from __future__ import annotations

import json

import pytest
from openapi_spec_validator import validate

CONTEXT_PATHS = {
    "/api/context/{characterId}": {"get", "delete"},
    "/api/context/{characterId}/heartbeat": {"put"},
    "/api/context/{characterId}/identity": {"put"},
    "/api/context/{characterId}/soul": {"put"},
    "/api/context/{characterId}/tools": {"put"},
    "/api/context/{characterId}/memory": {"get", "post"},
    "/api/context/{characterId}/memory/{memoryId}": {"delete", "patch"},
    "/api/context/{characterId}/memory/{memoryId}/history": {"get"},
    "/api/context/{characterId}/export": {"post"},
    "/api/accounts/portal-sessions": {"post"},
    "/api/v1/users/me/memories": {"get", "delete"},
    "/api/v1/users/me/memories/{memoryId}": {"delete"},
    "/api/v1/users/me/memory-settings": {"get", "patch"},
    "/api/v1/legacy/bio": {"get"},
    "/api/v1/memory/summarize": {"post"},
    "/api/v1/memory/create": {"post"},
    "/api/v1/memory/list": {"get"},
    "/api/v1/memory/{memoryId}": {"patch", "delete"},
    "/api/v1/memory/{memoryId}/archive": {"post"},
    "/api/v1/memory/{memoryId}/unarchive": {"post"},
}
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@pytest.fixture
def schema(db, anon_client) -> dict:
    response = anon_client.get("/api/schema/?format=json")
    assert response.status_code == 200, response.content  # public: no token needed to read the contract
    return json.loads(response.content)


def test_schema_is_public_and_valid_openapi(schema):
    validate(schema)
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "gieok context API"


@pytest.mark.parametrize("path,methods", sorted(CONTEXT_PATHS.items()))
def test_schema_describes_every_context_endpoint_with_its_methods(schema, path, methods):
    assert path in schema["paths"], sorted(schema["paths"])
    assert set(schema["paths"][path]) & HTTP_METHODS == methods


def test_schema_declares_and_uses_bearer_auth(schema):
    assert schema["components"]["securitySchemes"]["bearerAuth"]["type"] == "http"
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for path in CONTEXT_PATHS:
        for method in CONTEXT_PATHS[path]:
            security = schema["paths"][path][method].get("security", schema.get("security", []))
            assert {"bearerAuth": []} in security, (path, method)


def test_schema_documents_the_user_parameter_and_confirm(schema):
    get_context = schema["paths"]["/api/context/{characterId}"]["get"]
    delete_context = schema["paths"]["/api/context/{characterId}"]["delete"]
    assert "user" in {p["name"] for p in get_context["parameters"] if p["in"] == "query"}
    confirm = next(p for p in delete_context["parameters"] if p["name"] == "confirm")
    assert confirm["required"] is True


def test_layer_put_request_bodies_are_described(schema):
    for layer, field in [("heartbeat", "lastSeenAt"), ("identity", "nickname"), ("soul", "values"),
                         ("tools", "specialDates")]:
        body = schema["paths"][f"/api/context/{{characterId}}/{layer}"]["put"]["requestBody"]
        ref = body["content"]["application/json"]["schema"]["$ref"]
        component = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
        assert field in component["properties"], (layer, sorted(component["properties"]))


def test_swagger_ui_is_served_as_html(db, anon_client):
    response = anon_client.get("/api/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b"swagger" in response.content.lower()
