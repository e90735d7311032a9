"""Schemathesis hooks for npm run fuzz: the operations on one webhook always name an endpoint that exists.

The configuration gives them the endpoint created before the run; the first DELETE that succeeds removes it, and every
later example would be answered 404, short of the code behind it. After such a DELETE a new endpoint is created, and
every case naming the configured endpoint is sent to the newest one instead. Other ids are sent as drawn.
"""
import json
import os
import urllib.request

import schemathesis

configured_id = os.environ["FUZZ_WEBHOOK_ID"]
current_id = configured_id


def names_one_webhook(case):
    return "/webhooks/{id}" in case.operation.path


def create_endpoint():
    request = urllib.request.Request(
        f"{os.environ['FUZZ_BASE_URL']}/v1/projects/{os.environ['FUZZ_PROJECT_ID']}/webhooks",
        data=json.dumps({"url": "https://hooks.example.com/fuzz", "events": ["message.failed"]}).encode(),
        headers={"Authorization": f"Bearer {os.environ['FUZZ_API_KEY']}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["data"]["id"]


@schemathesis.hook
def before_call(context, case, **kwargs):
    if names_one_webhook(case) and (case.path_parameters or {}).get("id") == configured_id:
        case.path_parameters["id"] = current_id


@schemathesis.hook
def after_call(context, case, response):
    global current_id
    deleted = case.method.upper() == "DELETE" and 200 <= response.status_code < 300
    if names_one_webhook(case) and deleted and (case.path_parameters or {}).get("id") == current_id:
        current_id = create_endpoint()
