"""`$in` of strings matched by a set lookup, applied by secantusdb-launcher.py.

SecantusDB matches `{field: {$in: [...]}}` by comparing each value of the field with each candidate in turn, through
its numeric-aware equality: a claim of journey travellers by `_id: {$in: [100 ids]}` made a hundred comparisons for
each document the index found, a third of the claim's processor time. When every candidate is a string and no
collation applies, a string value equals a candidate exactly when it is the same string (no other type equals a
string), so the candidates are looked up in a set. A command matches every document it reads against the same list,
so the set is made once for a list and kept beside a copy of it; a list that no longer equals its copy gets its set
made again, so a match always follows the filter as it stands. Only values that are strings, or arrays of strings
(matched through their elements, as SecantusDB does), take that path; any other value, candidate or operator goes to
SecantusDB's own matcher (test/processes/secantusdb-in-matching.test.ts, test/support/secantusdb_in_matching_check.py).
"""

from secantus import query

original_op_matches = query._op_matches

# Lists of candidates seen lately, by id: (the list, a copy of it, its set of strings or None). Holding the list keeps
# its id from being reused while it is kept. The server's threads share it: an entry is written whole and checked
# against the list when read, so two threads at once at worst make a set twice.
kept_sets = {}
kept_lists_limit = 256


def strings_of(candidates):
    """The candidates as a set when every one is a string, else None."""
    kept = kept_sets.get(id(candidates))
    if kept is not None and kept[0] is candidates and kept[1] == candidates:
        return kept[2]
    strings = frozenset(candidates) if all(type(candidate) is str for candidate in candidates) else None
    if len(kept_sets) >= kept_lists_limit:
        kept_sets.clear()
    kept_sets[id(candidates)] = (candidates, list(candidates), strings)
    return strings


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
    if op == "$in" and collation is None and type(arg) is list and arg and type(arg[0]) is str:
        strings = strings_of(arg)
        if strings is not None:
            matched = in_by_set(values, strings, descend)
            if matched is not None:
                return matched
    return original_op_matches(values, op, arg, collation, field=field, descend=descend)


def apply():
    query._op_matches = op_matches
