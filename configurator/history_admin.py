"""The admin's history pages (django-simple-history): everyone who reads a row reads its past;
only who may change the row may write a past version back.
"""

from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from simple_history.admin import SimpleHistoryAdmin


class HistoryAdmin(SimpleHistoryAdmin):
    """SimpleHistoryAdmin whose past-version form saves only for users with change permission."""

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        # simple-history 3.13 saves a POSTed past-version form after checking only the *view*
        # permission, and its form holds every field: a read-only presales engineer could
        # rewrite any catalog price or publish rules through it. Reading stays as it is.
        if request.method == "POST":
            obj = self.get_object(request, unquote(object_id))
            if not self.has_change_permission(request, obj):
                raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)
