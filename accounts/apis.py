"""For chat backends: each user's plan (learnt from the product) and user tokens for the backend's own client."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import NotFoundError
from core.serializers import ChoiceField, DateTimeField, StrictSerializer

from .access import USER_PARAM, Role, resolve_caller, subject_for_write
from .models import Plan
from .selectors import plan_for_user, user_tokens
from .services import api_token_revoke, user_plan_set, user_token_issue


class PlanBody(StrictSerializer):
    plan = ChoiceField(choices=Plan.choices)


class PlanOutput(serializers.Serializer):
    user = serializers.CharField()
    plan = serializers.CharField()



class PlanApi(APIView):
    @extend_schema(operation_id="plan_get", parameters=[USER_PARAM], responses={200: PlanOutput},
                   summary="The user's plan")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SELF, Role.SYSTEM, Role.ADMIN})
        # A user never seen reads as the plan they would be created with.
        return Response({"user": caller.subject_ref, "plan": plan_for_user(caller.subject)})

    @extend_schema(operation_id="plan_set", parameters=[USER_PARAM], request=PlanBody, responses={200: PlanOutput},
                   summary="Set the user's plan (system); a downgrade keeps what exists readable")
    def put(self, request):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        body = PlanBody(data=request.data)
        body.is_valid(raise_exception=True)
        with subject_for_write(caller) as user:
            user_plan_set(user=user, plan=body.validated_data["plan"], context=caller.audit)
        return Response({"user": caller.subject_ref, "plan": body.validated_data["plan"]})


class UserTokenBody(StrictSerializer):
    name = serializers.CharField(max_length=100, required=False, default="app",
                                 help_text="What the token is for (shown in the admin).")


class UserTokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(source="key_prefix")
    createdAt = DateTimeField(source="created_at")
    revokedAt = DateTimeField(source="revoked_at", allow_null=True)


class UserTokenCreated(UserTokenOutput):
    token = serializers.CharField(help_text="The secret: shown this once, never stored.")


class UserTokenList(serializers.Serializer):
    user = serializers.CharField()
    tokens = UserTokenOutput(many=True)


class UserTokensApi(APIView):
    @extend_schema(operation_id="user_tokens_list", parameters=[USER_PARAM], responses={200: UserTokenList},
                   summary="The user's tokens (system); secrets are never shown again")
    def get(self, request):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        return Response(UserTokenList({"user": caller.subject_ref, "tokens": user_tokens(user=caller.subject)}).data)

    @extend_schema(operation_id="user_token_create", parameters=[USER_PARAM], request=UserTokenBody,
                   responses={201: UserTokenCreated},
                   summary="Mint a token for the backend's own client to act as the user (system); revocable")
    def post(self, request):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        body = UserTokenBody(data=request.data)
        body.is_valid(raise_exception=True)
        with subject_for_write(caller) as user:
            token, plain = user_token_issue(user=user, name=body.validated_data["name"], context=caller.audit)
        token.token = plain
        return Response(UserTokenCreated(token).data, status=201)


class UserTokenApi(APIView):
    @extend_schema(operation_id="user_token_revoke", parameters=[USER_PARAM], responses={204: None},
                   summary="Revoke one of the user's tokens (system)")
    def delete(self, request, tokenId: str):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        token = None
        if tokenId.isascii() and tokenId.isdigit() and len(tokenId) < 19:
            token = user_tokens(user=caller.subject).select_related("user").filter(pk=int(tokenId)).first()
        if token is None:
            raise NotFoundError("No such token of this user.", code="TOKEN_NOT_FOUND")
        api_token_revoke(token=token, context=caller.audit)
        return Response(status=204)

