"""Demo characters and a demo user with some context, for `make run`."""
from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from accounts.models import CONTEXT_ADMIN_GROUP, ApiToken, Plan, TokenKind
from accounts.services import api_token_create, end_user_get_or_create, portal_link_issue, user_plan_set
from audit.services import AuditContext
from characters.models import Character
from memories.categories import MemoryCategory, MemoryKind, MemorySource
from memories.services import MemoryInput, memory_create

from .services import layer_put

DEMO_CONTEXT = AuditContext(actor_label="system:load_demo", trigger="command")

CHARACTERS = [
    ("chunsim", "춘심", "밝고 다정한 20대 초반 여성. 반말을 쓰고 이모티콘을 자주 쓴다. 유저의 하루를 궁금해하고 "
                      "작은 일도 기억해 챙긴다. 정치·종교 논쟁은 피한다."),
    ("sora", "소라", "차분하고 지적인 대학 선배. 존댓말과 반말을 섞어 쓰며 고민 상담을 잘 들어준다."),
    ("yuna", "유나", "활발한 운동 좋아하는 친구. 짧고 경쾌한 말투, 함께 목표를 세우고 응원한다."),
    ("mina", "미나", "조용한 책벌레 동생. 존댓말을 쓰고 책과 영화 이야기를 좋아한다."),
]

DEMO_MEMORIES = [
    ("떡볶이를 제일 좋아함", MemoryCategory.PREFERENCE, "favorite_food", "떡볶이", 6),
    ("생일은 3월 15일", MemoryCategory.PERSONAL_INFO, "birthday", "03-15", 9),
    ("고양이 '나비'를 키움", MemoryCategory.PERSON, "pet", "고양이 나비", 7),
    ("요즘 취업 준비로 스트레스를 받음", MemoryCategory.WORRY, "", "", 7),
]


def load_characters() -> None:
    for slug, name, persona in CHARACTERS:
        Character.objects.update_or_create(slug=slug, defaults={"display_name": name, "persona": persona})


@transaction.atomic
def load_demo(*, username: str = "demo-user", operator: str = "operator") -> dict:
    """Create (or refresh) the demo data; return fresh credentials (passwords and tokens rotate each run)."""
    load_characters()
    user = end_user_get_or_create(external_id=username)
    password = secrets.token_urlsafe(12)
    user.set_password(password)
    user.save(update_fields=["password"])
    user_plan_set(user=user, plan=Plan.PREMIUM, context=DEMO_CONTEXT)

    chunsim = Character.objects.get(slug="chunsim")
    layer_put(user=user, character=chunsim, layer="identity", context=DEMO_CONTEXT,
              document={"nickname": "민수", "honorific": "반말", "relationshipType": "친구"})
    layer_put(user=user, character=chunsim, layer="tools", context=DEMO_CONTEXT,
              document={"avoidTopics": ["정치"], "specialDates": [{"date": "03-15", "description": "생일"}]})
    layer_put(user=user, character=chunsim, layer="soul", context=DEMO_CONTEXT,
              document={"values": ["가족", "성장"], "dreams": ["해외여행"], "recurringWorries": ["취업 걱정"]})
    for content, category, key, value, importance in DEMO_MEMORIES:
        memory_create(user=user, character=chunsim, context=DEMO_CONTEXT, data=MemoryInput(
            content=content, category=category, kind=MemoryKind.SEMANTIC, subject_key=key, subject_value=value,
            importance=importance, source=MemorySource.EXPLICIT))

    ApiToken.objects.filter(name__in=["demo-system", "demo-user"], revoked_at__isnull=True).delete()
    _, system_token = api_token_create(name="demo-system", kind=TokenKind.SERVICE)
    _, user_token = api_token_create(name="demo-user", kind=TokenKind.USER, user=user)

    User = get_user_model()
    admin_user, _ = User.objects.get_or_create(username=operator, defaults={"is_staff": True, "is_superuser": True})
    admin_password = secrets.token_urlsafe(12)
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.set_password(admin_password)
    admin_user.save()
    admin_user.groups.add(Group.objects.get_or_create(name=CONTEXT_ADMIN_GROUP)[0])
    _, portal_key = portal_link_issue(user=user, issued_by=None, context=DEMO_CONTEXT)
    return {"username": username, "password": password, "user_token": user_token, "portal_key": portal_key,
            "system_token": system_token, "operator": operator, "operator_password": admin_password}
