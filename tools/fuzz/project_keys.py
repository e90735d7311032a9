"""Schemathesis hooks for npm run fuzz: each call carries the key its route takes, of the project its path names.

The server API key on /v1/projects, the client key on /v1/sdk; key rotation has a project of its own, whose key
changes with every successful rotation. Keys are set here rather than as configured headers: schemathesis keeps the
configured headers of the first operation it tests on the session every later operation shares.

Schemathesis applies authentication when it generates a case, and generates a phase's cases before calling them, so
a rotation case may carry a key revoked since: it is swapped for the current one right before the call. Cases
generated without a key, or with a malformed one, keep theirs.
"""
import os
import re

import schemathesis

ROTATE_PATH = "/keys/rotate$"
server_key = os.environ["FUZZ_API_KEY"]
client_key = os.environ["FUZZ_CLIENT_KEY"]
rotation_keys = [os.environ["FUZZ_ROTATION_API_KEY"]]


def bearer(key):
    return f"Bearer {key}"


def is_rotation(operation):
    return re.search(ROTATE_PATH, operation.path) is not None


@schemathesis.auth(refresh_interval=None).apply_to(path_regex="^/v1/(projects|sdk)(/|$)")
class ProjectKeys:
    def get(self, case, context):
        if is_rotation(context.operation):
            return rotation_keys[-1]
        return client_key if context.operation.path.startswith("/v1/sdk/") else server_key

    def set(self, case, data, context):
        case.headers = {**(case.headers or {}), "Authorization": bearer(data)}


@schemathesis.hook
def before_call(context, case, **kwargs):
    if not is_rotation(case.operation) or not case.headers:
        return
    if case.headers.get("Authorization") in {bearer(key) for key in rotation_keys}:
        case.headers["Authorization"] = bearer(rotation_keys[-1])


@schemathesis.hook
def after_call(context, case, response):
    if is_rotation(case.operation) and response.status_code == 200:
        rotation_keys.append(response.json()["data"]["apiKey"])
