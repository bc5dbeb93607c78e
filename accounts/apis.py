"""Plan management for chat backends: the service learns each user's plan from the product."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.serializers import ChoiceField, StrictSerializer

from .access import USER_PARAM, Role, resolve_caller, subject_for_write
from .models import Plan
from .selectors import plan_for_user
from .services import user_plan_set


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
