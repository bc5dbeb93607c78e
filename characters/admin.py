from django.contrib import admin

from .models import Character


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("slug", "display_name", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("slug", "display_name")

    def get_readonly_fields(self, request, obj=None):
        return ("slug",) if obj else ()
