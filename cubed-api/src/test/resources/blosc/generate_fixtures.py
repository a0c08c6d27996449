#!/usr/bin/python3
"""Writes Blosc-1 fixtures encoded by numcodecs (c-blosc 1.x) for BloscFixturesTest.

Run with the Debian numcodecs: /usr/bin/python3 generate_fixtures.py
Writes fixtures/<case>.blosc (the encoded frame), fixtures/<data>.raw.gz (the gzipped raw input,
shared between cases) and fixtures/index.tsv (one line per case).
"""
import gzip
import os

import numcodecs
import numpy as np
from numcodecs import Blosc

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]
SHUFFLES = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle", -1: "autoshuffle"}


def smooth(nbytes, dtype, seed):
    """Bytes of a smooth function plus a little noise, as elements of dtype."""
    rng = np.random.RandomState(seed)
    dt = np.dtype(dtype)
    n = nbytes // dt.itemsize
    x = np.linspace(0, 8 * np.pi, n)
    y = np.sin(x) * 1000 + rng.normal(0, 1, n)
    if dt.kind == "f":
        return y.astype(dt).tobytes()
    if dt.kind in "iu":
        info = np.iinfo(dt)
        scale = min(info.max, 30000) / 1100.0
        return np.clip(y * scale + (info.min + info.max) / 2, info.min, info.max).astype(dt).tobytes()
    # void dtypes: bytes of a slowly varying int64 sequence, cut to whole elements
    raw = (np.arange(nbytes // 8 + 1, dtype="<i8") * 3 + rng.randint(0, 4, nbytes // 8 + 1)).tobytes()
    return raw[: n * dt.itemsize]


def steps(nbytes, seed):
    """Bytes of a compressible int16 staircase with sparse noise (gzip and blosc both shrink it a lot)."""
    rng = np.random.RandomState(seed)
    n = nbytes // 2
    y = (np.arange(n) // 50) % 300 + (rng.randint(0, 40, n) == 0)
    return y.astype("<i2").tobytes()


def random_bytes(nbytes, seed):
    return np.random.RandomState(seed).randint(0, 256, nbytes, dtype=np.uint8).tobytes()


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    datasets = {}
    cases = []

    def data(name, raw):
        datasets[name] = raw
        return name

    def case(cname, clevel, shuffle, blocksize, dtype, dname, tag=""):
        cases.append((cname, clevel, shuffle, blocksize, dtype, dname, tag))

    for dtype, label in [("u1", "u1"), ("<f4", "f4"), ("<f8", "f8")]:
        d = data("smooth_" + label, smooth(2400, dtype, 1))
        for cname in CNAMES:
            for shuffle in (0, 1, 2):
                case(cname, 5, shuffle, 0, dtype, d)
    # Multi-block frames without splits (16-byte elements, small blocks), leftover block of 13 elements.
    d = data("smooth_v16", smooth(2000, "V16", 2))
    for cname in CNAMES:
        for shuffle in (0, 1, 2):
            case(cname, 5, shuffle, 256, "V16", d)
    # 3-byte elements, 100-element blocks.
    d = data("smooth_v3", smooth(1500, "V3", 3))
    for cname in ("blosclz", "lz4", "zstd"):
        for shuffle in (1, 2):
            case(cname, 5, shuffle, 300, "V3", d)
    # Split multi-block frames with a leftover block (blocks of 64 KiB).
    d = data("steps_i2_big", steps(70000, 4))
    for cname in ("blosclz", "lz4"):
        for shuffle in (1, 2):
            case(cname, 5, shuffle, 256, "<i2", d)
    # zstd never splits: many 256-byte blocks, leftover of 46 elements (bit shuffle copies it).
    d = data("smooth_f4_3000", smooth(3000, "<f4", 5))
    for shuffle in (0, 1, 2):
        case("zstd", 5, shuffle, 256, "<f4", d)
    # Levels: 0 stores, 1 and 9 change block sizes and codec effort.
    for cname in CNAMES:
        case(cname, 0, 1, 0, "<f8", "smooth_f8", "clevel0")
        case(cname, 9, 1, 0, "<f8", "smooth_f8", "clevel9")
        case(cname, 1, 2, 0, "<f8", "smooth_f8", "clevel1")
    # Automatic shuffle: bit shuffle for 1-byte elements, byte shuffle otherwise.
    for cname in ("blosclz", "lz4"):
        case(cname, 5, -1, 0, "u1", "smooth_u1")
        case(cname, 5, -1, 0, "<f8", "smooth_f8")
    # Tiny and empty inputs are stored.
    data("tiny", bytes(range(10)))
    data("small_f8", smooth(96, "<f8", 6))
    data("empty", b"")
    for cname in ("blosclz", "lz4", "zstd"):
        case(cname, 5, 1, 0, "u1", "tiny")
        case(cname, 5, 1, 0, "<f8", "small_f8")
        case(cname, 5, 1, 0, "u1", "empty")
    # Incompressible data: stored streams or a stored frame.
    d = data("random_4096", random_bytes(4096, 7))
    for cname in CNAMES:
        case(cname, 5, 0, 0, "u1", d)
        case(cname, 5, 1, 0, "<f8", d)
    # Element sizes above 255 are treated as single bytes.
    d = data("smooth_v300", smooth(3000, "V300", 8))
    case("lz4", 5, 1, 0, "V300", d)
    case("blosclz", 5, 2, 0, "V300", d)

    total = 0
    for name, raw in datasets.items():
        path = os.path.join(OUT, name + ".raw.gz")
        with open(path, "wb") as f:
            f.write(gzip.compress(raw, mtime=0))
        total += os.path.getsize(path)
    lines = ["# case\traw\tcname\tclevel\tshuffle\tblocksize\ttypesize\tnbytes\tnumcodecs " + numcodecs.__version__]
    for cname, clevel, shuffle, blocksize, dtype, dname, tag in cases:
        raw = datasets[dname]
        dt = np.dtype(dtype)
        arr = np.frombuffer(raw, dtype=dt) if raw else np.zeros(0, dtype=dt)
        enc = bytes(Blosc(cname=cname, clevel=clevel, shuffle=shuffle, blocksize=blocksize).encode(arr))
        # numcodecs 0.11 cannot decode its own frame of an empty input (c-blosc returns 0 bytes).
        assert not raw or bytes(Blosc().decode(enc)) == raw
        name = "%s_%s_%s_c%d_b%d%s" % (dname, cname, SHUFFLES[shuffle], clevel, blocksize, "_" + tag if tag else "")
        with open(os.path.join(OUT, name + ".blosc"), "wb") as f:
            f.write(enc)
        total += len(enc)
        lines.append("\t".join(str(v) for v in (name, dname, cname, clevel, shuffle, blocksize, dt.itemsize, len(raw))))
    with open(os.path.join(OUT, "index.tsv"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d cases, %d bytes" % (len(cases), total))


if __name__ == "__main__":
    main()
