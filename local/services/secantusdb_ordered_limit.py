"""A find with a limit, sorted in the order of the compound index that serves its range, reads only the first `limit`
entries of that range; applied by secantusdb-launcher.py.

SecantusDB answers `find({state: 'due', dueAt: {$lte: now}}).sort({dueAt: 1, _id: 1}).limit(500)` by reading every
entry of the range on {state, dueAt, _id}, fetching and decoding every document, matching, sorting and only then
cutting to the limit, so a read of the oldest 500 costs the whole range. MongoDB walks the index in order and stops at
the limit. Here the range scan stops after `limit` entries, and SecantusDB matches, sorts and cuts what it found as
before, for finds where the index's order is exactly the sort's:
- the filter is equalities on the index's first fields and one range, with dates for bounds, on the next (the shape
  SecantusDB walks a compound index for: Storage._try_compound_range_id_keys);
- the sort is that field, then possibly `_id`, both ascending as in the index, which is not multikey;
- the `_id`s found are strings or ObjectIds.
Dates, strings and ObjectIds are stored in the index in their sort order; a descending field, or numbers (large
integers beside floats, extreme exponents), are not, so those finds keep SecantusDB's whole read. A find whose
documents found are fewer than `limit` after matching, or hold another kind of `_id`, runs again without the stop, so
the answer is always SecantusDB's own (test/processes/secantusdb-ordered-limit.test.ts).
"""

import threading
from datetime import datetime

import wiredtiger as wt
from bson import ObjectId
from secantus.storage import _ENTRY_SEP, _IDX_ENTRIES_TABLE, Storage, _escape_kb, _unpack_entry

original_find_matching = Storage.find_matching
original_range_scan_index = Storage._range_scan_index

# Each client connection is served by a thread of its own, one command at a time.
scan = threading.local()


def ordered_index(storage, db, coll, filter, sort):
    """The index whose range scan yields the find's documents in its sort order, or None."""
    parts = storage._partition_compound_range_filter(filter)
    if parts is None:
        return None
    eq_fields, operator_field, operator_ops = parts
    if not all(op in ("$gt", "$gte", "$lt", "$lte") and type(bound) is datetime for op, bound in operator_ops.items()):
        return None
    picked = storage._pick_compound_range_index(db, coll, filter)
    if picked is None:
        return None
    name, key_spec = picked
    fields = list(key_spec)
    after_equalities = fields[len(eq_fields) :]
    sorted_by = list(sort.items())
    if not after_equalities or after_equalities[0] != operator_field or len(sorted_by) > len(after_equalities):
        return None
    for position, ((field, direction), index_field) in enumerate(zip(sorted_by, after_equalities)):
        if field != index_field or (position > 0 and field != "_id"):
            return None
        if type(direction) is not int or direction != 1 or int(key_spec[index_field]) != 1:
            return None
    if storage.index_is_multikey(db, coll, name):
        return None
    return name


def ids_in_index_order(found):
    """Whether every document found has an `_id` the index stores in its sort order."""
    return all(type(document.get("_id")) in (str, ObjectId) for document in found)


def find_matching_ordered(self, db, coll, filter=None, **options):
    limit = options.get("limit", 0)
    sort = options.get("sort")
    # `let` is not among them: the find command always passes its variables, which only an `$expr` reads, and a filter
    # of the shape served here has none.
    plain = not any(options.get(key) for key in ("skip", "hint", "collation", "min_bound", "max_bound"))
    if not (plain and filter and sort and isinstance(limit, int) and limit > 0):
        return original_find_matching(self, db, coll, filter, **options)
    scan.stop = (db, coll, limit, filter, sort)
    scan.stopped = False
    try:
        found = original_find_matching(self, db, coll, filter, **options)
    finally:
        scan.stop = None
    if scan.stopped and (len(found) < limit or not ids_in_index_order(found)):
        return original_find_matching(self, db, coll, filter, **options)
    return found


def range_scan_index_stopping(self, db, coll, name, lower, lower_inclusive, upper, upper_inclusive, *, prefix=None):
    """SecantusDB's _range_scan_index, stopping after the find's limit of entries when it scans the find's index."""
    stop = getattr(scan, "stop", None)
    # The index is judged here, under the storage lock the scan runs under, so that no write can make it multikey or
    # replace it under the same name between the judgement and the scan.
    if (
        stop is None
        or prefix is None
        or stop[:2] != (db, coll)
        or ordered_index(self, db, coll, stop[3], stop[4]) != name
    ):
        return original_range_scan_index(
            self, db, coll, name, lower, lower_inclusive, upper, upper_inclusive, prefix=prefix
        )
    limit = stop[2]
    c = self._cursor(_IDX_ENTRIES_TABLE)
    esc_prefix = _escape_kb(prefix)
    esc_lower = _escape_kb(lower) if lower is not None else None
    esc_upper = _escape_kb(upper) if upper is not None else None
    c.set_key(db, coll, name, esc_lower + _ENTRY_SEP if esc_lower is not None else esc_prefix)
    rc = c.search_near()
    if rc == wt.WT_NOTFOUND:
        return []
    if rc < 0 and c.next() != 0:
        return []
    out = []
    while True:
        k = c.get_key()
        if (k[0], k[1], k[2]) != (db, coll, name):
            break
        row_esc, row_id = _unpack_entry(bytes(k[3]))
        if not row_esc.startswith(esc_prefix):
            break
        skipped = esc_lower is not None and not lower_inclusive and row_esc == esc_lower
        if not skipped:
            if esc_upper is not None and (row_esc > esc_upper if upper_inclusive else row_esc >= esc_upper):
                break
            if row_id is not None:
                if len(out) == limit:
                    scan.stopped = True
                    break
                out.append(row_id)
        if c.next() != 0:
            break
    return out


def apply():
    Storage.find_matching = find_matching_ordered
    Storage._range_scan_index = range_scan_index_stopping
