"""WiredTiger's keys and values packed without parsing their format on every call, applied by secantusdb-launcher.py.

WiredTiger's Python cursors pack each key and value they set, and unpack each they read, through
wiredtiger/packing.py, which parses the column format again and walks it with a generator on every call: a fifth of
the local server's processor time in a run of journey steps. SecantusDB's tables use three kinds of column, `S`
(a NUL-terminated string), `u` (raw bytes, last in every format they use) and `q` (a variable-length integer). For a
format made of those, with `u` last if at all, the packer and unpacker here are built once and give byte for byte what packing.py gives
(test/support/secantusdb_key_packing_check.py compares them on random keys of every such format;
test/processes/secantusdb-key-packing.test.ts runs it). Any other format, or a value of another type than
those columns take (where packing.py converts, or refuses), goes to packing.py itself.
"""

import functools

import wiredtiger  # noqa: F401  (puts swig_wiredtiger on the path)
from wiredtiger.intpacking import pack_int, unpack_int

import swig_wiredtiger

original_pack = swig_wiredtiger.pack
original_unpack = swig_wiredtiger.unpack
column_kinds = frozenset("Suq")


def packer(fmt):
    kinds = tuple(fmt)

    def pack(*values):
        if len(values) != len(kinds):
            return original_pack(fmt, *values)
        parts = []
        for kind, value in zip(kinds, values):
            if kind == "S":
                if type(value) is not str:
                    return original_pack(fmt, *values)
                end = value.find("\0")
                parts.append((value if end < 0 else value[:end]).encode())
                parts.append(b"\0")
            elif kind == "u":
                if type(value) is not bytes:
                    return original_pack(fmt, *values)
                parts.append(value)
            else:
                parts.append(pack_int(value))
        return b"".join(parts)

    return pack


def unpacker(fmt):
    kinds = tuple(fmt)

    def unpack(packed):
        if type(packed) is not bytes:
            return original_unpack(fmt, packed)
        rest = packed
        result = []
        for kind in kinds:
            if kind == "S":
                end = rest.find(b"\0")
                if end < 0:
                    return original_unpack(fmt, packed)
                result.append(rest[:end].decode())
                rest = rest[end + 1 :]
            elif kind == "u":
                result.append(rest)
            else:
                value, rest = unpack_int(rest)
                result.append(value)
        return result

    return unpack


@functools.cache
def for_format(fmt):
    """The packer and unpacker of `fmt`, or None when its columns are not all of the kinds handled here."""
    if not fmt or not set(fmt) <= column_kinds or "u" in fmt[:-1]:
        return None
    return packer(fmt), unpacker(fmt)


def pack(fmt, *values):
    made = for_format(fmt)
    return original_pack(fmt, *values) if made is None else made[0](*values)


def unpack(fmt, packed):
    made = for_format(fmt)
    return original_unpack(fmt, packed) if made is None else made[1](packed)


def apply():
    swig_wiredtiger.pack = pack
    swig_wiredtiger.unpack = unpack
