"""Quotes in the admin: read-only. The workflow runs through the pages and the API.

Who reads which quote is the pages' and the API's rule (`selectors.quotes_visible_to`):
architects every quote, a presales engineer their own; another's quote is not found.
"""

from django.contrib import admin

from configurator.quotes.models import Quote, QuoteEvent
from configurator.quotes.selectors import quotes_visible_to


class QuoteEventInline(admin.TabularInline):
    model = QuoteEvent
    extra = 0
    can_delete = False
    readonly_fields = ("action", "from_status", "to_status", "by", "at", "comment")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Quote)
class QuoteAdmin(admin.ModelAdmin):
    list_display = ("number", "status", "customer_name", "customer_company", "monthly_price",
                    "valid_until", "owner")  # fmt: skip
    list_filter = ("status", "year")
    search_fields = ("number", "customer_name", "customer_company", "customer_email")
    inlines = [QuoteEventInline]

    def get_queryset(self, request):
        # The list, its filters and search, and every object page (get_object) read this.
        return quotes_visible_to(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        if not super().has_view_permission(request, obj):
            return False
        return obj is None or quotes_visible_to(request.user).filter(pk=obj.pk).exists()

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Quote._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
