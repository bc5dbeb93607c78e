"""The page a locked-out sign-in gets (django-axes calls this through AXES_LOCKOUT_CALLABLE)."""
from __future__ import annotations

import math

from axes.helpers import get_cool_off
from django.shortcuts import render


def login_lockout_response(request, original_response=None, credentials=None):
    """429 with Retry-After and a page that says how long to wait, not whether the password was right."""
    cool_off = get_cool_off(request)
    seconds = math.ceil(cool_off.total_seconds()) if cool_off else None
    response = render(request, "registration/locked_out.html",
                      {"minutes": math.ceil(seconds / 60) if seconds else None}, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
