"""A short link (/c/<id>/) opens the same build and workload as the long permalink; it never
changes, cannot be guessed, and making links is throttled per address."""

import re

import pytest
from django.urls import reverse

from configurator.web.models import (
    ALPHABET,
    ID_LENGTH,
    SharedConfiguration,
    SharedConfigurationLocked,
)
from configurator.web.views import SHARE_LIMIT
from tests.web.test_leads import BUILD

pytestmark = pytest.mark.django_db

SHORT = re.compile(rf"http://testserver/c/([{ALPHABET}]{{{ID_LENGTH}}})/")


def share(client, build=BUILD, **headers):
    return client.post(reverse("web:share"), {"build": build}, **headers)


def short_id(response) -> str:
    return SHORT.search(response.content.decode()).group(1)


def test_the_short_link_opens_the_same_build_and_workload_as_the_permalink(client):
    response = share(client)
    assert response.status_code == 200
    opened = client.get(f"/c/{short_id(response)}/")
    assert opened.status_code == 302
    permalink = client.get(f"/configure/?{BUILD}")
    assert opened["Location"] == f"/configure/?{permalink.context['permalink']}"
    page = client.get(opened["Location"])
    assert page.context["permalink"] == permalink.context["permalink"]
    assert page.context["verdict_text"] == permalink.context["verdict_text"]
    assert page.context["workload"].model_params_b == 70  # the workload travels too


def test_the_same_build_shared_twice_has_one_link_and_another_build_its_own(client):
    first, again = short_id(share(client)), short_id(share(client))
    other = short_id(share(client, BUILD.replace("memory_gb=1536", "memory_gb=2048")))
    assert first == again != other
    assert SharedConfiguration.objects.count() == 2


def test_links_are_drawn_not_counted(client):
    ids = {short_id(share(client, BUILD.replace("batch_size=64", f"batch_size={n}")))
           for n in range(1, 21)}  # fmt: skip
    assert len(ids) == 20
    assert all(len(each) == ID_LENGTH and set(each) <= set(ALPHABET) for each in ids)
    assert not set("0O1lI") & set("".join(ids))  # no look-alikes to misread


def test_over_htmx_the_link_takes_its_place_beside_the_permalink(client):
    response = share(client, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<span id="share-link"') and "<html" not in html
    assert 'data-copy="short-link"' in html and " hidden>" in html  # shown by the script
    assert 'readonly value="http://testserver/c/' in html  # selectable without JavaScript


def test_the_configurator_offers_it_and_a_new_build_empties_it(client):
    html = client.get(f"/configure/?{BUILD}").content.decode()
    assert 'formaction="/c/"' in html and 'hx-target="#share-link"' in html
    assert '<span id="share-link" class="share-link"></span>' in html
    assert 'data-copy="permalink"' in html


def test_a_broken_build_is_named_and_nothing_is_kept(client):
    response = share(client, BUILD.replace("gpu_count=8", "gpu_count=²"))
    assert response.status_code == 400
    assert "GPUs per node (gpu_count)" in response.content.decode()
    assert not SharedConfiguration.objects.exists()


def test_a_shared_configuration_never_changes(client):
    shared = SharedConfiguration.objects.get(pk=short_id(share(client)))
    shared.query = "cpu=xeon-e5-2680-v4"
    with pytest.raises(SharedConfigurationLocked):
        shared.save()
    assert SharedConfiguration.objects.get(pk=shared.pk).query.startswith("cpu=epyc-9754")


def test_making_links_is_throttled_per_address(client):
    for n in range(SHARE_LIMIT):
        assert (
            share(client, BUILD.replace("batch_size=64", f"batch_size={n + 1}")).status_code == 200
        )
    response = share(client, HTTP_HX_REQUEST="true")
    assert response.status_code == 429 and response["Retry-After"]
    html = response.content.decode()
    assert html.startswith('<span id="share-link"') and "Too many short links" in html


@pytest.mark.parametrize("path", ["/c/KWVNrVM4jv/", "/c/0000000000/", "/c/short/", "/c/%00/"])
def test_an_unknown_link_is_404(client, path, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):  # junk never reaches the database
        assert client.get(path).status_code == 404
