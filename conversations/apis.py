"""Chat ingestion and session memory (issue 3; seed 001 §1.1 and §2.1)."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller, subject_for_write
from characters.selectors import character_get_active
from core.errors import NotFoundError
from core.timing import phase
from memories.audit_reads import audit_operator_read

from .ingestion import IncomingMessage, messages_ingest
from .selectors import conversation_get, conversation_recent_messages
from .serializers import ConversationEnded, ConversationOutput, MessagesAccepted, MessagesInput
from .summaries import conversation_end
from .tasks import enqueue_scope



def _enqueue(user_id: int, slug: str) -> None:
    with phase("enqueue"):
        enqueue_scope(user_id, slug)


def _conversation_or_404(caller, character, conversation_id: str):
    if caller.subject is None:  # a user never seen has no conversations
        raise NotFoundError("No such conversation.", code="CONVERSATION_NOT_FOUND")
    conversation = conversation_get(user=caller.subject, character=character, external_id=conversation_id)
    if conversation is None:
        raise NotFoundError("No such conversation.", code="CONVERSATION_NOT_FOUND")
    return conversation


class MessagesApi(APIView):
    @extend_schema(operation_id="messages_ingest", parameters=[USER_PARAM], request=MessagesInput,
                   responses={202: MessagesAccepted},
                   summary="Post chat messages; stored at once (PII-masked), extraction runs in the background")
    def post(self, request, characterId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        with phase("scope"):
            character = character_get_active(slug=characterId)
            body = MessagesInput(data=request.data)
            body.is_valid(raise_exception=True)
        data = body.validated_data
        with subject_for_write(caller) as user:
            user_id, slug = user.pk, character.slug
            result = messages_ingest(
                user=user, character=character, conversation_id=data["conversationId"],
                messages=[IncomingMessage(external_id=m["id"], role=m["role"], content=m["content"],
                                          created_at=m["createdAt"]) for m in data["messages"]],
                on_commit=lambda: _enqueue(user_id, slug),
            )
        return Response({"conversationId": data["conversationId"], "accepted": result.accepted,
                         "duplicates": result.duplicates, "kept": result.kept}, status=status.HTTP_202_ACCEPTED)


class ConversationApi(APIView):
    @extend_schema(operation_id="conversation_get", parameters=[USER_PARAM], responses={200: ConversationOutput},
                   summary="Session memory: the conversation's last 10 messages and its summaries")
    def get(self, request, characterId: str, conversationId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        character = character_get_active(slug=characterId)
        conversation = _conversation_or_404(caller, character, conversationId)
        if caller.role is Role.ADMIN:
            audit_operator_read(caller=caller, character=character, object_type="conversation")
        payload = ConversationOutput({
            **{field: getattr(conversation, field) for field in (
                "external_id", "character_id", "status", "end_reason", "started_at", "last_message_at",
                "ended_at", "message_count")},
            "messages": conversation_recent_messages(conversation=conversation),
            "summaries": list(conversation.summaries.all()),
        }).data
        return Response(payload)


class ConversationEndApi(APIView):
    @extend_schema(operation_id="conversation_end", parameters=[USER_PARAM], request=None,
                   responses={202: ConversationEnded},
                   summary="End a conversation; its summary is made in the background")
    def post(self, request, characterId: str, conversationId: str):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM})
        character = character_get_active(slug=characterId)
        conversation = conversation_end(conversation=_conversation_or_404(caller, character, conversationId))
        enqueue_scope(caller.subject.pk, character.slug)  # processes what is pending, then summarises
        return Response({"conversationId": conversation.external_id, "status": conversation.status},
                        status=status.HTTP_202_ACCEPTED)
