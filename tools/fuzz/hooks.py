"""The hooks module npm run fuzz hands schemathesis: each check or hook is a module of its own beside this one."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import error_contract  # noqa: E402,F401
import idempotency_keys  # noqa: E402,F401
import project_keys  # noqa: E402,F401
import webhook_endpoints  # noqa: E402,F401
