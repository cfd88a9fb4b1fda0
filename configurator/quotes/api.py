"""The quotes API (api.md "Quotes"): create, read, move through the workflow, PDF.

Session authentication with CSRF, as PATCH /rules. Someone who may not read a quote gets 404,
so quote numbers do not leak; a step the role may not take is 403, a step the quote's state or
build does not allow is 409, both with {"errors": {...}} and nothing written.
"""

from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Router, Status
from ninja.security import django_auth

from catalog.spreadsheets import XLSX_CONTENT_TYPE
from configurator.quotes import links, pdf, selectors, services, spreadsheet
from configurator.quotes.models import Quote
from configurator.quotes.schemas import QuoteIn, TransitionIn
from configurator.schemas import ErrorsOut

router = Router(tags=["quotes"], auth=django_auth)
NOT_FOUND = {"errors": {"number": ["No quote with this number that you may read."]}}


def quote_json(quote: Quote, request: HttpRequest) -> dict[str, object]:
    """Return a quote in the API's shape."""
    data: dict[str, object] = {
        "number": quote.number,
        "revision": quote.revision,
        "previous": quote.previous.number if quote.previous else None,
        "next": quote.newer_revision.number if quote.newer_revision else None,
        "status": quote.status,
        "owner": quote.owner.get_username(),
        "lead": quote.lead_id,
        "customer": {
            "name": quote.customer_name,
            "company": quote.customer_company,
            "email": quote.customer_email,
            "phone": quote.customer_phone,
        },
        "build": quote.build,
        "workload": quote.workload,
        "bom": quote.bom,
        "term_months": quote.term_months,
        "discount_pct": str(quote.discount_pct),
        "list_monthly_price": str(quote.list_monthly_price),
        "monthly_price": str(quote.monthly_price),
        "term_price": str(quote.term_price),
        "currency": quote.currency,
        "valid_until": quote.valid_until.isoformat(),
        "issued_at": quote.issued_at.isoformat() if quote.issued_at else None,
        "evaluation": quote.evaluation,
        "history": selectors.quote_history(quote),
        "pdf_url": request.build_absolute_uri(reverse("api-v1:quote_pdf", args=[quote.number])),
        "xlsx_url": request.build_absolute_uri(reverse("api-v1:quote_xlsx", args=[quote.number])),
    }
    if quote.status in links.OPEN_TO_CUSTOMER:
        token = links.customer_token(quote)
        data["customer_url"] = request.build_absolute_uri(reverse("quotes:customer", args=[token]))
    return data


@router.post("", response={201: dict, 400: ErrorsOut, 401: dict, 403: ErrorsOut})
def quote_create(request: HttpRequest, payload: QuoteIn):
    """Create a draft quote for a build (presales or architect): priced and evaluated now."""
    quote = services.quote_create(
        owner=request.user,
        customer=services.Customer(**payload.customer.model_dump()),
        build=payload.build,
        workload=payload.workload,
        term_months=payload.term_months,
        discount_pct=Decimal(str(payload.discount_pct)),
        valid_days=payload.valid_days,
    )
    return Status(201, quote_json(quote, request))


@router.get("/{number}.pdf", url_name="quote_pdf", response={200: None, 401: dict, 404: dict})
def quote_pdf(request: HttpRequest, number: str):
    """Return the bilingual PDF of a quote (its owner and architects)."""
    quote = selectors.quote_for(request.user, number)
    if quote is None:
        return Status(404, NOT_FOUND)
    return pdf_response(quote)


def pdf_response(quote: Quote, *, download: bool = False) -> HttpResponse:
    """Answer the quote's bilingual PDF, inline unless `download`."""
    return _document(quote, pdf.quote_pdf(quote), "application/pdf", "pdf", download=download)


def xlsx_response(quote: Quote) -> HttpResponse:
    """Answer the quote's workbook (`spreadsheet.quote_xlsx`) as a download."""
    body = spreadsheet.quote_xlsx(quote)
    return _document(quote, body, XLSX_CONTENT_TYPE, "xlsx", download=True)


def _document(quote: Quote, body: bytes, content_type: str, suffix: str, *, download: bool):
    response = HttpResponse(body, content_type=content_type)
    disposition = "attachment" if download else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{quote.number}.{suffix}"'
    response["Cache-Control"] = "private, no-store"  # a customer's prices stay out of caches
    return response


@router.get("/{number}.xlsx", url_name="quote_xlsx", response={200: None, 401: dict, 404: dict})
def quote_xlsx(request: HttpRequest, number: str):
    """Return the quote as an XLSX workbook: quote, bill of materials, power report."""
    quote = selectors.quote_for(request.user, number)
    if quote is None:
        return Status(404, NOT_FOUND)
    return xlsx_response(quote)


@router.get("/{number}", response={200: dict, 401: dict, 404: dict})
def quote_read(request: HttpRequest, number: str):
    """Return one quote (its owner and architects; others 404)."""
    quote = selectors.quote_for(request.user, number)
    if quote is None:
        return Status(404, NOT_FOUND)
    return quote_json(quote, request)


@router.post(
    "/{number}/transition",
    response={200: dict, 400: ErrorsOut, 401: dict, 403: ErrorsOut, 404: dict, 409: ErrorsOut},
)
def quote_transition(request: HttpRequest, number: str, payload: TransitionIn):
    """Move a quote one step: submit, approve, return, issue, accept or cancel."""
    quote = selectors.quote_for(request.user, number)
    if quote is None:
        return Status(404, NOT_FOUND)
    quote = services.ACTIONS[payload.action](
        quote=quote, user=request.user, comment=payload.comment
    )
    return quote_json(quote, request)
