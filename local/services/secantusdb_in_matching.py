"""`$in` of strings matched by a set lookup, applied by secantusdb-launcher.py.

SecantusDB matches `{field: {$in: [...]}}` by comparing each value of the field with each candidate in turn, through
its numeric-aware equality: a claim of journey travellers by `_id: {$in: [100 ids]}` made a hundred comparisons for
each document the index found, a third of the claim's processor time. When every candidate is a string and no
collation applies, a string value equals a candidate exactly when it is the same string (no other type equals a
string), so the candidates are looked up in a set: made for each document matched, a few microseconds against a
hundred comparisons, and always from the filter as it stands. Only values that are strings, or arrays of
strings (matched through their elements, as SecantusDB does), take that path; any other value, candidate or operator
goes to SecantusDB's own matcher (test/processes/secantusdb-in-matching.test.ts).
"""

from secantus import query

original_op_matches = query._op_matches


def in_by_set(values, strings, descend):
    """Whether a value is one of `strings`; None when a value is of a kind left to SecantusDB's matcher."""
    for value in values:
        kind = type(value)
        if kind is str:
            if value in strings:
                return True
        elif kind is list and descend and all(type(element) is str for element in value):
            if not strings.isdisjoint(value):
                return True
        elif value is not query.MISSING:
            return None
    return False


def op_matches(values, op, arg, collation=None, *, field="", descend=True):
    if op == "$in" and collation is None and type(arg) is list and all(type(candidate) is str for candidate in arg):
        matched = in_by_set(values, frozenset(arg), descend)
        if matched is not None:
            return matched
    return original_op_matches(values, op, arg, collation, field=field, descend=descend)


def apply():
    query._op_matches = op_matches
