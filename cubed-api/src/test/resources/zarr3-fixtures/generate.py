#!/usr/bin/python3
"""Writes the Zarr v3 fixtures that ZarrV3FixturesTest reads, following the Zarr v3 specification directly.

zarr-python 3 is not installable here, so this script encodes every chunk itself with numpy (element bytes, transpose),
numcodecs (gzip, zstd, blosc) and a hand-written CRC-32C, and lays out shards (inner chunks, then the index of
(offset, nbytes) uint64 pairs, 2**64-1 for empty chunks) as the sharding_indexed codec specifies. It is independent of
the Java code under test.

Usage:
  /usr/bin/python3 generate.py           replaces arrays/, expected/, groups/, malformed/ and manifest.json here
  /usr/bin/python3 generate.py read DIR  decodes the v3 array in DIR (written by anyone) and writes its elements to
                                         stdout in the expected/ format; used to check Cubed's own v3 writes

expected/<name>.bin: the whole array, C order, little-endian, bool as one byte, complex as (real, imag) pairs; chunks
deleted after writing (or inner chunks left empty) hold the fill value.
"""
import gzip
import json
import os
import shutil
import sys

import numpy as np
from numcodecs import Blosc, GZip, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))

_gzip_init = gzip.GzipFile.__init__


def _gzip_init_mtime0(self, *args, **kwargs):
    kwargs["mtime"] = 0
    _gzip_init(self, *args, **kwargs)


gzip.GzipFile.__init__ = _gzip_init_mtime0

NP = {"bool": "?", "int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8", "uint8": "u1", "uint16": "u2",
      "uint32": "u4", "uint64": "u8", "float32": "f4", "float64": "f8", "complex64": "c8", "complex128": "c16"}
EMPTY = 2 ** 64 - 1

# ---- CRC-32C (Castagnoli), reflected polynomial 0x82F63B78 ----
_T = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _T.append(_c)


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _T[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283  # the standard check value


# ---- fill values ----
def fill_scalar(fill, dtype):
    def flt(v, size):
        if isinstance(v, str):
            if v.startswith("0x"):
                raw = int(v, 16).to_bytes(size, "big")
                return float(np.frombuffer(raw, dtype=">f%d" % size)[0])
            return float(v.replace("Infinity", "inf"))
        return float(v)
    if dtype.startswith("complex"):
        half = np.dtype(NP[dtype]).itemsize // 2
        return complex(flt(fill[0], half), flt(fill[1], half))
    if dtype.startswith("float"):
        return flt(fill, np.dtype(NP[dtype]).itemsize)
    return fill


# ---- codecs ----
def encode(codecs, a, fill):
    """Encodes array a (the full chunk) with the chain; None for an all-fill shard."""
    data = None
    for c in codecs:
        n, conf = c["name"], c.get("configuration", {})
        if n == "transpose":
            a = np.ascontiguousarray(np.transpose(a, conf["order"]))
        elif n == "bytes":
            e = ">" if conf.get("endian") == "big" else "<"
            data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder(e) if a.dtype.itemsize > 1 else a.dtype).tobytes()
        elif n == "sharding_indexed":
            data = encode_shard(conf, a, fill)
            if data is None:
                return None
        elif n == "gzip":
            data = bytes(GZip(level=conf["level"]).encode(data))
        elif n == "zstd":
            data = bytes(Zstd(level=conf["level"]).encode(data))
        elif n == "blosc":
            sh = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[conf["shuffle"]]
            ts = conf["typesize"]
            arr = np.frombuffer(data, dtype="u%d" % ts)
            data = bytes(Blosc(cname=conf["cname"], clevel=conf["clevel"], shuffle=sh,
                               blocksize=conf["blocksize"]).encode(arr))
        elif n == "crc32c":
            data = data + crc32c(data).to_bytes(4, "little")
        else:
            raise ValueError(n)
    return data


def encode_shard(conf, a, fill):
    inner = conf["chunk_shape"]
    per = [s // c for s, c in zip(a.shape, inner)]
    count = int(np.prod(per))
    index = np.full((count, 2), EMPTY, dtype="<u8")
    parts = []
    for k, pos in enumerate(np.ndindex(*per)):
        sl = tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, inner))
        sub = a[sl]
        if np.array_equal(sub, np.full(sub.shape, fill, dtype=a.dtype), equal_nan=a.dtype.kind in "fc"):
            continue
        parts.append((k, encode(conf["codecs"], sub, fill)))
    if not parts:
        return None
    # Store the inner chunks in reverse order: a reader must follow the index, not assume C order.
    parts.reverse()
    idx_len = len(encode(conf["index_codecs"], index.reshape(per + [2]), 0))
    at_end = conf.get("index_location", "end") == "end"
    off = 0 if at_end else idx_len
    body = b""
    for k, enc in parts:
        index[k] = (off + len(body), len(enc))
        body += enc
    idx = encode(conf["index_codecs"], index.reshape(per + [2]), 0)
    return body + idx if at_end else idx + body


def decode(codecs, data, dtype, shape, fill):
    shapes = [list(shape)]
    for c in codecs:
        if c["name"] == "transpose":
            shapes.append([shapes[-1][i] for i in c["configuration"]["order"]])
        else:
            shapes.append(shapes[-1])
    a2b = next(i for i, c in enumerate(codecs) if c["name"] in ("bytes", "sharding_indexed"))
    for c in reversed(codecs[a2b + 1:]):
        n = c["name"]
        if n == "crc32c":
            assert crc32c(data[:-4]) == int.from_bytes(data[-4:], "little"), "crc32c mismatch"
            data = data[:-4]
        elif n == "gzip":
            data = bytes(GZip().decode(data))
        elif n == "zstd":
            data = bytes(Zstd().decode(data))
        elif n == "blosc":
            data = bytes(Blosc().decode(data))
    c = codecs[a2b]
    s = shapes[a2b]
    if c["name"] == "bytes":
        e = ">" if c.get("configuration", {}).get("endian") == "big" else "<"
        a = np.frombuffer(data, dtype=np.dtype(NP[dtype]).newbyteorder(e)).reshape(s)
    else:
        a = decode_shard(c["configuration"], data, dtype, s, fill)
    for c in reversed(codecs[:a2b]):
        a = np.transpose(a, np.argsort(c["configuration"]["order"]))
    return a


def decode_shard(conf, data, dtype, shape, fill):
    inner = conf["chunk_shape"]
    per = [s // c for s, c in zip(shape, inner)]
    count = int(np.prod(per))
    n = count * 16 + 4 * sum(1 for c in conf["index_codecs"] if c["name"] == "crc32c")
    raw = data[-n:] if conf.get("index_location", "end") == "end" else data[:n]
    index = decode(conf["index_codecs"], raw, "uint64", per + [2], 0).reshape(count, 2)
    out = np.full(shape, fill, dtype=NP[dtype])
    for k, pos in enumerate(np.ndindex(*per)):
        off, nb = int(index[k][0]), int(index[k][1])
        if off == EMPTY and nb == EMPTY:
            continue
        sl = tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, inner))
        out[sl] = decode(conf["codecs"], data[off:off + nb], dtype, inner, fill)
    return out


def chunk_key(meta, coords):
    enc = meta["chunk_key_encoding"]
    sep = enc.get("configuration", {}).get("separator", "/" if enc["name"] == "default" else ".")
    if enc["name"] == "default":
        return sep.join(["c"] + [str(c) for c in coords])
    return sep.join(str(c) for c in coords) if coords else "0"


def grid(meta):
    shape = meta["shape"]
    chunks = meta["chunk_grid"]["configuration"]["chunk_shape"]
    return shape, chunks, [-(-s // c) for s, c in zip(shape, chunks)]


def read_array(path):
    meta = json.load(open(os.path.join(path, "zarr.json")))
    dtype = meta["data_type"]
    fill = fill_scalar(meta["fill_value"], dtype)
    shape, chunks, nchunks = grid(meta)
    out = np.full(shape, fill, dtype=NP[dtype])
    for coords in np.ndindex(*nchunks):
        p = os.path.join(path, chunk_key(meta, coords))
        if not os.path.exists(p):
            continue
        a = decode(meta["codecs"], open(p, "rb").read(), dtype, chunks, fill)
        sl = tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, chunks, shape))
        out[sl] = a[tuple(slice(0, x.stop - x.start) for x in sl)]
    return out


def to_expected(a):
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<") if a.dtype.itemsize > 1 else a.dtype).tobytes()


# ---- fixture arrays ----
def values(dtype, shape):
    n = int(np.prod(shape))
    dt = np.dtype(NP[dtype])
    if dt.kind == "b":
        return (np.arange(n) % 3 == 0).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = (np.arange(n, dtype=np.int64) * 7 - 11).astype(dt)
        v.flat[0] = info.min
        if n > 1:
            v.flat[1] = info.max
        return v.reshape(shape)
    v = (np.arange(n) * 0.75 - 3).astype(dt)
    if dt.kind == "c":
        v = v + 1j * (np.arange(n) * -0.5).astype(dt)
    if n > 3:
        v.flat[2] = np.nan
        v.flat[3] = -np.inf
    return v.reshape(shape)


def write_array(root, name, meta, data, delete=()):
    path = os.path.join(root, name)
    os.makedirs(path)
    meta = dict(zarr_format=3, node_type="array", **meta)
    meta.setdefault("chunk_key_encoding", {"name": "default", "configuration": {"separator": "/"}})
    meta.setdefault("attributes", {})
    dtype = meta["data_type"]
    fill = fill_scalar(meta["fill_value"], dtype)
    shape, chunks, nchunks = grid(meta)
    for coords in np.ndindex(*nchunks):
        full = np.full(chunks, fill, dtype=NP[dtype])
        sl = tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, chunks, shape))
        full[tuple(slice(0, x.stop - x.start) for x in sl)] = data[sl]
        enc = encode(meta["codecs"], full, fill)
        if enc is None or list(coords) in [list(d) for d in delete]:
            continue
        key = os.path.join(path, chunk_key(meta, coords))
        os.makedirs(os.path.dirname(key), exist_ok=True)
        open(key, "wb").write(enc)
    with open(os.path.join(path, "zarr.json"), "w") as f:
        json.dump(meta, f, indent=2)
    return meta


def regular(chunks):
    return {"name": "regular", "configuration": {"chunk_shape": chunks}}


def bytes_(endian="little"):
    return {"name": "bytes", "configuration": {"endian": endian}}


def shard(inner, codecs, index_codecs=None, location="end"):
    return {"name": "sharding_indexed", "configuration": {
        "chunk_shape": inner, "codecs": codecs,
        "index_codecs": index_codecs or [bytes_(), {"name": "crc32c"}], "index_location": location}}


GZIP = {"name": "gzip", "configuration": {"level": 5}}
ZSTD = {"name": "zstd", "configuration": {"level": 3, "checksum": False}}
CRC = {"name": "crc32c"}


def blosc(typesize, cname="lz4", shuffle="shuffle"):
    return {"name": "blosc", "configuration": {"cname": cname, "clevel": 5, "shuffle": shuffle,
                                               "typesize": typesize, "blocksize": 0}}


def generate():
    for d in ("arrays", "expected", "groups", "malformed"):
        shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)
        os.makedirs(os.path.join(HERE, d))
    arrays = os.path.join(HERE, "arrays")
    manifest = []

    def add(name, meta, data, delete=()):
        meta = write_array(arrays, name, meta, data, delete)
        out = read_array(os.path.join(arrays, name))  # the independent decoder reads what was written
        expect = np.full(data.shape, fill_scalar(meta["fill_value"], meta["data_type"]), dtype=data.dtype)
        expect[...] = data
        for coords in delete:
            sl = tuple(slice(c * k, (c + 1) * k) for c, k in zip(coords, meta["chunk_grid"]["configuration"]["chunk_shape"]))
            expect[sl] = fill_scalar(meta["fill_value"], meta["data_type"])
        assert np.array_equal(out, expect, equal_nan=data.dtype.kind in "fc"), name
        open(os.path.join(HERE, "expected", name + ".bin"), "wb").write(to_expected(expect))
        manifest.append({"name": name, "data_type": meta["data_type"], "shape": meta["shape"],
                         "chunks": meta["chunk_grid"]["configuration"]["chunk_shape"]})

    fills = {"bool": True, "int8": -5, "int16": 7, "int32": -1, "int64": 123456789012, "uint8": 200, "uint16": 0,
             "uint32": 4000000000, "uint64": 18446744073709551615, "float32": "0x7fc00000",
             "float64": "Infinity", "complex64": ["NaN", 1.5], "complex128": [0.25, "-Infinity"]}
    chains = [
        lambda ts: [bytes_()],
        lambda ts: [bytes_("big")],
        lambda ts: [bytes_(), GZIP],
        lambda ts: [bytes_("big"), ZSTD],
        lambda ts: [bytes_(), blosc(ts)],
        lambda ts: [bytes_(), CRC],
        lambda ts: [{"name": "transpose", "configuration": {"order": [1, 0]}}, bytes_(), GZIP, CRC],
    ]
    for i, dtype in enumerate(NP):
        ts = min(np.dtype(NP[dtype]).itemsize, 8)
        codecs = chains[i % len(chains)](ts)
        if dtype in ("bool", "int8", "uint8") and codecs[0]["name"] == "bytes":
            codecs[0] = {"name": "bytes", "configuration": {}}
        add("dtype_" + dtype, {"shape": [5, 7], "data_type": dtype, "chunk_grid": regular([2, 3]),
                               "fill_value": fills[dtype], "codecs": codecs}, values(dtype, (5, 7)),
            delete=[(1, 1)])
    # Chunk key encodings.
    for name, enc in [("keys_default_dot", {"name": "default", "configuration": {"separator": "."}}),
                      ("keys_v2_dot", {"name": "v2", "configuration": {"separator": "."}}),
                      ("keys_v2_slash", {"name": "v2", "configuration": {"separator": "/"}}),
                      ("keys_v2_noconf", {"name": "v2"})]:
        add(name, {"shape": [4, 6], "data_type": "int32", "chunk_grid": regular([2, 4]), "fill_value": 0,
                   "codecs": [bytes_()], "chunk_key_encoding": enc}, values("int32", (4, 6)))
    # Codec names and blosc variants.
    add("blosc_zstd_bitshuffle", {"shape": [40], "data_type": "float64", "chunk_grid": regular([16]),
                                  "fill_value": 0, "codecs": [bytes_(), blosc(8, "zstd", "bitshuffle")]},
        values("float64", (40,)))
    add("blosc_noshuffle_int16", {"shape": [40], "data_type": "int16", "chunk_grid": regular([16]),
                                  "fill_value": 0, "codecs": [bytes_(), blosc(2, "blosclz", "noshuffle")]},
        values("int16", (40,)))
    add("transpose_3d", {"shape": [3, 4, 5], "data_type": "uint16", "chunk_grid": regular([2, 3, 4]),
                         "fill_value": 9,
                         "codecs": [{"name": "transpose", "configuration": {"order": [2, 0, 1]}}, bytes_("big")]},
        values("uint16", (3, 4, 5)))
    add("scalar_0d", {"shape": [], "data_type": "float64", "chunk_grid": regular([]), "fill_value": 0,
                      "codecs": [bytes_()]}, np.array(2.5))
    # An extension the reader may ignore.
    add("ignorable_extension", {"shape": [3], "data_type": "int8", "chunk_grid": regular([2]), "fill_value": 0,
                                "codecs": [{"name": "bytes"}],
                                "some_future_extension": {"must_understand": False, "x": 1}}, values("int8", (3,)))
    # Sharded arrays.
    data = values("float32", (10, 9))
    add("shard_end", {"shape": [10, 9], "data_type": "float32", "chunk_grid": regular([4, 6]), "fill_value": 0,
                      "codecs": [shard([2, 3], [bytes_()])]}, data)
    add("shard_start_gzip", {"shape": [10, 9], "data_type": "float32", "chunk_grid": regular([4, 6]),
                             "fill_value": 0, "codecs": [shard([2, 3], [bytes_(), GZIP], location="start")]}, data)
    add("shard_blosc_crc_inner", {"shape": [10, 9], "data_type": "float32", "chunk_grid": regular([4, 6]),
                                  "fill_value": 0,
                                  "codecs": [shard([2, 3], [bytes_("big"), blosc(4), CRC], [bytes_()])]}, data)
    sparse = np.full((8, 8), -1, dtype="i8")
    sparse[0:2, 0:2] = 5
    sparse[5, 7] = 42
    add("shard_empty_inner", {"shape": [8, 8], "data_type": "int64", "chunk_grid": regular([4, 8]),
                              "fill_value": -1, "codecs": [shard([2, 2], [bytes_(), ZSTD])]}, sparse)
    add("shard_transpose_inner", {"shape": [6, 6], "data_type": "int32", "chunk_grid": regular([6, 6]),
                                  "fill_value": 0,
                                  "codecs": [shard([3, 2], [{"name": "transpose", "configuration": {"order": [1, 0]}},
                                                            bytes_(), GZIP])]}, values("int32", (6, 6)))
    add("shard_nested", {"shape": [8, 8], "data_type": "uint8", "chunk_grid": regular([8, 8]), "fill_value": 0,
                         "codecs": [shard([4, 4], [shard([2, 2], [{"name": "bytes"}, GZIP])], [bytes_("big"), CRC])]},
        values("uint8", (8, 8)))
    add("shard_then_gzip", {"shape": [6], "data_type": "int16", "chunk_grid": regular([4]), "fill_value": 0,
                            "codecs": [shard([2], [bytes_()]), GZIP]}, values("int16", (6,)))
    big = (np.arange(64 * 64, dtype="f8") * 0.5).reshape(64, 64)
    add("shard_large", {"shape": [64, 64], "data_type": "float64", "chunk_grid": regular([64, 64]),
                        "fill_value": 0, "codecs": [shard([8, 8], [bytes_()])]}, big)

    # A v3 group: attributes, a sub-group, arrays, consolidated metadata as zarr-python 3 writes it.
    groot = os.path.join(HERE, "groups", "v3group.zarr")
    os.makedirs(groot)
    m1 = write_array(groot, "temperature", {"shape": [4, 4], "data_type": "float64", "chunk_grid": regular([2, 2]),
                                            "fill_value": "NaN", "codecs": [bytes_(), GZIP],
                                            "attributes": {"units": "K"}, "dimension_names": ["y", "x"]},
                     values("float64", (4, 4)))
    os.makedirs(os.path.join(groot, "sub"))
    sub = {"zarr_format": 3, "node_type": "group", "attributes": {"level": 2}}
    json.dump(sub, open(os.path.join(groot, "sub", "zarr.json"), "w"), indent=2)
    m2 = write_array(os.path.join(groot, "sub"), "counts", {"shape": [5], "data_type": "int32",
                                                            "chunk_grid": regular([5]), "fill_value": 0,
                                                            "codecs": [bytes_()]}, values("int32", (5,)))
    root_meta = {"zarr_format": 3, "node_type": "group", "attributes": {"title": "fixture", "version": 3},
                 "consolidated_metadata": {"kind": "inline", "must_understand": False, "metadata": {
                     "temperature": m1, "sub": sub, "sub/counts": m2}}}
    json.dump(root_meta, open(os.path.join(groot, "zarr.json"), "w"), indent=2)
    # The same group without consolidated metadata (found by listing).
    shutil.copytree(groot, os.path.join(HERE, "groups", "v3group_plain.zarr"))
    plain = dict(root_meta)
    del plain["consolidated_metadata"]
    json.dump(plain, open(os.path.join(HERE, "groups", "v3group_plain.zarr", "zarr.json"), "w"), indent=2)
    open(os.path.join(HERE, "expected", "v3group_temperature.bin"), "wb").write(to_expected(values("float64", (4, 4))))

    # A v2 group consolidated by zarr-python 2 itself.
    import zarr
    g = zarr.open_group(os.path.join(HERE, "groups", "v2group.zarr"), mode="w")
    g.attrs["title"] = "v2 fixture"
    a = g.create_dataset("a", shape=(4, 3), chunks=(2, 2), dtype="<i4", compressor=None)
    a[...] = np.arange(12, dtype="<i4").reshape(4, 3)
    a.attrs["note"] = "hello"
    s = g.create_group("inner")
    b = s.create_dataset("b", shape=(3,), chunks=(3,), dtype="<f8", compressor=None)
    b[...] = [1.5, 2.5, 3.5]
    zarr.consolidate_metadata(g.store)

    # Malformed stores.
    mal = os.path.join(HERE, "malformed")
    base = {"shape": [4], "data_type": "int32", "chunk_grid": regular([2]), "fill_value": 0, "codecs": [bytes_()]}
    write_array(mal, "unknown_codec", base, np.arange(4, dtype="i4"))
    meta = json.load(open(os.path.join(mal, "unknown_codec", "zarr.json")))
    meta["codecs"] = [bytes_(), {"name": "lzma_future", "configuration": {}}]
    json.dump(meta, open(os.path.join(mal, "unknown_codec", "zarr.json"), "w"), indent=2)
    write_array(mal, "must_understand", dict(base, future_extension={"must_understand": True}),
                np.arange(4, dtype="i4"))
    write_array(mal, "bad_crc", dict(base, codecs=[bytes_(), CRC]), np.arange(4, dtype="i4"))
    p = os.path.join(mal, "bad_crc", "c", "1")
    b = bytearray(open(p, "rb").read())
    b[0] ^= 0xFF
    open(p, "wb").write(bytes(b))
    os.makedirs(os.path.join(mal, "bad_data_type"))
    json.dump(dict(base, zarr_format=3, node_type="array", data_type="float16",
                   chunk_key_encoding={"name": "default", "configuration": {"separator": "/"}}),
              open(os.path.join(mal, "bad_data_type", "zarr.json"), "w"), indent=2)

    json.dump({"arrays": manifest}, open(os.path.join(HERE, "manifest.json"), "w"), indent=1)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "read":
        sys.stdout.buffer.write(to_expected(read_array(sys.argv[2])))
    else:
        generate()
