"""The per-turn context block (issue 4) and seed 001's memory load endpoint."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller
from characters.selectors import character_get_active
from core.timestamps import format_instant
from core.timing import phase
from memories.audit_reads import audit_operator_read
from memories.selectors import memory_settings_for, memory_topics

from .freshness import ensure_processed
from .retrieval import retrieve
from .serializers import MemoryLoadQuery, PromptInput, PromptOutput
from .services import context_pack_for_turn



class PromptApi(APIView):
    @extend_schema(operation_id="context_prompt", parameters=[USER_PARAM], request=PromptInput,
                   responses={200: PromptOutput},
                   summary="The token-budgeted context block to inject into this turn's system prompt")
    def post(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        with phase("scope"):
            character = character_get_active(slug=characterId)
            body = PromptInput(data=request.data)
            body.is_valid(raise_exception=True)
        data = body.validated_data
        pack = context_pack_for_turn(user=caller.subject, character=character, message=data["message"],
                                     budget=data["budgetTokens"], situation=data.get("situation"))
        return Response(pack)


class MemoryLoadApi(APIView):
    @extend_schema(operation_id="memory_load_v1", parameters=[MemoryLoadQuery, USER_PARAM],
                   responses={200: inline_serializer("MemoryLoad", {
                       "success": serializers.BooleanField(),
                       "memories": serializers.ListField(child=serializers.DictField())})},
                   summary="Seed 001 §2.3.1: the most relevant memories at the start of a conversation")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        query = MemoryLoadQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        character = character_get_active(slug=query.validated_data["personaId"])
        if caller.subject is None:  # a user never seen has no memories
            return Response({"success": True, "memories": []})
        if caller.role is not Role.ADMIN:
            ensure_processed(user=caller.subject, character=character)
        retrieved = retrieve(user=caller.subject, character=character, message="", query_vector=None,
                             memory_settings=memory_settings_for(caller.subject))
        chosen = (retrieved.identity + retrieved.state + retrieved.ranked)[: query.validated_data["limit"]]
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="memory_load", count=len(chosen))
        # topics only for the few chosen here: the prompt's retrieval does not decrypt them for every row it scores
        topics = memory_topics(memory_ids=[m.item.pk for m in chosen])
        return Response({"success": True, "memories": [
            {"id": m.item.pk, "personaId": character.slug, "summary": m.item.content, "category": m.item.category,
             "topics": topics.get(m.item.pk) or [], "emotion": m.item.emotion,
             "importance": m.item.importance, "createdAt": format_instant(m.item.created_at)} for m in chosen]})
