"""Schemathesis hooks written by `contracts schemathesis <api>`: they read our contract's words.

The facts come from contract-facts.json beside this file (written from the same bundle, never edited by hand):
- pay: every body carries the shop id and a fresh nonce and is signed (HMAC-SHA256 of the exact bytes, keyed with
  PAY_SECRET, sent as `Authorization: Bearer <hex>`); nonces follow the mode of `contracts schemathesis --nonce`, as
  `contracts conform --nonce` does: by default "seconds", the current Unix time in whole seconds, strictly
  increasing, waiting for the next second when needed, never ahead of the clock;
- catalog: each write gets a fresh Idempotency-Key, so that no two bodies share one;
- identity: a logout never carries a generated id_token_hint (only the provider can issue one), and a token request
  carries the registered client's id and secret (IDENTITY_CLIENT_ID, IDENTITY_CLIENT_SECRET) where it has the fields;
- checks: an error envelope in HTTP 200 is a refusal (x-error-envelope), and a promised refusal (x-provider-refuses:
  no credentials or a wrong one) must be refused.
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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import schemathesis
from requests.structures import CaseInsensitiveDict
from schemathesis import Case, Response
from schemathesis.hooks import HookContext

# The pinned release's own probe (its ignored_auth sends with it): rate-limited and reported as the run's requests are.
from schemathesis.specs.openapi._auth_retry import send_probe
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
    # A negative case without the Authorization header tests exactly that refusal: it stays unsigned. Header names
    # are case-insensitive (RFC 9110 section 5.1), whatever spelling the config or the schema gave them.
    if any(name.lower() == "authorization" for name in get_exclude_headers(case)):
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
    # The registered client's credentials where a generated form carries the field (a case without it stays so).
    for field, variable in facts.get("bodyCredentials", {}).items():
        if isinstance(case.body, dict) and field in case.body and variable in os.environ:
            case.body[field] = os.environ[variable]
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


_probed: set[str] = set()


def wrong_credential(value: str) -> str:
    """A credential of the same form that nobody issued: its scheme kept (`Bearer`), its secret replaced."""
    scheme, space, _secret = value.rpartition(" ")
    return f"{scheme}{space}wrong{uuid.uuid4().hex}"


def is_credential(header: str) -> bool:
    """Whether a header carries a credential of the API (header names are case-insensitive, RFC 9110 section 5.1)."""
    return header.lower() in FACTS["authHeaders"]


def credential_probes(case: Case, sent: Mapping[str, str]) -> dict[str, Case]:
    """The request `case` sent (with the headers `sent`), once without credentials and once with wrong ones: only
    the credentials change (pay: a fresh nonce too, so that the nonce is never at fault)."""
    credentials = {name: value for name, value in sent.items() if is_credential(name)}
    without = CaseInsensitiveDict({k: v for k, v in (case.headers or {}).items() if not is_credential(k)})
    wrong = CaseInsensitiveDict({**without, **{name: wrong_credential(value) for name, value in credentials.items()}})
    probes = {
        "without credentials": case.derive(headers=without),
        "with a wrong credential": case.derive(headers=wrong),
    }
    for probe in probes.values():
        if FACTS["api"] == "pay" and isinstance(probe.body, dict) and "nonce" in probe.body:
            probe.body["nonce"] = next_nonce()
    return probes


@schemathesis.hook
def after_call(ctx: HookContext, case: Case, response: Response) -> None:
    """An error envelope under a success status is a refusal (x-error-envelope), judged as the status it stands for:
    401 for a secured operation called without credentials (RFC 9110 section 15.5.2), else 400."""
    if response.status_code < 400 and is_error_envelope(response.content):
        unauthenticated = facts_of(case).get("secured") and not any(map(is_credential, response.request.headers))
        response.status_code = 401 if unauthenticated else 400


@schemathesis.check
def promised_refusal(ctx: schemathesis.CheckContext, response: Response, case: Case) -> bool | None:
    """A request without credentials, or with a wrong one, must be refused (x-provider-refuses on every security
    scheme we use, as `contracts conform`'s ignored_auth reads it, whatever the status or an error envelope); probed
    once per operation, after it accepted a request with the right ones. The probes go out as Schemathesis's own
    ignored_auth sends its: within the run's rate limit, and in its reports as children of the case."""
    facts = facts_of(case)
    label = case.operation.label
    if not facts.get("secured") or label in _probed or response.status_code >= 300:
        return None
    _probed.add(label)
    for what, probe in credential_probes(case, response.request.headers).items():
        answer = send_probe(ctx, case, probe)
        if answer.status_code < 300 and not is_error_envelope(answer.content):
            raise AssertionError(
                f"{label} accepted a request {what} (status {answer.status_code}); the contract promises to refuse it"
            )
    return None
