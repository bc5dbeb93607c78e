"""The subject registry (memories.extraction.registry): one consistent row per subject, read by every module,
and an extraction package that loads without Django; no database."""
from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from memories import subjects
from memories.categories import STATE_CATEGORIES, MemoryCategory
from memories.extraction import registry
from memories.extraction.candidates import Candidate, render_content
from memories.extraction.questions import asked_subject

ROOT = Path(__file__).resolve().parents[2]


def test_every_key_is_unique():
    keys = [row.key for row in registry.SUBJECTS]
    assert len(keys) == len(set(keys))


def test_every_row_is_well_formed():
    for row in registry.SUBJECTS:
        assert row.category in MemoryCategory.values, row.key
        assert row.kind in {registry.IDENTITY, registry.STATE, registry.MOMENT}, row.key
        # a state is what the prompt's state tier holds: a subject of a state category that is not identity
        assert (row.kind == registry.STATE) == (row.category in STATE_CATEGORIES and row.kind != registry.IDENTITY)
        assert bool(row.ko) == bool(row.en), row.key  # both labels or neither
        if row.key.startswith(registry.FAVORITE_PREFIX):
            assert row.single and row.category == "preference", row.key


def test_every_identity_subject_has_labels_in_both_languages():
    for row in registry.SUBJECTS:
        if row.kind == registry.IDENTITY:
            assert row.ko and row.en, row.key


def test_every_changeable_subject_has_words():
    changeable = [row for row in registry.SUBJECTS if row.changeable]
    assert {row.key for row in changeable} == {"residence", "occupation", "workplace", "part_time_job",
                                               "dating_status", "smoking", "diet"}
    for row in changeable:
        assert row.changes and all(word.strip() for word in row.changes), row.key
    assert "이사" in subjects.CHANGEABLE_SUBJECT_WORDS["residence"]
    assert subjects.CHANGEABLE_SUBJECT_WORDS["workplace"] == subjects.CHANGEABLE_SUBJECT_WORDS["occupation"]


@pytest.mark.parametrize("subject, single", [
    ("name", True), ("residence", True), ("family", True), ("diet", True), ("part_time_job", True),
    ("favorite_food", True), ("favorite_drama", True),  # any favorite_<topic>, with a row or not
    ("pet", False), ("sibling", False), ("allergy", False), ("hobby", False), ("likes", False), ("goal", False),
    ("unknown_subject", False),
])
def test_single_valued(subject, single):
    assert subjects.is_single_valued(subject) is single


@pytest.mark.parametrize("subject, identity", [
    ("name", True), ("allergy", True), ("diet", True), ("dating_status", True), ("pet", True),
    ("workplace", False), ("zodiac", False), ("hobby", False), ("goal", False), ("favorite_food", False),
])
def test_identity(subject, identity):
    assert subjects.is_identity_subject(subject) is identity
    assert (subject in subjects.IDENTITY_SUBJECTS) is identity


@pytest.mark.parametrize("subject, category", [
    ("name", MemoryCategory.PERSONAL_INFO), ("residence", MemoryCategory.LOCATION),
    ("workplace", MemoryCategory.LOCATION), ("sibling", MemoryCategory.PERSON),
    ("dating_status", MemoryCategory.RELATIONSHIP), ("goal_score", MemoryCategory.GOAL),
    ("sport", MemoryCategory.HABIT), ("hobby", MemoryCategory.PREFERENCE),
    ("favorite_webtoon", MemoryCategory.PREFERENCE), ("unknown_subject", MemoryCategory.OTHER),
])
def test_category_for_subject(subject, category):
    found = subjects.category_for_subject(subject)
    assert found == category and isinstance(found, MemoryCategory)
    assert registry.category_for_subject(subject) == category.value


def test_unknown_subject_keeps_the_default():
    assert subjects.category_for_subject("unknown_subject", default="event") == "event"
    assert subjects.SUBJECT_CATEGORIES["family_news"] == MemoryCategory.PERSON
    assert "favorite_food" not in subjects.SUBJECT_CATEGORIES  # favourites by prefix, as before


@pytest.mark.parametrize("subject, korean, content", [
    ("residence", True, "사는 곳: 신촌"), ("residence", False, "Lives in: 신촌"),
    ("favorite_food", True, "좋아하는 음식: 신촌"), ("favorite_youtuber", False, "Favorite YouTuber: 신촌"),
    ("favorite_fish_dish", False, "Favorite fish dish: 신촌"), ("family_news", False, "family news: 신촌"),
])
def test_labels(subject, korean, content):
    assert render_content(Candidate(subject, "신촌"), korean) == content


def test_question_cues_come_from_the_rows_in_their_order():
    for language in ("ko", "en"):
        cues = registry.QUESTION_CUES[language]
        assert [key for key, _ in cues] == list(dict.fromkeys(key for key, _ in cues))  # each subject once
        field = "ask_ko" if language == "ko" else "ask_en"
        assert {key for key, _ in cues} == {row.key for row in registry.SUBJECTS if getattr(row, field)}
    assert asked_subject("뭐라고 부를까? 그냥 이름 부를까?") == "nickname"
    assert asked_subject("Are you scared of dogs?") == "phobia"  # English: phobia before pet
    assert asked_subject("반려동물 알레르기 있어?") == "pet"  # Korean: pet before allergy, as before


def test_extraction_loads_without_django():
    """Every module of the package but factory.py and gemini.py (both read django.conf.settings) imports with
    no Django settings and without importing django."""
    package = ROOT / "memories" / "extraction"
    names = sorted(m.name for m in pkgutil.iter_modules([str(package)]) if m.name not in {"factory", "gemini"})
    assert "registry" in names and "local" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module('memories.extraction.' + name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "outside = sorted(m for m in sys.modules\n"
        "                 if m.startswith('memories.') and not m.startswith('memories.extraction'))\n"
        "print(loaded, outside)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    # memories.pii (used by salience to mask raw text) is plain Python: no Django either
    assert result.stdout.strip() == "[] ['memories.pii']"


@pytest.mark.parametrize("question,subject", [
    ("이름이 뭐야?", "name"),
    ("너는 누구야? 오늘 하루 어땠어?", "name"),
    ("성함이 어떻게 되세요?", "name"),
    # the word 이름 alone is no question about the user's name
    ("ㅋㅋ 국민 이름이긴 해 바꾸고 싶으면 '콩이' 어때?", ""),
    ("콩이가 새 이름 알아들어?", ""),
    # a question about someone named with 님/씨 is about them
    ("민재 님은 뭐 하는 사람이야?", ""),
    ("지수씨는 무슨 일 해?", ""),
    ("무슨 일 해?", "occupation"),
])
def test_a_question_asks_the_users_name_or_job_only_when_it_asks_about_the_user(question, subject):
    assert asked_subject(question) == subject
