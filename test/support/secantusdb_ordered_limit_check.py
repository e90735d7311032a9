"""Compares local/services/secantusdb_ordered_limit.py's find with SecantusDB's own on random finds with a limit and a
sort over compound indexes (equalities, then one range operator, then the sort's fields, ascending and descending),
on documents whose ranged field holds dates, equal dates, numbers, nulls or nothing, strings under a descending key
or numbers the index does not keep in order, with ids of two types; and counts the documents each read fetches.
Prints the differences, then the most documents a find of the oldest 5 fetched from a range of 2,000, and exits
non-zero on any difference. Run by test/processes/secantusdb-ordered-limit.test.ts with SecantusDB's python."""

import datetime
import random
import sys
import tempfile
from pathlib import Path

from secantus.storage import Storage

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "local" / "services"))

import secantusdb_ordered_limit  # noqa: E402
from check_report import report  # noqa: E402

own_find = secantusdb_ordered_limit.original_find_matching
epoch = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
fetched = []
original_docs_by_recordids = Storage._docs_by_recordids


def counting_docs_by_recordids(self, db, coll, recordids):
    fetched.append(len(recordids))
    return original_docs_by_recordids(self, db, coll, recordids)


def at(seconds):
    return epoch + datetime.timedelta(seconds=seconds)


def due_value(generator):
    """A ranged field's value: mostly dates (a few shared), sometimes another type or none."""
    roll = generator.random()
    if roll < 0.05:
        return ("set", None)
    if roll < 0.08:
        return ("set", generator.randint(0, 50))
    if roll < 0.1:
        return ("unset", None)
    return ("set", at(generator.randint(0, 200)))


# Values whose order in an index is not the sort's: prefixes under a descending key, and numbers that the index rounds
# or clamps (a float beside a larger integer above 2**53, exponents beyond a byte).
names = ["", "a", "ab", "abc", "b", "ba"]
scores = [2.0**60, 2**60 + 1, 1e-200, 5, 1e300, 1e200, 0.5, 7]


def seed(storage, generator):
    storage.create_collection("check", "travellers")
    for keys in [
        {"state": 1, "dueAt": 1, "_id": 1},
        {"journey": 1, "state": 1, "at": -1},
        {"journey": 1, "name": -1, "_id": 1},
        {"journey": 1, "score": 1, "_id": 1},
    ]:
        storage.create_index("check", "travellers", "_".join(f"{field}_{order}" for field, order in keys.items()), keys)
    documents = []
    for n in range(600):
        # Some ids are numbers, which the index stores in another order than the sort's.
        document = {"_id": n if n % 23 == 0 else f"t-{n:04d}"}
        document["state"] = generator.choice(["due", "due", "running", "done"])
        document["journey"] = generator.choice(["j1", "j2"])
        kind, value = due_value(generator)
        if kind == "set":
            document["dueAt"] = value
        document["at"] = generator.randint(0, 40)
        document["name"] = generator.choice(names)
        document["score"] = generator.choice(scores)
        documents.append(document)
    storage.insert("check", "travellers", documents)


def random_find(generator):
    """A find with a limit and a sort that an index's order serves, or (now and then) one it does not."""
    limit = generator.choice([1, 2, 5, 50, 500, 1000])
    kind = generator.random()
    journey = generator.choice(["j1", "j2"])
    if kind < 0.5:
        ops = generator.choice([["$lte"], ["$lt"], ["$gte", "$lte"], ["$gt", "$lt"], ["$gte"]])
        bounds = sorted(generator.sample(range(0, 201), len(ops)))
        ranged = {op: at(bound) for op, bound in zip(ops, bounds)}
        if generator.random() < 0.1:
            ranged = {"$gte": generator.randint(0, 30)}
        sort = generator.choice([{"dueAt": 1, "_id": 1}, {"dueAt": 1}, {"dueAt": -1}, {"_id": 1}])
        return {"state": generator.choice(["due", "running", "absent"]), "dueAt": ranged}, sort, limit
    if kind < 0.7:
        ops = generator.choice([["$lte"], ["$gt"], ["$gte", "$lt"]])
        bounds = sorted(generator.sample(range(0, 41), len(ops)))
        ranged = {op: bound for op, bound in zip(ops, bounds)}
        sort = generator.choice([{"at": -1}, {"at": 1}, {"at": -1, "_id": 1}])
        return {"journey": journey, "state": "due", "at": ranged}, sort, limit
    if kind < 0.85:
        ranged = generator.choice([{"$lt": "z"}, {"$gte": ""}, {"$gt": "a"}])
        return {"journey": journey, "name": ranged}, generator.choice([{"name": -1, "_id": 1}, {"name": -1}]), limit
    ranged = generator.choice([{"$gt": 0}, {"$gte": 0}, {"$lt": 1e301}])
    return {"journey": journey, "score": ranged}, generator.choice([{"score": 1, "_id": 1}, {"score": 1}]), limit


def compare(rounds=300, seed_value=11):
    generator = random.Random(seed_value)
    differences = []
    with tempfile.TemporaryDirectory() as path:
        storage = Storage(path)
        try:
            seed(storage, generator)
            secantusdb_ordered_limit.apply()
            for _ in range(rounds):
                filter, sort, limit = random_find(generator)
                projection = generator.choice([None, {"_id": 1, "dueAt": 1}])
                options = {"sort": sort, "limit": limit, "projection": projection, "let": {"NOW": epoch}}
                ours = storage.find_matching("check", "travellers", filter, **options)
                theirs = own_find(storage, "check", "travellers", filter, **options)
                if ours != theirs:
                    found = f"{len(ours)} found, SecantusDB {len(theirs)}"
                    differences.append(f"{filter!r} {sort!r} limit {limit}: {found}")
            storage.create_collection("check", "backlog")
            storage.create_index("check", "backlog", "state_1_dueAt_1__id_1", {"state": 1, "dueAt": 1, "_id": 1})
            backlog = [{"_id": f"b-{n:04d}", "state": "due", "dueAt": at(n)} for n in range(2000)]
            storage.insert("check", "backlog", backlog)
            Storage._docs_by_recordids = counting_docs_by_recordids
            oldest = storage.find_matching(
                "check", "backlog", {"state": "due", "dueAt": {"$lte": at(5000)}}, sort={"dueAt": 1, "_id": 1}, limit=5
            )
            if [document["_id"] for document in oldest] != [f"b-{n:04d}" for n in range(5)]:
                differences.append(f"the oldest 5 of the backlog: {[document['_id'] for document in oldest]!r}")
        finally:
            Storage._docs_by_recordids = original_docs_by_recordids
            storage.close()
    return differences


if __name__ == "__main__":
    found = compare()
    print(f"most documents fetched by a find of the oldest 5 of 2,000: {max(fetched, default=0)}")
    report(found)
