from django.urls import path

from .apis import ConversationApi, ConversationEndApi, MessagesApi

urlpatterns = [
    path("<str:characterId>/messages", MessagesApi.as_view(), name="messages"),
    path("<str:characterId>/conversations/<str:conversationId>", ConversationApi.as_view(), name="conversation"),
    path("<str:characterId>/conversations/<str:conversationId>/end", ConversationEndApi.as_view(),
         name="conversation-end"),
]
