"""Compares local/services/secantusdb_document_copy.py's document_copy with copy.deepcopy on random BSON documents:
equal to the original and to deepcopy's copy, of the same types throughout, sharing no dict or list with the original
(a change to the copy leaves the original as it was), and a value of another kind copied by deepcopy. Prints the
differences and exits non-zero on any. Run by test/processes/secantusdb-document-copy.test.ts with SecantusDB's
python."""

import copy
import datetime
import random
import sys
from pathlib import Path

import bson

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "local" / "services"))

from secantus import aggregate, projection, update  # noqa: E402
from secantusdb_document_copy import apply, document_copy  # noqa: E402
from check_report import report  # noqa: E402


def typed(value):
    """The value with the type of each of its parts, so that 1 and 1.0, or bytes and Binary, differ."""
    if type(value) is dict:
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if type(value) is list:
        return ("list", [typed(item) for item in value])
    return (type(value).__name__, value)


def containers(value):
    """The ids of every dict and list in the value."""
    if type(value) is dict:
        return {id(value)}.union(*(containers(item) for item in value.values()))
    if type(value) is list:
        return {id(value)}.union(*(containers(item) for item in value))
    return set()


def random_document(generator, depth=0):
    leaves = [
        lambda: generator.choice(["", "a", "é漢", "x" * 50]),
        lambda: generator.randint(-(2**31), 2**31),
        lambda: bson.Int64(generator.randint(-(2**62), 2**62)),
        lambda: generator.random(),
        lambda: generator.random() < 0.5,
        lambda: None,
        lambda: generator.randbytes(5),
        lambda: bson.Binary(generator.randbytes(16), 4),
        lambda: datetime.datetime(2026, 1, 1) + datetime.timedelta(seconds=generator.randint(0, 10**8)),
        lambda: bson.ObjectId(),
        lambda: bson.Decimal128("1.50"),
        lambda: bson.Timestamp(generator.randint(1, 10**9), 1),
        lambda: bson.MinKey(),
        lambda: bson.MaxKey(),
        lambda: bson.Regex("^a", "i"),
        lambda: bson.Code("f()", {"scope": [1]}),
        lambda: bson.DBRef("devices", "d1"),
    ]

    def value(level):
        roll = generator.random()
        if level < 4 and roll < 0.2:
            return {f"k{n}": value(level + 1) for n in range(generator.randint(0, 4))}
        if level < 4 and roll < 0.35:
            return [value(level + 1) for _ in range(generator.randint(0, 4))]
        return generator.choice(leaves)()

    return {"_id": f"doc-{generator.random()}", **{f"f{n}": value(depth) for n in range(generator.randint(1, 8))}}


def compare(rounds=3_000, seed=11):
    generator = random.Random(seed)
    differences = []
    for _ in range(rounds):
        document = random_document(generator)
        # Through BSON, as the server reads a stored document.
        document = bson.decode(bson.encode(document))
        before = bson.encode(document)
        copied = document_copy(document)
        if typed(copied) != typed(copy.deepcopy(document)) or copied != document:
            differences.append(f"copy differs: {document!r}")
        if containers(copied) & containers(document):
            differences.append(f"copy shares a dict or list: {document!r}")
        copied["changed"] = [1]
        for item in copied.values():
            if type(item) is dict:
                item["changed"] = 1
            elif type(item) is list:
                item.append("changed")
        if bson.encode(document) != before:
            differences.append(f"original changed through its copy: {document!r}")
    shared = ["a", {"b": 1}]
    twice = {"one": shared, "two": shared}
    copied_twice = document_copy(twice)
    apart = copied_twice["one"] is not copied_twice["two"] and not containers(copied_twice) & containers(twice)
    if copied_twice != twice or not apart:
        differences.append("a list held at two places was not copied into two new lists")
    ordered = bson.SON([("b", 1), ("a", [1])])
    copied_ordered = document_copy({"son": ordered})["son"]
    if type(copied_ordered) is not bson.SON or list(copied_ordered.items()) != list(ordered.items()):
        differences.append("a SON was not copied as one")
    if copied_ordered["a"] is ordered["a"]:
        differences.append("a SON's list was shared with its copy")
    apply()
    for module in (aggregate, projection, update):
        if module.copy.deepcopy is not document_copy or module.copy.copy is not copy.copy:
            differences.append(f"{module.__name__} does not copy documents with document_copy once applied")
    scoped = bson.Code("f()", {"scope": [1]})
    copied_code = document_copy({"code": scoped})["code"]
    if copied_code.scope is scoped.scope or copied_code.scope != scoped.scope:
        differences.append("a Code's scope was not copied by deepcopy")
    return differences


if __name__ == "__main__":
    report(compare())
