"""The console's entry in the admin: the index links to the user pages for operators who may see user data."""
from django.contrib import admin

from audit.admin_mixins import sees_user_data

admin.site.index_template = "console/admin_index.html"
_index = admin.site.index


def _index_with_console(request, extra_context=None):
    return _index(request, extra_context={**(extra_context or {}), "sees_user_data": sees_user_data(request)})


admin.site.index = _index_with_console
