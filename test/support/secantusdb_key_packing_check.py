"""Compares local/services/secantusdb_key_packing.py with WiredTiger's own packing.py, byte for byte, on random values of
every key and value format of SecantusDB's tables and on values packing.py converts or refuses; prints the differences
and exits non-zero on any. Run by test/processes/secantusdb-key-packing.test.ts with SecantusDB's python."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "local" / "services"))

from secantusdb_key_packing import for_format, original_pack, original_unpack, pack, unpack  # noqa: E402
from check_report import report  # noqa: E402


def _outcome(run):
    try:
        return ("value", run())
    except Exception as error:
        return ("error", type(error))


def compare(rounds=5_000, seed=7):
    """Packs random values of every format of SecantusDB's tables both ways; answers the differences found."""
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
    report(compare())
