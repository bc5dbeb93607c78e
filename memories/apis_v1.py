"""Seed 001 §2-§3's memory API under /api/v1/memory/ (its `load` is context_pack.apis.MemoryLoadApi): thin views over
the same services and selectors as /api/context/. `personaId` is our character id. Answers use seed 001's envelope:
`{"success": true, ...}`, and errors `{"success": false, "error": "<CODE>", "message": ..., "fields": ...}`
(config.exception_handler rewrites the usual envelope for this prefix)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller, subject_for_write
from characters.selectors import character_get_active
from core.serializers import ChoiceField, DateTimeField, StrictSerializer
from core.timestamps import format_instant

from .apis import caller_memory
from .audit_reads import audit_operator_read
from .models import MemoryItem
from .selectors import memory_search
from .services import memory_archive, memory_delete, memory_summarize, memory_update


# Sized so the largest request the schema allows stays under the body limit (MAX_REQUEST_BODY_BYTES, 256 KB):
# a request past these gets its 400, not a 413.
MAX_MESSAGES = 50
MAX_MESSAGE_CHARS = 4000


class Seed001Memory(serializers.Serializer):
    id = serializers.IntegerField()
    personaId = serializers.CharField(source="character_id")
    summary = serializers.CharField(source="content")
    topics = serializers.ListField(child=serializers.CharField())
    emotion = serializers.CharField()
    importance = serializers.IntegerField()
    category = serializers.CharField()
    isActive = serializers.BooleanField(source="is_active")
    archivedAt = DateTimeField(source="archived_at", allow_null=True)
    createdAt = DateTimeField(source="created_at")


class SeedMessage(StrictSerializer):
    role = ChoiceField(choices=[("user", "user"), ("assistant", "assistant")])
    content = serializers.CharField(max_length=MAX_MESSAGE_CHARS, allow_blank=True)
    createdAt = DateTimeField(required=False)


class SummarizeInput(StrictSerializer):
    personaId = serializers.CharField(max_length=64)
    sessionId = serializers.CharField(max_length=128, required=False, allow_blank=True)
    messages = serializers.ListField(child=SeedMessage(), min_length=1, max_length=MAX_MESSAGES)


class CreateInput(StrictSerializer):
    personaId = serializers.CharField(max_length=64)
    sessionId = serializers.CharField(max_length=128, required=False, allow_blank=True)
    messages = serializers.ListField(child=SeedMessage(), max_length=MAX_MESSAGES, required=False, default=list)
    manualSummary = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class ListQuery(StrictSerializer):
    json_types = False
    user = serializers.CharField(required=False)
    personaId = serializers.CharField(max_length=64, required=False, help_text="Leave out for every character.")
    includeArchived = serializers.BooleanField(default=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, default=10)
    offset = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)
    q = serializers.CharField(max_length=200, required=False, allow_blank=True,
                              help_text="Text the memory contains (matched on the decrypted text, never indexed).")


class PatchInput(StrictSerializer):
    summary = serializers.CharField(max_length=2000, required=False)
    importance = serializers.IntegerField(min_value=1, max_value=10, required=False)


WRITTEN = inline_serializer("Seed001Written", {
    "success": serializers.BooleanField(), "memory": Seed001Memory(),
    "created": serializers.BooleanField(help_text="False: an equal memory existed and is returned."),
    "archived": serializers.ListField(child=serializers.IntegerField(),
                                      help_text="Memories the plan's cap archived to make room (seed 001 §4.2)."),
})


def _written(item: MemoryItem, created: bool, code=status.HTTP_201_CREATED) -> Response:
    return Response({"success": True, "memory": Seed001Memory(item).data, "created": created,
                     "archived": getattr(item, "evicted_ids", [])}, status=code if created else status.HTTP_200_OK)


def _summarize(request, serializer_class, manual: bool):
    caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    character = character_get_active(slug=data["personaId"])
    with subject_for_write(caller) as user:
        item, created = memory_summarize(
            user=user, character=character, turns=[(m["role"], m["content"]) for m in data["messages"]],
            manual_summary=data.get("manualSummary", "") if manual else "", session_id=data.get("sessionId", ""),
            context=caller.audit)
    return _written(item, created)


class SummarizeApi(APIView):
    @extend_schema(operation_id="memory_v1_summarize", parameters=[USER_PARAM], request=SummarizeInput,
                   responses={201: WRITTEN, 200: WRITTEN},
                   summary="Seed 001 §2.1: summarize messages into one memory (Gemini, or the local summarizer)")
    def post(self, request):
        return _summarize(request, SummarizeInput, manual=False)


class CreateApi(APIView):
    @extend_schema(operation_id="memory_v1_create", parameters=[USER_PARAM], request=CreateInput,
                   responses={201: WRITTEN, 200: WRITTEN},
                   summary="Seed 001 §3.1: store a memory — manualSummary as given, else a summary of messages")
    def post(self, request):
        return _summarize(request, CreateInput, manual=True)


class ListApi(APIView):
    @extend_schema(operation_id="memory_v1_list", parameters=[ListQuery, USER_PARAM],
                   responses={200: inline_serializer("Seed001List", {
                       "success": serializers.BooleanField(), "memories": Seed001Memory(many=True),
                       "total": serializers.IntegerField(), "hasMore": serializers.BooleanField()})},
                   summary="Seed 001 §3.2: the user's memories, one character or every one, with a text query")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        query = ListQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        params = query.validated_data
        character = character_get_active(slug=params["personaId"]) if params.get("personaId") else None
        found = [] if caller.subject is None else memory_search(
            user=caller.subject, character=character, include_archived=params["includeArchived"],
            query=params.get("q", ""))
        page = found[params["offset"]: params["offset"] + params["limit"]]
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="memory_list", count=len(page))
        return Response({"success": True, "memories": Seed001Memory(page, many=True).data, "total": len(found),
                         "hasMore": params["offset"] + len(page) < len(found)})


class ItemApi(APIView):
    @extend_schema(operation_id="memory_v1_update", parameters=[USER_PARAM], request=PatchInput,
                   responses={200: inline_serializer("Seed001Updated", {
                       "success": serializers.BooleanField(), "memory": Seed001Memory()})},
                   summary="Seed 001 §3.3: edit a memory's summary or importance")
    def patch(self, request, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        body = PatchInput(data=request.data)
        body.is_valid(raise_exception=True)
        changes = {"content" if key == "summary" else key: value for key, value in body.validated_data.items()}
        item = memory_update(item=caller_memory(caller, memoryId), changes=changes, context=caller.audit)
        return Response({"success": True, "memory": Seed001Memory(item).data})

    @extend_schema(operation_id="memory_v1_delete", parameters=[USER_PARAM],
                   responses={200: inline_serializer("Seed001Deleted", {"success": serializers.BooleanField()})},
                   summary="Seed 001 §3.4: delete a memory")
    def delete(self, request, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        memory_delete(item=caller_memory(caller, memoryId), context=caller.audit)
        return Response({"success": True})


ARCHIVED = inline_serializer("Seed001Archived", {"success": serializers.BooleanField(),
                                                 "archivedAt": DateTimeField(allow_null=True)})


class ArchiveApi(APIView):
    archived = True

    @extend_schema(parameters=[USER_PARAM], request=None, responses={200: ARCHIVED},
                   summary="Seed 001 §3.5: archive a memory (kept, out of prompts) or bring it back")
    def post(self, request, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        item = memory_archive(item=caller_memory(caller, memoryId), archived=self.archived, context=caller.audit)
        return Response({"success": True,
                         "archivedAt": format_instant(item.archived_at) if item.archived_at else None})


class UnarchiveApi(ArchiveApi):
    archived = False
