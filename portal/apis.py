"""For chat backends: open an end user's memory pages (issue 9 §1)."""
from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.access import USER_PARAM, Role, resolve_caller, subject_for_write
from accounts.services import PORTAL_LANGUAGES, portal_link_issue
from characters.selectors import character_get_active
from core.serializers import ChoiceField, DateTimeField, StrictSerializer


class PortalSessionBody(StrictSerializer):
    character = serializers.CharField(max_length=64, required=False, allow_blank=True,
                                      help_text="Land on this character's page.")
    returnUrl = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                      help_text="Where 'back to the app' leads; its origin must be on the service "
                                                "token's allow-list.")
    language = ChoiceField(choices=[(code, code) for code in PORTAL_LANGUAGES], required=False)


class PortalSessionOutput(serializers.Serializer):
    url = serializers.CharField(help_text="Open this once within expiresAt; it signs the user in.")
    expiresAt = DateTimeField()


class PortalSessionsApi(APIView):
    @extend_schema(operation_id="portal_session_create", parameters=[USER_PARAM], request=PortalSessionBody,
                   responses={201: PortalSessionOutput},
                   summary="A one-time URL that signs the user into their memory pages (system)")
    def post(self, request):
        caller = resolve_caller(request, allowed={Role.SYSTEM})
        body = PortalSessionBody(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        slug = data.get("character") or ""
        if slug:
            character_get_active(slug=slug)
        with subject_for_write(caller) as user:
            link, plain = portal_link_issue(user=user, issued_by=request.auth, character_slug=slug,
                                            return_url=data.get("returnUrl") or "",
                                            language=data.get("language") or "", context=caller.audit)
        url = request.build_absolute_uri(reverse("portal:enter", args=[plain]))
        return Response(PortalSessionOutput({"url": url, "expiresAt": link.expires_at}).data, status=201)
