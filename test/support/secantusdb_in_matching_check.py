"""Compares local/services/secantusdb_in_matching.py's op_matches with SecantusDB's own on `$in` lists that change in
place between matches (other strings, a number among them, emptied) and on more lists than it keeps sets for, each
matched against values of every kind a field holds. Prints the differences and exits non-zero on any. Run by
test/processes/secantusdb-in-matching.test.ts with SecantusDB's python."""

import sys
from pathlib import Path

from secantus import query

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "local" / "services"))

from check_report import report  # noqa: E402
from secantusdb_in_matching import kept_lists_limit, op_matches, original_op_matches  # noqa: E402

# A field's values as the matcher gets them: strings, other kinds, arrays of strings, and a missing field.
values_met = [["red"], ["blue"], ["Red"], ["é漢"], [""], [1], [None], [["red", "green"]], [["green"]], [query.MISSING]]


def differences_for(candidates, described):
    found = []
    for values in values_met:
        if op_matches(values, "$in", candidates) != original_op_matches(values, "$in", candidates):
            found.append(f"{described}: {values!r} in {candidates!r}")
    return found


def compare():
    differences = []
    changing = ["red", "green"]
    for step, change in enumerate(
        [
            lambda: None,
            lambda: changing.__setitem__(0, "blue"),
            lambda: changing.append("é漢"),
            lambda: changing.__setitem__(1, 1),
            lambda: changing.__setitem__(1, None),
            lambda: changing.clear(),
            lambda: changing.extend(["", "Red"]),
        ]
    ):
        change()
        differences += differences_for(changing, f"the list changed in place, step {step}")
    lists = [["red" if n % 2 else "blue", f"other-{n}"] for n in range(3 * kept_lists_limit)]
    for round_ in range(2):
        for candidates in lists:
            differences += differences_for(candidates, f"one of many lists, round {round_}")
    return differences


if __name__ == "__main__":
    report(compare())
