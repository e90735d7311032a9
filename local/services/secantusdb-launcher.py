"""SecantusDB's own server (secantus.cli.main), with two fixes to its TTL monitor, a flag for its interval, and five
mends of its processor time, each in a module of its own: the index upkeep of secantusdb_index_upkeep.py (its writes
read the index catalog once a chunk, and an update rewrites only the entries of the indexes whose fields it changed),
WiredTiger's keys packed without parsing their format each time (secantusdb_key_packing.py), `$in` of strings
matched by a set (secantusdb_in_matching.py), documents copied by walking their dicts and lists rather than by
copy.deepcopy (secantusdb_document_copy.py), and a find with a limit in a compound index's order reading only the
first entries of its range (secantusdb_ordered_limit.py).

1. After each sweep the monitor waits 60 s on the same WiredTiger session, and a sweep can leave its read snapshot
   held there; WiredTiger then keeps every change made after it. About 9,000 inserts later, a server taking writes
   slowed to a crawl until the next sweep: history-shaped inserts from 8 writers fell from about 1,700 documents/s to
   132/s, the server 80% idle and its inserts sleeping in WiredTiger's __wt_page_in_func
   (test/processes/secantusdb-ttl-monitor.test.ts; docs/architecture.md, Storage). The server already releases the snapshot
   after every client request (Storage.release_thread_snapshot); this does the same after every sweep.

2. A sweep (Storage.prune_ttl) decodes every document of every collection with a TTL index, under the storage lock,
   to find the expired ones: with 50,000 live history entries one sweep held every other command for 1.0 s, and the
   pause grows by about 22 ms per 1,000 entries, once a minute. Here a sweep deletes what each TTL index's range
   {field: {$lt: now - expireAfterSeconds}} matches, through the server's own deleteMany, which finds them by that
   index, as MongoDB's TTL monitor does: 3 ms at 50,000 entries (test/processes/secantusdb-ttl-monitor.test.ts). An index outside
   that shape (compound, partial, on _id, an expireAfterSeconds that is not a usable number of seconds) leaves its
   collection to the original sweep.

3. `--ttl-sweep-seconds N` sets the monitor's interval (default 60 s, as mongod's): SecantusDB reads
   ttl_sweep_seconds from its TOML config but never hands it to its storage.

Written for the pinned 0.7.0b3 (local/services/secantusdb-install.ts). Every name is looked up here, at start, so that
a version without them stops the server at once rather than leaving every sweep failing in its log.
"""

import datetime
import sys

from secantus.cli import main
from secantus.storage import Storage

import secantusdb_document_copy
import secantusdb_in_matching
import secantusdb_index_upkeep
import secantusdb_key_packing
import secantusdb_ordered_limit

original_prune_ttl_all_collections = Storage.prune_ttl_all_collections
release_thread_snapshot = Storage.release_thread_snapshot
original_prune_ttl = Storage.prune_ttl
iter_indexes = Storage._iter_indexes
delete_matching = Storage.delete_matching


def prune_ttl_then_release_snapshot(self, *args, **kwargs):
    try:
        return original_prune_ttl_all_collections(self, *args, **kwargs)
    finally:
        release_thread_snapshot(self)


earliest_date = datetime.datetime(1, 1, 1, tzinfo=datetime.timezone.utc)


def expired_ranges(storage, db, coll, now):
    """The expired range of each TTL index of the collection, or None when one of them is not of the shape handled here."""
    when = now if now is not None else datetime.datetime.now(datetime.timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    ranges = []
    for _name, key_spec, options in iter_indexes(storage, db, coll):
        seconds = options.get("expireAfterSeconds")
        if seconds is None:
            continue
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < float("inf"):
            return None
        if len(key_spec) != 1 or options.get("partialFilterExpression"):
            return None
        field = next(iter(key_spec))
        if not isinstance(field, str) or field == "_id":
            return None
        try:
            cutoff = when - datetime.timedelta(seconds=float(seconds))
        except OverflowError:
            return None
        # Bounded below as well: from the start of the index, a range would also walk every entry that is not a date.
        ranges.append({field: {"$gte": earliest_date, "$lt": cutoff}})
    return ranges


def prune_ttl_by_index(self, db, coll, *, now=None):
    ranges = expired_ranges(self, db, coll, now)
    if ranges is None:
        return original_prune_ttl(self, db, coll, now=now)
    return sum(delete_matching(self, db, coll, expired) for expired in ranges)


Storage.prune_ttl_all_collections = prune_ttl_then_release_snapshot
Storage.prune_ttl = prune_ttl_by_index


def take_ttl_sweep_seconds(argv):
    """Removes --ttl-sweep-seconds N from argv, which SecantusDB's own parser would refuse, and answers N or None."""
    if "--ttl-sweep-seconds" not in argv:
        return None
    at = argv.index("--ttl-sweep-seconds")
    seconds = float(argv[at + 1])
    del argv[at : at + 2]
    return seconds


def with_ttl_sweep_seconds(seconds):
    original_init = Storage.__init__

    def init(self, *args, **kwargs):
        original_init(self, *args, **{**kwargs, "ttl_sweep_seconds": seconds})

    Storage.__init__ = init


if __name__ == "__main__":
    secantusdb_index_upkeep.apply()
    secantusdb_key_packing.apply()
    secantusdb_in_matching.apply()
    secantusdb_document_copy.apply()
    secantusdb_ordered_limit.apply()
    ttl_sweep_seconds = take_ttl_sweep_seconds(sys.argv)
    if ttl_sweep_seconds is not None:
        with_ttl_sweep_seconds(ttl_sweep_seconds)
    sys.exit(main())
