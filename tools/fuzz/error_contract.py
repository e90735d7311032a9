"""A schemathesis check for npm run fuzz: every error answer follows CONTRACTS §1."""
import re

import schemathesis

# CONTRACTS §1.
CODE_FOR_STATUS = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "rate_limited",
    500: "internal",
    503: "unavailable",
}


@schemathesis.check
def error_body_follows_contract(ctx, response, case):
    """An error is {"error": {"code", "message", "details"?}} with the code CONTRACTS gives its status."""
    if response.status_code < 400:
        return None
    try:
        body = response.json()
    except Exception as error:
        raise AssertionError(f"{response.status_code} answered a body that is not JSON: {response.text[:200]!r}") from error
    if not isinstance(body, dict) or set(body) != {"error"} or not isinstance(body["error"], dict):
        raise AssertionError(f"error body is not {{\"error\": {{...}}}}: {body!r}"[:500])
    error = body["error"]
    unknown = set(error) - {"code", "message", "details"}
    if unknown:
        raise AssertionError(f"error carries fields CONTRACTS does not name: {sorted(unknown)}")
    expected = CODE_FOR_STATUS.get(response.status_code)
    if expected is None:
        raise AssertionError(f"status {response.status_code} is not one CONTRACTS §1 lists")
    if error.get("code") != expected:
        raise AssertionError(f"status {response.status_code} must carry code {expected!r}, got {error.get('code')!r}")
    if not isinstance(error.get("message"), str) or not error["message"].strip():
        raise AssertionError("error.message must be a non-empty sentence")
    details = error.get("details")
    if details is not None:
        if not isinstance(details, list) or not all(
            isinstance(d, dict) and set(d) == {"path", "message"} and isinstance(d["path"], str) and isinstance(d["message"], str)
            for d in details
        ):
            raise AssertionError(f"error.details must be [{{\"path\", \"message\"}}]: {details!r}"[:500])
        if any(d["path"] and not re.match(r"^/", d["path"]) for d in details):
            raise AssertionError(f"error.details paths are JSON pointers: {details!r}"[:500])
    if response.status_code == 429 and "retry-after" not in {name.lower() for name in response.headers}:
        raise AssertionError("429 without Retry-After")
    return None
