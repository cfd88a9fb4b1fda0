"""A quote keeps the whole workload, its work and targets, and every screen of it shows them."""

import pytest

from configurator.quotes import links, pdf, services
from configurator.quotes.models import Quote
from tests.quotes.test_pdf import pdf_text

pytestmark = pytest.mark.django_db

SERVING = {
    "model_params_b": 72,
    "mode": "infer",
    "concurrent_users": 50,
    "prompt_tokens": 512,
    "output_tokens": 256,
    "target_ttft_s": 2,
    "target_tokens_per_s": 2000,
}
SHOWN = (
    "Concurrent users",
    "50",
    "Time to first token within (seconds)",
    "Output tokens per second to serve",
    "2000",
    "Prompt tokens per request",
    "512",
)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_the_quote_keeps_the_work_and_targets_and_the_batch_of_the_users(make_quote):
    quote = make_quote(workload=SERVING)
    assert {k: quote.workload[k] for k in SERVING} == SERVING
    assert quote.workload["batch_size"] == 50  # the users, as the engine served them
    assert quote.workload_summary == "72B inference, batch 50, bf16, context 768 tokens"


def test_the_quote_page_and_its_review_card_show_users_first_token_and_tokens_per_second(
    architect_client, make_quote, presales
):
    quote = make_quote(workload=SERVING)
    services.quote_submit(quote=quote, user=presales)
    detail = architect_client.get(f"/quotes/{quote.number}/").content.decode()
    review = architect_client.get("/quotes/review/").content.decode()
    card = review[review.index(f'id="review-{quote.number}"') :]
    for shown in SHOWN:
        assert shown in detail, shown
        assert shown in card, shown
    assert "batch 1," not in card


def test_the_customers_page_shows_the_targets_in_chinese(client, make_issued):
    quote = make_issued(workload=SERVING)
    client.cookies["django_language"] = "zh-hans"
    page = client.get(f"/quotes/c/{links.customer_token(quote)}/").content.decode()
    assert "批大小 50" in page and "2000" in page


def test_the_pdf_shows_users_first_token_and_tokens_per_second_in_both_languages(make_quote):
    text = _one_line(pdf_text(pdf.quote_pdf(make_quote(workload=SERVING))))
    assert "72B inference, batch 50" in text and "batch 1," not in text
    for shown in ("Concurrent users: 50", "Time to first token within (seconds): 2",
                  "Output tokens per second to serve: 2000"):  # fmt: skip
        assert shown in text, shown


def test_a_quote_frozen_before_keeps_rendering(architect_client, make_quote):
    """Quotes frozen as the whole schema dump (every field, defaults filled) still render,
    and one frozen with fields since dropped or not yet declared too."""
    quote = make_quote(workload=None)
    old = {
        "model_params_b": 13, "mode": "finetune", "batch_size": 4, "precision": "fp16",
        "context_length": 2048, "finetune_method": "full", "gpu_count": None, "gpu": None,
        "concurrent_users": None, "target_ttft_s": None, "some_old_field": 3,
    }  # fmt: skip
    Quote.objects.filter(pk=quote.pk).update(workload=old)
    quote.refresh_from_db()
    page = architect_client.get(f"/quotes/{quote.number}/").content.decode()
    assert "13B full fine-tune, batch 4, fp16, context 2048 tokens" in page
    assert "some_old_field" not in page
    text = _one_line(pdf_text(pdf.quote_pdf(quote)))
    assert "13B full fine-tune, batch 4, fp16, context 2048 tokens" in text
    partial = {"model_params_b": 7, "mode": "infer"}  # a lead's workload: only what was typed
    Quote.objects.filter(pk=quote.pk).update(workload=partial)
    quote.refresh_from_db()
    assert quote.workload_summary == "7B inference, batch 1, bf16, context 2048 tokens"


def test_a_re_quote_keeps_the_workload_and_its_judgement(make_issued, presales):
    quote = make_issued(workload=SERVING)
    revision = services.quote_requote(quote=quote, user=presales)
    assert revision.workload == quote.workload
    statuses = [(c["code"], c["status"], c["detail"]) for c in revision.evaluation["checks"]]
    assert statuses == [(c["code"], c["status"], c["detail"]) for c in quote.evaluation["checks"]]


def test_a_named_models_shape_is_its_name_not_a_line_per_field():
    """The quote keeps the shape a named model filled (`inputs.workload_frozen`), but its
    detail lines say the model once: they do not repeat its layers, heads or experts, nor a
    field at its default (model kind: decoder); what the customer gave is still listed."""
    from configurator.inputs import workload_frozen
    from configurator.quotes.workload import workload_details
    from configurator.schemas import WorkloadIn

    frozen = workload_frozen(
        WorkloadIn(model="deepseek-r1", mode="infer", concurrent_users=64, experts_per_token=8)
    )
    assert frozen["layers"] == 61  # kept with the quote
    labels = dict(workload_details(frozen))
    assert labels["Model"] == "DeepSeek-R1"
    assert labels["Concurrent users"] == "64"
    assert not {"Layers", "Experts", "Experts per token", "Model kind"} & set(labels)
