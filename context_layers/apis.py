"""The five-layer context API of seed 000 §11.1 (paths under /api/context/)."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller, subject_for_write
from characters.selectors import character_get_active
from core.errors import ApplicationError
from core.serializers import DateTimeField
from memories.audit_reads import audit_operator_read

from .documents import LAYER_DOCUMENTS
from .selectors import context_overview
from .services import (
    ACCOUNT_DELETE_COUNTS,
    IDENTITY_INFERRED,
    IDENTITY_USER_SET,
    SCOPE_DELETE_COUNTS,
    account_withdraw,
    context_delete_all,
    context_delete_for_character,
    context_export,
    layer_put,
)

ERROR = inline_serializer("Error", {"error": inline_serializer("ErrorBody", {
    "code": serializers.CharField(), "message": serializers.CharField(), "fields": serializers.DictField()})})
ERRORS = {code: ERROR for code in (400, 401, 403, 404, 409, 413)}

ContextResponse = inline_serializer("Context", {
    "characterId": serializers.CharField(),
    "plan": serializers.CharField(),
    "heartbeat": serializers.DictField(),
    "identity": serializers.DictField(),
    "identitySources": serializers.DictField(child=serializers.CharField()),
    "soul": serializers.DictField(allow_null=True),
    "tools": serializers.DictField(),
    "memoryCount": serializers.IntegerField(),
    "relationship": serializers.DictField(allow_null=True),
})


CONFIRM_PARAM = OpenApiParameter("confirm", bool, required=True, enum=[True],
                                 description="Must be true: deleted data cannot be recovered.")


def _require_confirmation(request) -> None:
    if request.query_params.get("confirm") != "true":
        raise ApplicationError("Deleted data cannot be recovered; repeat the request with ?confirm=true.",
                               code="CONFIRMATION_REQUIRED", fields={"confirm": ["must be true"]})


class ContextApi(APIView):
    @extend_schema(operation_id="context_get", parameters=[USER_PARAM], responses={200: ContextResponse, **ERRORS},
                   summary="All five layers of one character scope")
    def get(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        overview = context_overview(user=caller.subject, character=character)
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="context_scope")
        return Response(overview)

    @extend_schema(
        operation_id="context_delete",
        parameters=[USER_PARAM, CONFIRM_PARAM],
        responses={200: inline_serializer("ContextDeleted", {"characterId": serializers.CharField(),
                                                             "deleted": serializers.DictField()}), **ERRORS},
        summary="Delete every layer and memory of one character scope",
    )
    def delete(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        character = character_get_active(slug=characterId)
        _require_confirmation(request)
        if caller.subject is None:  # a user never seen has nothing to delete
            counts = dict.fromkeys(SCOPE_DELETE_COUNTS, 0)
        else:
            counts = context_delete_for_character(user=caller.subject, character=character, context=caller.audit)
        return Response({"characterId": character.slug, "deleted": counts})


class ContextAllApi(APIView):
    @extend_schema(
        operation_id="context_delete_all", parameters=[USER_PARAM, CONFIRM_PARAM],
        responses={200: inline_serializer("ContextsDeleted", {
            "deleted": inline_serializer("ContextsDeletedCounts", {
                name: serializers.IntegerField() for name in (*SCOPE_DELETE_COUNTS, "characters")})}), **ERRORS},
        summary="Delete what every character holds of the user: memories, messages, summaries, layers, "
                "relationships (the account, its settings and tokens stay)",
    )
    def delete(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        _require_confirmation(request)
        if caller.subject is None:  # a user never seen has nothing to delete
            counts = dict.fromkeys((*SCOPE_DELETE_COUNTS, "characters"), 0)
        else:
            counts = context_delete_all(user=caller.subject, context=caller.audit)
        return Response({"deleted": counts})


class AccountApi(APIView):
    @extend_schema(
        operation_id="account_withdraw", parameters=[USER_PARAM, CONFIRM_PARAM],
        responses={200: inline_serializer("AccountDeleted", {
            "user": serializers.CharField(),
            "deleted": inline_serializer("AccountDeletedCounts", {
                name: serializers.IntegerField() for name in ACCOUNT_DELETE_COUNTS})}), **ERRORS},
        summary="Account withdrawal: delete everything the user has here, settings and tokens included",
    )
    def delete(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        _require_confirmation(request)
        if caller.subject is None:  # a user never seen has nothing to delete
            counts = dict.fromkeys(ACCOUNT_DELETE_COUNTS, 0)
        else:
            counts = account_withdraw(user=caller.subject, context=caller.audit)
        return Response({"user": caller.subject_ref, "deleted": counts})


def _layer_view(layer: str, roles: set[Role], summary: str):
    document = LAYER_DOCUMENTS[layer]

    class LayerApi(APIView):
        @extend_schema(operation_id=f"context_{layer}_put", parameters=[USER_PARAM], request=document,
                       responses={200: document, **ERRORS}, summary=summary)
        def put(self, request, characterId: str):
            caller = resolve_caller(request, allowed=roles)
            character = character_get_active(slug=characterId)
            slot = IDENTITY_INFERRED if caller.role is Role.SYSTEM else IDENTITY_USER_SET
            with subject_for_write(caller) as user:
                stored = layer_put(user=user, character=character, layer=layer, document=request.data,
                                   identity_slot=slot, context=caller.audit)
            return Response(stored, status=status.HTTP_200_OK)

    LayerApi.__name__ = f"{layer.capitalize()}LayerApi"
    return LayerApi


HeartbeatApi = _layer_view("heartbeat", {Role.SYSTEM}, "Replace the heartbeat layer (system)")
IdentityApi = _layer_view("identity", {Role.SELF, Role.SYSTEM},
                          "Replace identity: user-set values (end user) or inferred values (system)")
SoulApi = _layer_view("soul", {Role.SYSTEM}, "Replace the soul layer (system; PREMIUM and up)")
ToolsApi = _layer_view("tools", {Role.SELF, Role.SYSTEM, Role.ADMIN}, "Replace the tools layer")


class ExportApi(APIView):
    @extend_schema(operation_id="context_export", parameters=[USER_PARAM], request=None,
                   responses={200: inline_serializer("ContextExport", {
                       "characterId": serializers.CharField(), "exportedAt": DateTimeField(),
                       "documents": serializers.DictField(child=serializers.CharField()),
                       "markdown": serializers.CharField()}), **ERRORS},
                   summary="Export the five layers as Markdown")
    def post(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        return Response(context_export(user=caller.subject, character=character, context=caller.audit))


__all__ = ["AccountApi", "ContextAllApi", "ContextApi", "ExportApi", "HeartbeatApi", "IdentityApi", "SoulApi", "ToolsApi"]
