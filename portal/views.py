"""The end users' memory pages (issue 9 §1, §4): server-rendered, Korean by default, phone-width first.

A chat backend opens them with a one-time link (POST /api/accounts/portal-sessions); the link signs the user
in with a session cookie that ends after PORTAL_IDLE_SECONDS without a request, or at sign-out. Every page acts
on the signed-in user's own data only, through the same services as the API and the operator console.
Destructive actions confirm first (GET shows what goes and that it cannot be recovered; POST does it).
"""
from __future__ import annotations

import time
from functools import wraps
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import login, logout
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.exceptions import ValidationError as DrfValidationError

from accounts.access import client_ip, is_end_user
from accounts.services import PORTAL_LANGUAGES, portal_link_redeem
from audit.services import AuditContext
from characters.models import Character
from context_layers.selectors import effective_identity, user_characters, user_context_for
from context_layers.services import (
    IDENTITY_USER_SET,
    account_withdraw,
    context_delete_all,
    context_delete_for_character,
    context_export,
    layer_put,
)
from core.errors import ApplicationError
from memories.categories import MemoryCategory, MemorySource
from memories.selectors import memory_settings_for, memory_stored
from memories.services import memory_consent_set, memory_correct, memory_delete, memory_settings_update

from .forms import IdentityForm, RulesForm, SettingsForm
from .strings import DEFAULT_LANGUAGE, fill, strings_for

SESSION_KEY = "portal"  # {"return_url", "lang", "seen"} of a portal sign-in


def _audit(request) -> AuditContext:
    user = request.user
    return AuditContext(actor_id=user.pk, actor_label=f"self:{user.get_username()}", trigger="portal",
                        request_id=getattr(request, "request_id", ""), ip_address=client_ip(request))


def _portal(request) -> dict:
    return request.session.get(SESSION_KEY) or {}


def _language(request) -> str:
    return _portal(request).get("lang") or DEFAULT_LANGUAGE


def _page(request, template: str, status: int = 200, **context) -> HttpResponse:
    language = _language(request)
    context.setdefault("portal", _portal(request))
    return render(request, f"portal/{template}", {"t": strings_for(language), "lang": language, **context},
                  status=status)


def _notice(request, key: str, status: int, **values) -> HttpResponse:
    t = strings_for(_language(request))
    return _page(request, "notice.html", status=status, message=fill(t[key], **values))


def portal_page(view=None, *, consent_first: bool = True):
    """Let in only an end user signed in through a portal link whose session has not idled out; `?lang=` switches
    the page language for the rest of the session. Memory that is on without the user's consent shows the consent
    notice first (seed 004 §7.4), then the page they asked for."""
    if view is None:
        return lambda inner: portal_page(inner, consent_first=consent_first)

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        state = _portal(request)
        if not request.user.is_authenticated or not state or not is_end_user(request.user):
            return _notice(request, "not_signed_in", 401)
        now = time.time()
        if now - state.get("seen", 0) > settings.PORTAL_IDLE_SECONDS:
            language = state.get("lang")
            logout(request)
            request.session[SESSION_KEY] = {"lang": language} if language else {}
            return _notice(request, "session_expired", 401)
        state["seen"] = now
        if request.GET.get("lang") in PORTAL_LANGUAGES:
            state["lang"] = request.GET["lang"]
        request.session[SESSION_KEY] = state
        if consent_first and request.method == "GET":
            memory_settings = memory_settings_for(request.user)
            if memory_settings.enabled and memory_settings.consented_at is None:
                return redirect(f"{reverse('portal:consent')}?next={quote(request.path)}")
        return view(request, *args, **kwargs)
    return wrapped


def _character(slug: str) -> Character | None:
    return None if "\x00" in slug else Character.objects.filter(slug=slug).first()


def _flash(request, key: str, **values) -> None:
    state = _portal(request)
    state["flash"] = fill(strings_for(_language(request))[key], **values)
    request.session[SESSION_KEY] = state


def _pop_flash(request) -> str:
    state = _portal(request)
    message = state.pop("flash", "")
    if message:
        request.session[SESSION_KEY] = state
    return message


def _error_message(error: Exception) -> str:
    if isinstance(error, DrfValidationError):
        detail = error.detail
        if isinstance(detail, dict):
            return "; ".join(f"{key}: {' '.join(map(str, value)) if isinstance(value, list) else value}"
                             for key, value in detail.items())
        return " ".join(map(str, detail)) if isinstance(detail, list) else str(detail)
    return str(error)


@require_GET
def enter(request, token: str):
    """Spend a one-time link: sign its user in (any earlier session here ends) and land on their pages."""
    link = portal_link_redeem(plain=token, context=AuditContext(
        actor_label="portal-link", trigger="portal", request_id=getattr(request, "request_id", ""),
        ip_address=client_ip(request)))
    if link is None:
        return _notice(request, "link_expired", 410)
    logout(request)
    login(request, link.user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.set_expiry(settings.PORTAL_IDLE_SECONDS)
    request.session[SESSION_KEY] = {"return_url": link.return_url, "lang": link.language or DEFAULT_LANGUAGE,
                                    "seen": time.time()}
    if link.character_slug:
        return redirect("portal:character", slug=link.character_slug)
    return redirect("portal:home")


@require_POST
def sign_out(request):
    state = _portal(request)
    logout(request)
    request.session[SESSION_KEY] = {"lang": state.get("lang", DEFAULT_LANGUAGE), "return_url": state.get("return_url", "")}
    return _notice(request, "signed_out", 200)


@require_GET
@portal_page
def home(request):
    user = request.user
    memory_settings = memory_settings_for(user)
    t = strings_for(_language(request))
    characters = [{"character": c, "remembers": memory_settings.remembers(c),
                   "count_label": fill(t["memory_count"], count=memory_stored(user=user, character=c).count())}
                  for c in user_characters(user=user)]
    return _page(request, "home.html", settings=memory_settings, characters=characters, flash=_pop_flash(request))


@require_http_methods(["GET", "POST"])
@portal_page(consent_first=False)
def consent(request):
    next_path = request.POST.get("next") or request.GET.get("next") or ""
    if not next_path.startswith("/me/") or next_path.startswith("/me/enter/") or "//" in next_path or "\\" in next_path:
        next_path = reverse("portal:home")
    if request.method == "POST":
        agreed = request.POST.get("answer") == "agree"
        memory_consent_set(user=request.user, agreed=agreed, context=_audit(request))
        return redirect(next_path)
    return _page(request, "consent.html", next_path=next_path)


@require_http_methods(["GET", "POST"])
@portal_page
def settings_page(request):
    user = request.user
    memory_settings = memory_settings_for(user)
    t = strings_for(_language(request))
    characters = user_characters(user=user)
    known = sorted({c.slug for c in characters} | set(memory_settings.paused_characters))
    form = SettingsForm(request.POST or None, t=t, characters=Character.objects.filter(slug__in=known),
                        initial={"enabled": memory_settings.enabled, "auto_extraction": memory_settings.auto_extraction,
                                 "allowed_categories": memory_settings.allowed_categories,
                                 "retention_days": memory_settings.retention_days,
                                 "paused_characters": memory_settings.paused_characters})
    error = ""
    if request.method == "POST" and form.is_valid():
        changes = dict(form.cleaned_data)
        if changes["enabled"] and not memory_settings.enabled and memory_settings.consented_at is None:
            return redirect("portal:consent")
        try:
            memory_settings_update(user=user, changes=changes, context=_audit(request))
        except ApplicationError as exc:
            error = fill(t["error"], message=exc.message)
        else:
            _flash(request, "saved")
            return redirect("portal:settings")
    return _page(request, "settings.html", form=form, error=error, flash=_pop_flash(request),
                 status=400 if request.method == "POST" else 200)


def _grouped(items, t) -> list[dict]:
    groups: dict[str, list] = {}
    for item in items:
        groups.setdefault(item.category, []).append(item)
    order = [c.value for c in MemoryCategory]
    return [{"label": t.get(f"cat_{category}", category), "category": category, "items": groups[category]}
            for category in sorted(groups, key=lambda c: order.index(c) if c in order else len(order))]


def _special_dates_text(tools: dict) -> str:
    return "\n".join(f"{entry.get('date', '')} {entry.get('description', '')}".strip()
                     for entry in tools.get("specialDates") or [])


@require_GET
@portal_page
def character_page(request, slug: str):
    character = _character(slug)
    if character is None:
        return _notice(request, "not_found", 404)
    return _character_view(request, character)


def _character_view(request, character, *, identity_form=None, rules_form=None, error="", status=200):
    user = request.user
    t = strings_for(_language(request))
    memory_settings = memory_settings_for(user)
    context_row = user_context_for(user=user, character=character)
    identity, _ = effective_identity(context_row.identity or {})
    tools = context_row.tools or {}
    identity_form = identity_form or IdentityForm(t=t, initial={
        "nickname": identity.get("nickname", ""), "honorific": identity.get("honorific", ""),
        "relationship_type": identity.get("relationshipType", ""), "custom_title": identity.get("customTitle", "")})
    rules_form = rules_form or RulesForm(t=t, initial={
        "avoid_topics": "\n".join(tools.get("avoidTopics") or []), "special_dates": _special_dates_text(tools)})
    return _page(request, "character.html", status=status, character=character,
                 heading=fill(t["what_it_remembers"], name=character.display_name),
                 groups=_grouped(memory_stored(user=user, character=character), t),
                 remembers=memory_settings.remembers(character), memory_enabled=memory_settings.enabled,
                 paused=character.slug in memory_settings.paused_characters,
                 identity_form=identity_form, rules_form=rules_form, error=error, flash=_pop_flash(request))


@require_POST
@portal_page
def character_pause(request, slug: str):
    character = _character(slug)
    if character is None:
        return _notice(request, "not_found", 404)
    paused = set(memory_settings_for(request.user).paused_characters)
    paused = paused - {slug} if request.POST.get("pause") != "1" else paused | {slug}
    memory_settings_update(user=request.user, changes={"paused_characters": sorted(paused)}, context=_audit(request))
    _flash(request, "saved")
    return redirect("portal:character", slug=slug)


def _layer_form_save(request, slug: str, *, form_class, form_name: str, layer: str, document_of):
    """Validate a layer form and store its document through layer_put (masked and validated as the API does);
    an invalid form or document is shown again with the error, nothing stored."""
    character = _character(slug)
    if character is None:
        return _notice(request, "not_found", 404)
    t = strings_for(_language(request))
    form = form_class(request.POST, t=t)
    if not form.is_valid():
        return _character_view(request, character, status=400, **{form_name: form})
    try:
        layer_put(user=request.user, character=character, layer=layer, identity_slot=IDENTITY_USER_SET,
                  document=document_of(form.cleaned_data, character), context=_audit(request))
    except (ApplicationError, DrfValidationError) as exc:
        return _character_view(request, character, status=400, error=fill(t["error"], message=_error_message(exc)),
                               **{form_name: form})
    _flash(request, "saved")
    return redirect("portal:character", slug=slug)


@require_POST
@portal_page
def identity_save(request, slug: str):
    def document_of(data, character):
        return {key: value for key, value in (
            ("nickname", data["nickname"]), ("honorific", data["honorific"]),
            ("relationshipType", data["relationship_type"]), ("customTitle", data["custom_title"])) if value}
    return _layer_form_save(request, slug, form_class=IdentityForm, form_name="identity_form", layer="identity",
                            document_of=document_of)


@require_POST
@portal_page
def rules_save(request, slug: str):
    def document_of(data, character):  # the other tools (features, custom rules) are kept as they are
        tools = dict(user_context_for(user=request.user, character=character).tools or {})
        return {**tools, "avoidTopics": data["avoid_topics"], "specialDates": data["special_dates"]}
    return _layer_form_save(request, slug, form_class=RulesForm, form_name="rules_form", layer="tools",
                            document_of=document_of)


def _own_memory(request, slug: str, memory_id: str):
    character = _character(slug)
    if character is None or not memory_id.isdigit() or len(memory_id) > 18:
        return character, None
    return character, memory_stored(user=request.user, character=character).filter(pk=int(memory_id)).first()


@require_http_methods(["GET", "POST"])
@portal_page
def memory_delete_page(request, slug: str, memory_id: str):
    character, item = _own_memory(request, slug, memory_id)
    if item is None:
        return _notice(request, "not_found", 404)
    if request.method == "POST":
        memory_delete(item=item, context=_audit(request))
        _flash(request, "deleted")
        return redirect("portal:character", slug=slug)
    t = strings_for(_language(request))
    return _page(request, "confirm.html", what=t["confirm_memory"], item=item,
                 cancel_url=reverse("portal:character", args=[slug]))


@require_http_methods(["GET", "POST"])
@portal_page
def memory_correct_page(request, slug: str, memory_id: str):
    character, item = _own_memory(request, slug, memory_id)
    if item is None or item.source == MemorySource.CHARACTER:  # what the character said is not the user's to reword
        return _notice(request, "not_found", 404)
    t = strings_for(_language(request))
    error = ""
    text = ""
    if request.method == "POST":
        text = (request.POST.get("content") or "").strip()[:1000]
        try:
            memory_correct(item=item, text=text, context=_audit(request))
        except ApplicationError as exc:
            error = fill(t["error"], message=exc.message)
        else:
            _flash(request, "corrected")
            return redirect("portal:character", slug=slug)
    return _page(request, "correct.html", status=400 if error else 200, character=character, item=item,
                 text=text, error=error)


@require_http_methods(["GET", "POST"])
@portal_page
def character_delete(request, slug: str):
    character = _character(slug)
    if character is None:
        return _notice(request, "not_found", 404)
    t = strings_for(_language(request))
    if request.method == "POST":
        counts = context_delete_for_character(user=request.user, character=character, context=_audit(request))
        _flash(request, "deleted_count", memories=counts["memories"], messages=counts["messages"])
        return redirect("portal:home")
    return _page(request, "confirm.html", what=fill(t["confirm_character"], name=character.display_name),
                 cancel_url=reverse("portal:character", args=[slug]))


@require_http_methods(["GET", "POST"])
@portal_page
def delete_everything(request):
    t = strings_for(_language(request))
    if request.method == "POST":
        counts = context_delete_all(user=request.user, context=_audit(request))
        _flash(request, "deleted_count", memories=counts["memories"], messages=counts["messages"])
        return redirect("portal:home")
    return _page(request, "confirm.html", what=t["confirm_everything"], cancel_url=reverse("portal:home"))


@require_http_methods(["GET", "POST"])
@portal_page
def withdraw(request):
    t = strings_for(_language(request))
    if request.method == "POST":
        state = _portal(request)
        account_withdraw(user=request.user, context=_audit(request))
        logout(request)
        request.session[SESSION_KEY] = {"lang": state.get("lang", DEFAULT_LANGUAGE),
                                        "return_url": state.get("return_url", "")}
        return _notice(request, "withdrawn", 200)
    return _page(request, "confirm.html", what=t["confirm_withdraw"], cancel_url=reverse("portal:home"))


@require_GET
@portal_page
def export(request, slug: str):
    character = _character(slug)
    if character is None:
        return _notice(request, "not_found", 404)
    exported = context_export(user=request.user, character=character, context=_audit(request))
    response = HttpResponse(exported["markdown"], content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="memory-{character.slug}.md"'
    return response

