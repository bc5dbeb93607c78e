"""The forms of the memory pages. They turn form fields into the services' inputs; the services validate what
they store (layer documents, settings) as they do for the API."""
from __future__ import annotations

import re

from django import forms

from context_layers.documents import HONORIFICS, RELATIONSHIP_TYPES
from memories.categories import MemoryCategory

_SPECIAL_DATE_LINE = re.compile(r"^\s*(\d{4}-)?(\d{1,2})[-/.](\d{1,2})\.?\s+(.+?)\s*$")


class SettingsForm(forms.Form):
    enabled = forms.BooleanField(required=False)
    auto_extraction = forms.BooleanField(required=False)
    allowed_categories = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    retention_days = forms.IntegerField(required=False, min_value=1, max_value=36500)
    paused_characters = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, t: dict, characters, **kwargs):
        super().__init__(*args, label_suffix="", **kwargs)
        self.fields["enabled"].label = t["enabled_label"]
        self.fields["auto_extraction"].label = t["auto_extraction_label"]
        self.fields["allowed_categories"].label = t["categories_label"]
        self.fields["allowed_categories"].choices = [(c.value, t[f"cat_{c.value}"]) for c in MemoryCategory]
        self.fields["retention_days"].label = t["retention_label"]
        self.fields["paused_characters"].label = t["paused_label"]
        self.fields["paused_characters"].choices = [(c.slug, c.display_name) for c in characters]


class IdentityForm(forms.Form):
    nickname = forms.CharField(required=False, max_length=50)
    honorific = forms.ChoiceField(required=False)
    relationship_type = forms.ChoiceField(required=False)
    custom_title = forms.CharField(required=False, max_length=50)

    def __init__(self, *args, t: dict, **kwargs):
        super().__init__(*args, label_suffix="", **kwargs)
        for name in ("nickname", "honorific", "relationship_type", "custom_title"):
            self.fields[name].label = t[name]
        self.fields["honorific"].choices = [("", t["not_set"])] + [(h, h) for h in HONORIFICS]
        self.fields["relationship_type"].choices = [("", t["not_set"])] + [(r, r) for r in RELATIONSHIP_TYPES]


class RulesForm(forms.Form):
    avoid_topics = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=5000)
    special_dates = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=5000)

    def __init__(self, *args, t: dict, **kwargs):
        super().__init__(*args, label_suffix="", **kwargs)
        self.fields["avoid_topics"].label = t["avoid_topics"]
        self.fields["special_dates"].label = t["special_dates"]

    def clean_avoid_topics(self) -> list[str]:
        seen: list[str] = []
        for line in self.cleaned_data["avoid_topics"].splitlines():
            topic = line.strip()
            if topic and topic not in seen:
                seen.append(topic)
        return seen

    def clean_special_dates(self) -> list[dict]:
        dates = []
        for number, line in enumerate(self.cleaned_data["special_dates"].splitlines(), start=1):
            if not line.strip():
                continue
            match = _SPECIAL_DATE_LINE.match(line)
            if match is None:
                raise forms.ValidationError(f"{number}: MM-DD …")
            year, month, day, description = match.groups()
            dates.append({"date": f"{year or ''}{int(month):02d}-{int(day):02d}", "description": description})
        return dates
