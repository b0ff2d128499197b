"""Schemathesis hooks written by `contracts schemathesis <api>`: they read our contract's words.

The facts come from contract-facts.json beside this file (written from the same bundle, never edited by hand):
- pay: every body carries the shop id and a fresh nonce and is signed (HMAC-SHA256 of the exact bytes, keyed with
  PAY_SECRET, sent as `Authorization: Bearer <hex>`); nonces follow the mode of `contracts schemathesis --nonce`, as
  `contracts conform --nonce` does: by default "seconds", the current Unix time in whole seconds, strictly
  increasing, waiting for the next second when needed, never ahead of the clock;
- catalog: each write gets a fresh Idempotency-Key, so that no two bodies share one;
- identity: a logout never carries a generated id_token_hint (only the provider can issue one);
- checks: an error envelope in HTTP 200 is a refusal (x-error-envelope), and a promised refusal (x-provider-refuses:
  no credentials, a missing mandatory header) must be refused.
A broken x-assumption is not a failure: the bundle beside this file has those constraints relaxed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import requests
import schemathesis
from schemathesis import Case, Response
from schemathesis.hooks import HookContext
from schemathesis.transport.prepare import get_exclude_headers

FACTS: dict[str, Any] = json.loads(Path(__file__).with_name("contract-facts.json").read_text(encoding="utf-8"))
OPERATIONS: dict[str, dict[str, Any]] = FACTS["operations"]

NONCE: dict[str, Any] = FACTS.get("nonce", {"unit": "seconds"})
UNITS_PER_SECOND = {"seconds": 1, "milliseconds": 1_000, "microseconds": 1_000_000}

_nonce_lock = threading.Lock()
_last_nonce = 0


def next_nonce() -> int:
    """The next nonce of the mode: a counter's next value, or the current Unix time in the mode's unit, strictly
    above the last one (waiting for the clock to move on if needed, never ahead of it)."""
    global _last_nonce
    with _nonce_lock:
        if "counter" in NONCE:
            _last_nonce = max(_last_nonce + 1, int(NONCE["counter"]))
            return _last_nonce
        per_second = UNITS_PER_SECOND[NONCE["unit"]]
        now = time.time_ns() * per_second // 1_000_000_000
        while now <= _last_nonce:
            time.sleep(max(0.0, (_last_nonce + 1) / per_second - time.time()))
            now = time.time_ns() * per_second // 1_000_000_000
        _last_nonce = now
        return now


def facts_of(case: Case) -> dict[str, Any]:
    return OPERATIONS.get(case.operation.definition.raw.get("operationId", ""), {})


def sign_pay_body(case: Case, kwargs: dict[str, Any]) -> None:
    # A negative case without the Authorization header tests exactly that refusal: it stays unsigned.
    if "Authorization" in get_exclude_headers(case):
        return
    body = case.body
    if isinstance(body, dict):
        if "shop_id" in body:
            body["shop_id"] = os.environ["PAY_SHOP_ID"]
        if "nonce" in body:
            body["nonce"] = next_nonce()
    try:
        data = json.dumps(body).encode("utf-8") if isinstance(body, (dict, list, str, int, float, bool)) else b""
    except (TypeError, ValueError):
        return
    signature = hmac.new(os.environ["PAY_SECRET"].encode("utf-8"), data, hashlib.sha256).hexdigest()
    kwargs["data"] = data
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {signature}"}


@schemathesis.hook
def before_call(ctx: HookContext, case: Case, kwargs: dict[str, Any]) -> None:
    facts = facts_of(case)
    if FACTS["api"] == "pay" and facts.get("secured"):
        sign_pay_body(case, kwargs)
    idempotency = facts.get("idempotencyHeader")
    if idempotency and case.headers and idempotency in case.headers:
        case.headers[idempotency] = str(uuid.uuid4())
    for name in facts.get("dropQuery", []):
        if case.query:
            case.query.pop(name, None)


def is_error_envelope(content: bytes) -> bool:
    """The contract's error envelope (x-error-envelope): its property holds a value other than the success ones."""
    envelope = FACTS.get("errorEnvelope")
    if envelope is None:
        return False
    try:
        body = json.loads(content)
    except ValueError:
        return False
    return (
        isinstance(body, dict)
        and envelope["property"] in body
        and body[envelope["property"]] not in envelope["success"]
    )


_probed_without_credentials: set[str] = set()


def without_credentials(response: Response) -> requests.Response:
    """The request again without its credentials (pay: unsigned, with a fresh nonce so that only the signature is
    missing)."""
    request = response.request.copy()
    for name in list(request.headers):
        if name.lower() in FACTS["authHeaders"]:
            del request.headers[name]
    if FACTS["api"] == "pay" and request.body:
        try:
            body = json.loads(request.body)
        except ValueError:
            body = None
        if isinstance(body, dict) and "nonce" in body:
            body["nonce"] = next_nonce()
            request.prepare_body(data=json.dumps(body).encode("utf-8"), files=None)
    with requests.Session() as session:
        return session.send(request, allow_redirects=False, timeout=10)


@schemathesis.hook
def after_call(ctx: HookContext, case: Case, response: Response) -> None:
    """An error envelope under a success status is a refusal (x-error-envelope), judged as the status it stands for:
    401 for a secured operation called without credentials (RFC 9110 section 15.5.2), else 400."""
    if response.status_code < 400 and is_error_envelope(response.content):
        sent = {name.lower() for name in response.request.headers}
        unauthenticated = facts_of(case).get("secured") and not sent & set(FACTS["authHeaders"])
        response.status_code = 401 if unauthenticated else 400


@schemathesis.check
def promised_refusal(ctx: schemathesis.CheckContext, response: Response, case: Case) -> bool | None:
    """A request without credentials must be refused (x-provider-refuses on every security scheme we use); probed
    once per operation, after it accepted a request with them."""
    facts = facts_of(case)
    label = case.operation.label
    if not facts.get("secured") or label in _probed_without_credentials or response.status_code >= 300:
        return None
    _probed_without_credentials.add(label)
    bare = without_credentials(response)
    if bare.status_code < 300 and not is_error_envelope(bare.content):
        raise AssertionError(
            f"{label} accepted a request without credentials (status {bare.status_code}); the contract promises to"
            " refuse it"
        )
    return None
