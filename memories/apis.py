"""Memory endpoints of seed 000 §11.1: list, add (system), edit, delete and history of one; the user's memory settings."""
from __future__ import annotations

import json

from django.conf import settings as django_settings
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller, subject_for_write
from characters.selectors import character_get_active
from accounts.selectors import tier_policy_for_user
from core.errors import NotFoundError
from core.serializers import StrictSerializer

from .audit_reads import audit_operator_read
from .categories import from_seed_004_categories, to_seed_004_categories
from .legacy import legacy_bio_render
from .models import MemorySettings
from .selectors import memory_history, memory_list, memory_of_user, memory_settings_for, memory_visible
from .serializers import (
    MemoryCreateInput,
    MemoryCreateOutput,
    MemoryHistoryOutput,
    MemoryListOutput,
    MemoryOutput,
    MemoryListQuery,
    MemorySettingsInput,
    MemorySettingsOutput,
    MemoryUpdateInput,
    UserMemoryListOutput,
    UserMemoryListQuery,
    UserMemorySettingsInput,
    UserMemorySettingsOutput,
)
from .services import (
    MemoryInput,
    memory_create,
    memory_delete,
    memory_delete_all,
    memory_settings_update,
    memory_update,
)


def caller_memory(caller, memory_id: str, character=None):
    """The memory `memory_id` of the caller's subject (with `character` when given), or 404 MEMORY_NOT_FOUND
    (another user's memory, a user never seen, or no such id: the same answer). Every memory endpoint's lookup."""
    item = memory_of_user(user=caller.subject, memory_id=memory_id, character=character)
    if item is None:
        raise NotFoundError("No such memory of this user." if character is None else "No such memory in this scope.",
                            code="MEMORY_NOT_FOUND")
    return item


class MemoryCollectionApi(APIView):
    @extend_schema(operation_id="memory_list", parameters=[MemoryListQuery, USER_PARAM],
                   responses={200: MemoryListOutput}, summary="List the memories of one character scope")
    def get(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        query = MemoryListQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        params = query.validated_data
        if caller.subject is None:  # a user never seen has no memories
            total, page = 0, []
        else:
            items = memory_list(user=caller.subject, character=character,
                                include_archived=params["includeArchived"], category=params.get("category"))
            total = items.count()
            page = list(items[params["offset"]: params["offset"] + params["limit"]])
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="memory_list", count=len(page))
        payload = {"characterId": character.slug, "memories": page, "total": total,
                   "hasMore": params["offset"] + len(page) < total}
        return Response(MemoryListOutput(payload).data)

    @extend_schema(operation_id="memory_create", parameters=[USER_PARAM], request=MemoryCreateInput,
                   responses={201: MemoryCreateOutput, 200: MemoryCreateOutput},
                   summary="Add a memory (system); an equal active memory is returned with created=false")
    def post(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        character = character_get_active(slug=characterId)
        body = MemoryCreateInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        with subject_for_write(caller) as user:
            item, created = memory_create(
                user=user, character=character, context=caller.audit,
                data=MemoryInput(
                    content=data["content"], category=data["category"], kind=data["kind"],
                    subject_key=data["subjectKey"], subject_value=data["subjectValue"], importance=data["importance"],
                    confidence=data["confidence"], emotion=data["emotion"], emotion_intensity=data["emotionIntensity"],
                    source=data["source"], source_conversation_id=data["sourceConversationId"],
                    source_message_id=data["sourceMessageId"], expires_at=data["expiresAt"],
                ),
            )
        return Response(MemoryCreateOutput({"memory": item, "created": created}).data,
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MemoryItemApi(APIView):
    @extend_schema(operation_id="memory_delete", parameters=[USER_PARAM], responses={204: None},
                   summary="Delete one memory for good")
    def delete(self, request, characterId: str, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        memory_delete(item=caller_memory(caller, memoryId, character), context=caller.audit)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="memory_update", parameters=[USER_PARAM], request=MemoryUpdateInput,
                   responses={200: MemoryOutput}, summary="Edit a memory's content, importance or category")
    def patch(self, request, characterId: str, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        body = MemoryUpdateInput(data=request.data)
        body.is_valid(raise_exception=True)
        item = memory_update(item=caller_memory(caller, memoryId, character), changes=body.validated_data,
                             context=caller.audit)
        return Response(MemoryOutput(item).data)


class MemoryHistoryApi(APIView):
    @extend_schema(operation_id="memory_history", parameters=[USER_PARAM], responses={200: MemoryHistoryOutput},
                   summary="A memory's versions (what it said before each correction or merge) and its events")
    def get(self, request, characterId: str, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        item = caller_memory(caller, memoryId, character)
        history = memory_history(item=item)
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="memory_history",
                                count=len(history["versions"]))
        return Response(MemoryHistoryOutput({"memoryId": item.pk, "characterId": character.slug,
                                             **history}).data)


class MemorySettingsApi(APIView):
    @extend_schema(operation_id="memory_settings_get", parameters=[USER_PARAM], responses={200: MemorySettingsOutput},
                   summary="The user's memory settings (seed 004 §3.3): on/off, extraction, categories, retention, "
                           "paused characters")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        settings = memory_settings_for(caller.subject) if caller.subject is not None else MemorySettings()
        return Response(MemorySettingsOutput(settings).data)

    @extend_schema(operation_id="memory_settings_put", parameters=[USER_PARAM], request=MemorySettingsInput,
                   responses={200: MemorySettingsOutput},
                   summary="Change memory settings; fields left out keep their value. Memory off (or paused for a "
                           "character) takes effect at once: no memory in any prompt, no extraction, no message kept")
    def put(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        body = MemorySettingsInput(data=request.data)
        body.is_valid(raise_exception=True)
        with subject_for_write(caller) as user:
            settings = memory_settings_update(user=user, changes=body.validated_data, context=caller.audit)
        return Response(MemorySettingsOutput(settings).data)


def _seed_004_settings(user) -> dict:
    settings = memory_settings_for(user) if user is not None else MemorySettings()
    return {"is_enabled": settings.enabled, "auto_extraction": settings.auto_extraction,
            "allowed_categories": to_seed_004_categories(settings.allowed_categories),
            "max_memories": tier_policy_for_user(user).memory_cap}


class UserMemoriesApi(APIView):
    """Seed 004 §6: the user's memories across every character."""

    @extend_schema(operation_id="user_memories_list", parameters=[UserMemoryListQuery, USER_PARAM],
                   responses={200: UserMemoryListOutput}, summary="My memories, every character (seed 004 §6)")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        query = UserMemoryListQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        params = query.validated_data
        if caller.subject is None:
            total, page = 0, []
        else:
            items = memory_visible(user=caller.subject, character=None).order_by("-created_at", "-id")
            total = items.count()
            page = list(items[params["offset"]: params["offset"] + params["limit"]])
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=None, object_type="memory_list", count=len(page))
        return Response(UserMemoryListOutput({"memories": page, "total": total}).data)

    @extend_schema(operation_id="user_memories_delete", parameters=[USER_PARAM], responses={204: None},
                   summary="Delete all my memories, every character (seed 004 §6); messages and layers stay")
    def delete(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        if caller.subject is not None:
            memory_delete_all(user=caller.subject, context=caller.audit)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UserMemoryApi(APIView):
    @extend_schema(operation_id="user_memory_delete", parameters=[USER_PARAM], responses={204: None},
                   summary="Delete one of my memories (seed 004 §6)")
    def delete(self, request, memoryId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        memory_delete(item=caller_memory(caller, memoryId), context=caller.audit)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UserMemorySettingsApi(APIView):
    @extend_schema(operation_id="user_memory_settings_get", parameters=[USER_PARAM],
                   responses={200: UserMemorySettingsOutput}, summary="My memory settings (seed 004 §6)")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        return Response(UserMemorySettingsOutput(_seed_004_settings(caller.subject)).data)

    @extend_schema(operation_id="user_memory_settings_patch", parameters=[USER_PARAM],
                   request=UserMemorySettingsInput, responses={200: UserMemorySettingsOutput},
                   summary="Change my memory settings (seed 004 §6; its category names)")
    def patch(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        body = UserMemorySettingsInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        changes = {}
        if "is_enabled" in data:
            changes["enabled"] = data["is_enabled"]
        if "auto_extraction" in data:
            changes["auto_extraction"] = data["auto_extraction"]
        if "allowed_categories" in data:
            changes["allowed_categories"] = from_seed_004_categories(data["allowed_categories"])
        with subject_for_write(caller) as user:
            memory_settings_update(user=user, changes=changes, context=caller.audit)
        return Response(UserMemorySettingsOutput(_seed_004_settings(user)).data)


class LegacyBioQuery(StrictSerializer):
    json_types = False
    user = serializers.CharField(required=False)
    characterId = serializers.CharField(required=False, max_length=64,
                                        help_text="Default: LEGACY_BIO_DEFAULT_CHARACTER.")


class LegacyBioApi(APIView):
    @extend_schema(operation_id="legacy_bio_get", parameters=[LegacyBioQuery, USER_PARAM],
                   responses={200: inline_serializer("LegacyBio", {
                       "userId": serializers.CharField(), "characterId": serializers.CharField(),
                       "bio": serializers.CharField(help_text='The legacy User.bio document: {"memory", "updatedAt"}.')})},
                   summary="The legacy-format bio of a user, in step with every memory write (system; "
                           "LEGACY_BIO_MIRROR)")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        if not django_settings.LEGACY_BIO_MIRROR:
            raise NotFoundError("The legacy bio mirror is off (LEGACY_BIO_MIRROR).", code="LEGACY_MIRROR_OFF")
        query = LegacyBioQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        character = character_get_active(slug=query.validated_data.get("characterId")
                                         or django_settings.LEGACY_BIO_DEFAULT_CHARACTER)
        bio = legacy_bio_render(user=caller.subject, character=character) if caller.subject is not None else \
            json.dumps({"memory": "", "updatedAt": None})
        return Response({"userId": caller.subject_ref, "characterId": character.slug, "bio": bio})
