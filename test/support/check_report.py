"""The ending of the suite's Python checks: the first differences found, their count, and a non-zero exit on any."""

import sys


def report(differences):
    for difference in differences[:20]:
        print(difference)
    print(f"{len(differences)} differences")
    sys.exit(1 if differences else 0)
