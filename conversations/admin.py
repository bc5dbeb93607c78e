"""Operator console for conversations: message text is shown only on audited pages."""
from django.contrib import admin

from audit.admin_mixins import AuditedReadAdminMixin

from .models import Conversation, ConversationSummary, Message


class ReadOnlyAdmin(AuditedReadAdminMixin, admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Conversation)
class ConversationAdmin(ReadOnlyAdmin):
    audit_object_type = "conversation"
    list_display = ("external_id", "user", "character", "status", "end_reason", "message_count", "last_message_at")
    list_filter = ("status", "character")
    search_fields = ("user__username", "external_id")
    list_select_related = ("user", "character")


@admin.register(Message)
class MessageAdmin(ReadOnlyAdmin):
    audit_object_type = "message"
    list_display = ("external_id", "user", "character", "role", "created_at", "processed_at", "process_attempts",
                    "last_error_code", "quarantined_at")
    list_filter = ("role", "character", ("quarantined_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "external_id")
    list_select_related = ("user", "character")
    exclude = ("conversation",)

    def get_queryset(self, request):
        # The list never shows the text; deferring it keeps a quarantined, unreadable message listable.
        return super().get_queryset(request).defer("content")


@admin.register(ConversationSummary)
class ConversationSummaryAdmin(ReadOnlyAdmin):
    audit_object_type = "conversation_summary"
    list_display = ("conversation", "emotion", "importance", "fallback", "created_at")
    list_select_related = ("conversation__user",)  # audit_target names each row's user

    def audit_target(self, obj):
        conversation = obj.conversation
        return {"target_user_id": conversation.user_id, "target_user_ref": conversation.user.get_username(),
                "character_slug": conversation.character_id}
