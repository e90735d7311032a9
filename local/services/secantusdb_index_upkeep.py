"""Two mends to SecantusDB's index upkeep on writes, applied by secantusdb-launcher.py.

1. The index catalog is read once per attempt at a write chunk. SecantusDB reads a collection's index catalog from
   WiredTiger and decodes every index's BSON again several times for each document it writes (the unique-key probe and
   the entry writer each ask for every index's options). An attempt is one WiredTiger transaction, whose snapshot the
   catalog is read through anyway, so the catalog cannot change under it except by the attempt itself marking an index
   multikey, after which it is read again. A write conflict rolls the attempt back and SecantusDB runs it again from
   the start: the next attempt reads the catalog afresh, since an index may have been built meanwhile, and a marking
   the rollback undid is made again.

2. An update rewrites only the entries of the indexes whose fields it changed, as MongoDB does. SecantusDB deletes and
   writes again every entry of every index of each document it updates: unsubscribing a device rewrote its tags'
   wildcard entries too. An index is kept when each top-level field its keys read is byte-for-byte the same BSON before
   and after the update; a partial, hashed, text or geo index, or a wildcard of every field, is always rewritten.

Both hold only inside one attempt of the write paths named below; every other caller gets SecantusDB's own behaviour.
"""

import functools
import threading

import bson
from secantus.storage import Storage, _retry_write_conflicts

original_iter_indexes = Storage._iter_indexes
original_mark_multikey = Storage._maybe_mark_multikey
original_delete_index_entries = Storage._delete_index_entries
original_write_index_entries = Storage._write_index_entries
original_enforce_capped_bounds = Storage._enforce_capped_bounds_locked

# Each client connection is served by a thread of its own, one command at a time.
chunk = threading.local()
absent = object()


def iter_indexes_once_per_chunk(self, db, coll):
    read = getattr(chunk, "catalog", None)
    if read is None:
        return original_iter_indexes(self, db, coll)
    indexes = read.get((db, coll))
    if indexes is None:
        indexes = read[(db, coll)] = list(original_iter_indexes(self, db, coll))
    return iter(indexes)


def mark_multikey_then_reread(self, db, coll, doc, indexes, already_multikey):
    before = len(already_multikey)
    marked = original_mark_multikey(self, db, coll, doc, indexes, already_multikey)
    read = getattr(chunk, "catalog", None)
    if read is not None and len(marked) != before:
        read.pop((db, coll), None)
    return marked


def with_chunk_state(method, **state):
    """`method`, run with the thread's chunk state set for the call (each value made afresh by its function) and the
    caller's given back after it."""

    @functools.wraps(method)
    def scoped(self, *args, **kwargs):
        saved = {name: getattr(chunk, name, None) for name in state}
        for name, make in state.items():
            setattr(chunk, name, make())
        try:
            return method(self, *args, **kwargs)
        finally:
            for name, value in saved.items():
                setattr(chunk, name, value)

    return scoped


def fields_read(key_spec):
    """The top-level fields an index's keys read, or None when its entries are not a plain function of them."""
    fields = []
    for path, kind in key_spec.items():
        if not isinstance(path, str) or path.startswith("$"):
            return None
        if path.endswith(".$**"):
            path = path[: -len(".$**")]
        elif isinstance(kind, bool) or not isinstance(kind, (int, float)):
            return None
        fields.append(path.split(".", 1)[0])
    return fields


def same_field(before, after, field):
    old = before.get(field, absent)
    new = after.get(field, absent)
    if old is absent or new is absent:
        return old is new
    return bson.encode({"v": old}) == bson.encode({"v": new})


def indexes_changed(before, after, indexes, partials):
    changed = []
    for index in indexes:
        name, key_spec = index[0], index[1]
        fields = None if partials.get(name) else fields_read(key_spec)
        if fields is None or not all(same_field(before, after, field) for field in fields):
            changed.append(index)
    return changed


def delete_entries_after_the_update(self, db, coll, doc, indexes, partials=None, *, recordid):
    """In an update, the old document's entries go when the new one's are written (update paths: delete, row, write)."""
    if getattr(chunk, "updating", False):
        chunk.replaced = (db, coll, doc, indexes, partials, recordid)
        return None
    return original_delete_index_entries(self, db, coll, doc, indexes, partials, recordid=recordid)


def write_changed_entries(self, db, coll, doc, indexes, partials=None, *, recordid):
    replaced = getattr(chunk, "replaced", None)
    if replaced is None:
        return original_write_index_entries(self, db, coll, doc, indexes, partials, recordid=recordid)
    chunk.replaced = None
    old_db, old_coll, before, old_indexes, old_partials, old_recordid = replaced
    if (old_db, old_coll, old_recordid) != (db, coll, recordid) or old_indexes is not indexes:
        original_delete_index_entries(self, old_db, old_coll, before, old_indexes, old_partials, recordid=old_recordid)
        return original_write_index_entries(self, db, coll, doc, indexes, partials, recordid=recordid)
    if partials is None:
        partials = self._partial_filters(db, coll)
    changed = indexes_changed(before, doc, indexes, partials)
    original_delete_index_entries(self, db, coll, before, changed, partials, recordid=recordid)
    return original_write_index_entries(self, db, coll, doc, changed, partials, recordid=recordid)


def within_each_attempt(name, **state):
    """Sets the chunk state inside SecantusDB's retry of the write (which keeps the attempt as `__wrapped__`): a write
    conflict rolls an attempt back, and the next starts with none of its catalog or deferred delete."""
    attempt = getattr(Storage, name).__wrapped__
    setattr(Storage, name, _retry_write_conflicts(with_chunk_state(attempt, **state)))


def apply():
    Storage._iter_indexes = iter_indexes_once_per_chunk
    Storage._maybe_mark_multikey = mark_multikey_then_reread
    Storage._delete_index_entries = delete_entries_after_the_update
    Storage._write_index_entries = write_changed_entries
    # A capped collection's eviction deletes documents inside an update's transaction: their entries go at once.
    Storage._enforce_capped_bounds_locked = with_chunk_state(original_enforce_capped_bounds, updating=lambda: False)
    # Each attempt is one WiredTiger transaction under the collection's lock (a chunk of a many-document write).
    for name in ("_insert_chunk", "_delete_chunk", "_delete_matching_single_txn"):
        within_each_attempt(name, catalog=dict)
    # An update path pairs a delete of a row's entries with the write that follows it for the same row; one left
    # unpaired (the row's write failed) goes with its attempt, whose transaction rolls back.
    for name in ("_update_chunk", "_update_matching_single_txn"):
        within_each_attempt(name, catalog=dict, updating=lambda: True, replaced=lambda: None)
