"""The quotes API's request shapes (api.md "Quotes")."""

from typing import Annotated, Literal

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from pydantic import AfterValidator, Field

from configurator.schemas import BuildIn, StrictSchema, Text, WorkloadIn


def _email(value: str) -> str:
    if value:
        try:
            validate_email(value)
        except ValidationError as error:
            raise ValueError("is not an email address") from error
    return value


class CustomerIn(StrictSchema):
    name: Text = Field(min_length=1, max_length=120)
    company: Text = Field("", max_length=200)
    email: Annotated[Text, AfterValidator(_email)] = Field("", max_length=254)
    phone: Text = Field("", max_length=40)


class QuoteIn(StrictSchema):
    customer: CustomerIn
    build: BuildIn
    workload: WorkloadIn | None = None
    term_months: int = Field(12, ge=1, le=60, description="Rental term in months")
    discount_pct: float = Field(0, ge=0, lt=100, description="Discount on the list price, %")
    valid_days: int | None = Field(
        None, ge=1, le=180, description="Days the quote stays valid; default QUOTE_VALID_DAYS"
    )


class TransitionIn(StrictSchema):
    action: Literal["submit", "approve", "return", "issue", "accept", "cancel"]
    comment: Text = Field("", max_length=2000)
