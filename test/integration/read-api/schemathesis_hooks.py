# What the read API's OpenAPI document cannot say in JSON Schema and states in its descriptions:
# `from` ≤ `to` and at most 366 days. Schema-valid pairs that break it are made to keep it, so that
# Schemathesis' positive cases are valid requests; the rule itself is tested in the project's own
# tests (a 400 naming `to`). Anything that is not a pair of dates is left as generated.
from datetime import date, timedelta

import schemathesis

LAST_DAY = date(2099, 12, 31)


@schemathesis.hook
def map_query(ctx, query):
    if not isinstance(query, dict):
        return query
    try:
        first, last = date.fromisoformat(query["from"]), date.fromisoformat(query["to"])
    except (KeyError, TypeError, ValueError):
        return query
    if last < first:
        first, last = last, first
    last = min(last, first + timedelta(days=365), LAST_DAY)
    return {**query, "from": first.isoformat(), "to": last.isoformat()}
