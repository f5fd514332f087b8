"""A secret is masked in the encodings a request gives it: form-encoded (``client_secret_post``),
and inside ``Basic <base64 of id:secret>`` whatever the ID's length (so wherever the secret falls
in the encoded bytes), the ID and secret percent-encoded first (the SDK's way) or not, standard or
URL-safe base64."""

from __future__ import annotations

import base64
from urllib.parse import quote, quote_plus, urlencode

import pytest

from anvia_nb.policy import MASK, ShowPolicy

SECRETS = ["s3cr3t+/= value&x", "plain-secret-0123", "é-ñ'\\-123456", "short6"]
IDS = ["a", "ab", "abc", "svc", "client-1234", "ü"]


@pytest.mark.parametrize("secret", SECRETS)
def test_basic_credentials_are_masked_for_any_client_id(secret: str) -> None:
    policy = ShowPolicy().with_secrets([secret])
    for client_id in IDS:
        for pair in (f"{client_id}:{secret}", f"{quote(client_id, safe='')}:{quote(secret, safe='')}"):
            for encode in (base64.b64encode, base64.urlsafe_b64encode):
                header = f"Authorization: Basic {encode(pair.encode()).decode()}"
                shown = policy.mask(header)
                assert MASK in shown and encode(pair.encode()).decode() not in shown, (client_id, header)
                assert shown.startswith("Authorization: Basic ")


@pytest.mark.parametrize("secret", SECRETS)
def test_a_form_encoded_secret_is_masked(secret: str) -> None:
    body = urlencode({"grant_type": "client_credentials", "client_secret": secret, "scope": "tools"})
    shown = ShowPolicy().with_secrets([secret]).mask(body)
    assert quote_plus(secret) not in shown and MASK in shown and "grant_type=client_credentials" in shown


def test_text_that_merely_resembles_base64_is_left_alone() -> None:
    policy = ShowPolicy().with_secrets(["plain-secret-0123"])
    text = "Authorization: Basic " + base64.b64encode(b"svc:another-secret-9").decode()
    assert policy.mask(text) == text
