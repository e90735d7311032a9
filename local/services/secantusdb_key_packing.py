"""WiredTiger's keys and values packed without parsing their format on every call, applied by secantusdb-launcher.py.

WiredTiger's Python cursors pack each key and value they set, and unpack each they read, through
wiredtiger/packing.py, which parses the column format again and walks it with a generator on every call: a fifth of
the local server's processor time in a run of journey steps. SecantusDB's tables use three kinds of column, `S`
(a NUL-terminated string), `u` (raw bytes, last in every format they use) and `q` (a variable-length integer). For a
format made of those, with `u` last if at all, the packer and unpacker here are built once and give byte for byte what packing.py gives
(`python3 secantusdb_key_packing.py` compares them on random keys of every such format and exits non-zero on any
difference; test/processes/secantusdb-key-packing.test.ts runs it). Any other format, or a value of another type than
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


def _outcome(run):
    try:
        return ("value", run())
    except Exception as error:
        return ("error", type(error))


def compare(rounds=5_000, seed=7):
    """Packs random values of every format of SecantusDB's tables both ways; answers the differences found."""
    import random

    generator = random.Random(seed)
    texts = ["", "a", "db", "journey_travellers", "é漢\U0001f600", "with\0nul", "x" * 300]
    numbers = [0, 1, -1, 63, 64, -64, -65, 8255, 8256, 8257, -8256, -8257, 2**31, -(2**31), 2**63 - 1, -(2**63)]

    def value(kind):
        if kind == "S":
            return generator.choice(texts) if generator.random() < 0.5 else generator.randbytes(8).hex()
        if kind == "u":
            return generator.randbytes(generator.choice([0, 1, 5, 63, 64, 200, 5000]))
        return generator.choice(numbers) if generator.random() < 0.5 else generator.randint(-(2**63), 2**63 - 1)

    differences = []
    for fmt in ["S", "SS", "SSS", "SSu", "SSSu", "SSq", "q", "u"]:
        fast_pack, fast_unpack = for_format(fmt)
        for _ in range(rounds):
            values = [value(kind) for kind in fmt]
            expected = original_pack(fmt, *values)
            if fast_pack(*values) != expected:
                differences.append(f"pack {fmt} {values!r}")
            if fast_unpack(expected) != original_unpack(fmt, expected):
                differences.append(f"unpack {fmt} {expected!r}")
    # Values packing.py converts, ignores or refuses, and packed input WiredTiger may hand back other than bytes.
    class Text(str):
        pass

    unusual_values = [
        ("SS", ("a", b"b")),
        ("Su", ("a", "b")),
        ("Su", ("a", memoryview(b"b"))),
        ("S", (Text("a"),)),
        ("S", ("\ud800",)),
        ("SS", ("a", "b", "extra")),
        ("q", ()),
        ("q", (True,)),
        ("q", (2**64 + 8255,)),
        ("q", (2**64 + 8256,)),
        ("q", (1.0,)),
        ("SSu", ("a", "b", bytearray(b"c"))),
        ("uS", (b"a", "b")),
    ]
    unusual_packed = [("u", None), ("SSu", None), ("SS", bytearray(b"a\0b\0")), ("S", b"no nul"), ("q", b""), ("S", b"\xff\0")]
    for fmt, values in unusual_values:
        got, expected = _outcome(lambda: pack(fmt, *values)), _outcome(lambda: original_pack(fmt, *values))
        if got != expected:
            differences.append(f"pack {fmt} {values!r}: {got} against {expected}")
    for fmt, packed in unusual_packed:
        got, expected = _outcome(lambda: unpack(fmt, packed)), _outcome(lambda: original_unpack(fmt, packed))
        if got != expected:
            differences.append(f"unpack {fmt} {packed!r}: {got} against {expected}")
    return differences


if __name__ == "__main__":
    import sys

    found = compare()
    for difference in found[:20]:
        print(difference)
    print(f"{len(found)} differences")
    sys.exit(1 if found else 0)
