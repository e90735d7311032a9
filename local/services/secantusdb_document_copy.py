"""Documents copied by walking their dicts and lists, applied by secantusdb-launcher.py.

SecantusDB copies a document with `copy.deepcopy` before each update applies to it, and in the stages of a pipeline
update, projections and aggregations. A stored document is what BSON decodes to: dicts, lists and values that nothing
changes in place (strings, numbers, dates, ids, binary data), so its copy is a new dict or list at each level holding
the same leaves, without deepcopy's copier lookup and memo for every value. Any other value (a dict subclass, a Code
with its scope, a DBRef, an object of SecantusDB's own) is copied by `copy.deepcopy`. A dict or list held at two places
of a value becomes two copies, as BSON makes of it (test/processes/secantusdb-document-copy.test.ts)."""

import copy
import datetime

import bson
from secantus import aggregate, projection, update

shared_kinds = frozenset(
    {
        str,
        int,
        float,
        bool,
        type(None),
        bytes,
        datetime.datetime,
        bson.Binary,
        bson.Decimal128,
        bson.Int64,
        bson.MaxKey,
        bson.MinKey,
        bson.ObjectId,
        bson.Timestamp,
    }
)


def document_copy(value):
    """A copy of a BSON value whose dicts and lists are new and whose leaves are shared; copy.deepcopy for the rest."""
    kind = type(value)
    if kind is dict:
        return {key: document_copy(item) for key, item in value.items()}
    if kind is list:
        return [document_copy(item) for item in value]
    if kind in shared_kinds:
        return value
    return copy.deepcopy(value)


class CopyForDocuments:
    """The copy module as SecantusDB's update, aggregation and projection modules see it: deepcopy is document_copy."""

    deepcopy = staticmethod(document_copy)

    def __getattr__(self, name):
        return getattr(copy, name)


def apply():
    for module in (aggregate, projection, update):
        if module.copy is not copy:
            raise RuntimeError(f"{module.__name__} no longer imports the copy module as copy")
        module.copy = CopyForDocuments()
