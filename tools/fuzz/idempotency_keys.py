"""Schemathesis hooks for npm run fuzz: an Idempotency-Key is sent again only with the body it was first sent with.

A key sent again with another body within its window is refused with a 400 (CONTRACTS), whatever else the request
holds, and schemathesis draws the same few keys ("0") for many bodies: most of its valid requests to the routes that
take a key stopped there. A valid key seen before with another body gets a suffix that makes it new; a repeat with the
same body keeps its key and is answered as the first was, and a key that is not valid is sent as drawn.
"""
import json
from itertools import count

import schemathesis

HEADER = "idempotency-key"
MAX_KEY_LENGTH = 255
bodies_by_key = {}
suffixes = count(1)


def body_of(case):
    return json.dumps(case.body, sort_keys=True, default=repr)


@schemathesis.hook
def before_call(context, case, **kwargs):
    for name, key in list((case.headers or {}).items()):
        if name.lower() != HEADER or not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY_LENGTH:
            continue
        body = body_of(case)
        if bodies_by_key.setdefault(key, body) != body:
            key = f"{key[: MAX_KEY_LENGTH - 21]}-{next(suffixes)}"
            case.headers[name] = key
            bodies_by_key[key] = body
