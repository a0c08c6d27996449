#!/usr/bin/python3
"""Writes the Zarr v2 fixtures that ZarrFixturesTest reads, with zarr-python 2 and numcodecs.

Run from anywhere with ``/usr/bin/python3 generate.py``; it replaces ``arrays/``, ``expected/``, ``malformed/`` and
``manifest.json`` next to this script. Output is deterministic (arange-based data, fixed special values).

* ``arrays/<name>/``   Zarr v2 arrays (and one group) written by zarr-python; some chunks deleted afterwards.
* ``expected/<name>.bin``  the whole array as the reader must see it: C order, little-endian, bool as one byte,
  complex as (real, imag) pairs; deleted chunks hold the fill value (zero when fill_value is null).
* ``manifest.json``    one entry per array: path, dtype string, shape, chunks, order, separator, compressor
  config, fill value (floats as Java-parsable strings "NaN", "Infinity", "-Infinity" or repr; integers as decimal
  strings) and the coordinates of the deleted chunks.
* ``malformed/<name>/``  hand-written broken metadata and corrupt chunks, listed in ``manifest.json`` too.
"""
import json
import os
import shutil
import bz2
import gzip
import zlib

import numpy as np
import zarr
from numcodecs import BZ2, LZ4, Blosc, GZip, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
ARRAYS = os.path.join(HERE, "arrays")
EXPECTED = os.path.join(HERE, "expected")
MALFORMED = os.path.join(HERE, "malformed")

DTYPES = ["|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f4", "<f8", "<c8", "<c16"]
BLOSC_CNAMES = ["lz4", "zstd", "zlib", "blosclz", "lz4hc"]

manifest = {"arrays": [], "malformed": []}

# numcodecs' GZip stamps the current time into each gzip header; pin it so the output is reproducible.
_gzip_init = gzip.GzipFile.__init__


def _gzip_init_mtime0(self, *args, **kwargs):
    kwargs["mtime"] = 0
    _gzip_init(self, *args, **kwargs)


gzip.GzipFile.__init__ = _gzip_init_mtime0


def values(dtype, shape):
    """Deterministic data: arange-based, with extremes for integers and NaN/Inf/-0.0 for floats and complex."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    if dt.kind == "b":
        v = i % 3 == 0
    elif dt.kind in "iu":
        v = (i * 7919 - 1000).astype(dt)  # wraps like a C cast
        info = np.iinfo(dt)
        if n > 1:
            v[1] = info.max
        if n > 2:
            v[2] = info.min
    elif dt.kind == "f":
        v = (i * 0.25 - 3.0).astype(dt)
        for k, s in ((3, np.nan), (4, np.inf), (5, -np.inf), (6, -0.0)):
            if n > k:
                v[k] = s
    else:
        v = ((i * 0.5 - 1.0) + 1j * (2.0 - i * 0.25)).astype(dt)
        if n > 3:
            v[3] = complex(np.nan, 1.0)
        if n > 4:
            v[4] = complex(1.0, -np.inf)
    return np.asarray(v, dtype=dt).reshape(shape)


def jfloat(x):
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if np.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return repr(x)


def fill_repr(dt, f):
    if f is None:
        return None
    if dt.kind == "b":
        return bool(f)
    if dt.kind in "iu":
        return str(int(f))
    if dt.kind == "f":
        return jfloat(f)
    return [jfloat(np.real(f)), jfloat(np.imag(f))]


def chunk_file(path, sep, coords):
    key = sep.join(str(c) for c in coords) if coords else "0"
    return os.path.join(path, *key.split("/"))


def fixture(name, shape, chunks, dtype, compressor=None, fill=0, order="C", sep=".", missing=(), attrs=None):
    path = os.path.join(ARRAYS, *name.split("/"))
    z = zarr.open(path, mode="w", shape=shape, chunks=chunks, dtype=dtype, compressor=compressor,
                  fill_value=fill, order=order, dimension_separator=sep)
    data = values(dtype, shape)
    z[...] = data
    if attrs is not None:
        z.attrs.update(attrs)
    expected = np.array(data, copy=True)
    for coords in missing:
        os.remove(chunk_file(path, sep, coords))
        region = tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, chunks, shape))
        expected[region] = 0 if fill is None else fill
    bin_name = name.replace("/", "__") + ".bin"
    le = expected.dtype.newbyteorder("<") if expected.dtype.itemsize > 1 else expected.dtype
    with open(os.path.join(EXPECTED, bin_name), "wb") as f:
        f.write(np.ascontiguousarray(expected).astype(le).tobytes())
    manifest["arrays"].append({
        "name": name,
        "path": "arrays/" + name,
        "expected": "expected/" + bin_name,
        "dtype": z.dtype.str,
        "shape": list(z.shape),
        "chunks": list(z.chunks),
        "order": z.order,
        "separator": sep,
        "compressor": None if z.compressor is None else z.compressor.get_config(),
        "fill": fill_repr(z.dtype, z.fill_value),
        "missing": [list(c) for c in missing],
    })


def write(path, name, content):
    target = os.path.join(path, *name.split("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(content if isinstance(content, bytes) else content.encode("utf-8"))


def zarray(dtype="<i4", shape=(4, 4), chunks=(2, 2), compressor=None, fill=0, sep=".", **extra):
    meta = {"zarr_format": 2, "shape": list(shape), "chunks": list(chunks), "dtype": dtype,
            "compressor": compressor, "fill_value": fill, "order": "C", "filters": None,
            "dimension_separator": sep}
    meta.update(extra)
    return json.dumps(meta, indent=4, sort_keys=True)


def malformed(name, files, offending, chunk=None):
    """A broken fixture; the reader must fail naming the URL, the offending value and (for chunks) the chunk key."""
    path = os.path.join(MALFORMED, name)
    for file_name, content in files.items():
        write(path, file_name, content)
    manifest["malformed"].append({"name": name, "path": "malformed/" + name, "offending": offending,
                                  "chunk": chunk})


def generate_arrays():
    # Every dtype, edge chunks on both axes, zlib.
    for dt in DTYPES:
        fixture("dtype_" + np.dtype(dt).name, (5, 4), (2, 3), dt, compressor=Zlib(level=1))
    # Big-endian.
    for dt in [">i4", ">f8", ">c16", ">u8", ">i2", ">c8"]:
        fixture("bigendian_" + dt[1:], (5, 4), (4, 3), dt, compressor=Zstd(level=1), missing=[(1, 0)])
    # Fortran order, 2-d and 3-d, with edge chunks.
    fixture("order_f_2d_i4", (5, 7), (2, 3), "<i4", order="F")
    fixture("order_f_3d_f8", (4, 5, 3), (3, 2, 2), "<f8", order="F", compressor=Zlib(level=1), missing=[(0, 1, 0)])
    fixture("order_f_3d_c8_be", (3, 4, 2), (2, 3, 2), ">c8", order="F")
    # Dimension separators.
    fixture("sep_slash", (5, 6, 3), (2, 4, 2), "<i2", sep="/", compressor=GZip(level=1), missing=[(2, 1, 1)])
    fixture("sep_dot", (5, 6, 3), (2, 4, 2), "<i2", sep=".", compressor=GZip(level=1), missing=[(2, 1, 1)])
    fixture("sep_slash_1d", (7,), (3,), "<u4", sep="/")
    # Every compressor.
    compressors = {"none": None, "zlib": Zlib(level=5), "gzip": GZip(level=5), "zstd": Zstd(level=3),
                   "lz4": LZ4(acceleration=1), "bz2": BZ2(level=9)}
    for cname, comp in compressors.items():
        fixture("comp_" + cname, (5, 4), (2, 3), "<f8", compressor=comp)
    for cname in BLOSC_CNAMES:
        for shuffle in (0, 1, 2):
            fixture("blosc_%s_shuffle%d" % (cname, shuffle), (5, 4), (4, 4), "<i4",
                    compressor=Blosc(cname=cname, clevel=5, shuffle=shuffle))
    fixture("blosc_f8_bitshuffle_be", (5, 4), (4, 4), ">f8", compressor=Blosc(cname="zstd", clevel=3, shuffle=2))
    fixture("blosc_b1_shuffle", (9,), (4,), "|b1", compressor=Blosc(cname="lz4", clevel=5, shuffle=1))
    # Fill values, each with a missing chunk (read as fill) and an edge chunk.
    fills = [
        ("fill_zero_f8", "<f8", 0.0), ("fill_nan_f8", "<f8", np.nan), ("fill_nan_f4", "<f4", np.nan),
        ("fill_inf_f4", "<f4", np.inf), ("fill_ninf_f8", "<f8", -np.inf), ("fill_null_i4", "<i4", None),
        ("fill_null_f8", "<f8", None), ("fill_complex_c16", "<c16", complex(1.5, -2.25)),
        ("fill_complex_nan_c8", "<c8", complex(np.nan, np.inf)), ("fill_u8_max", "<u8", np.iinfo(np.uint64).max),
        ("fill_u4_max", "<u4", np.iinfo(np.uint32).max), ("fill_neg_i1", "|i1", -7),
        ("fill_neg_i8", "<i8", -123456789012), ("fill_true_b1", "|b1", True), ("fill_frac_f4", "<f4", -1.5),
    ]
    for name, dt, fill in fills:
        fixture(name, (5, 4), (2, 3), dt, compressor=Zlib(level=1), fill=fill, missing=[(0, 1), (2, 0)])
    fixture("missing_all", (3, 5), (2, 2), "<f8", fill=-2.5,
            missing=[(a, b) for a in range(2) for b in range(3)])
    # 0-d arrays and zero-length dimensions.
    fixture("zerod_f8", (), (), "<f8", compressor=Zlib(level=1), fill=np.nan)
    fixture("zerod_c16_be", (), (), ">c16")
    fixture("zerod_missing_i4", (), (), "<i4", fill=42, missing=[()])
    fixture("zerolen_1d", (0,), (4,), "<f8", fill=np.nan)
    fixture("zerolen_2d", (3, 0), (2, 2), "<i2")
    # Attributes on an array, and a group with attributes, an array and a sub-group.
    fixture("attrs_array", (3,), (2,), "<i8", attrs={
        "units": "K", "scale": 0.5, "nan": float("nan"), "inf": float("-inf"), "nested": {"a": [1, 2, 3], "b": None},
        "unicode": "\u00b5\u00b0 \U0001F600", "big": 2 ** 64 - 1, "flag": True})
    g = zarr.open_group(os.path.join(ARRAYS, "group"), mode="w")
    g.attrs.update({"title": "fixture group", "version": 3, "tags": ["a", "b"]})
    g.create_group("sub").attrs["level"] = 1
    fixture("group/temp", (4, 3), (2, 2), "<i2", compressor=Zlib(level=1))
    fixture("group/sub/deep", (3, 2), (2, 2), "<f4")


def generate_malformed():
    good_chunk = values("<i4", (2, 2)).astype("<i4").tobytes()
    malformed("no_zarray", {".zattrs": "{}", "0.0": good_chunk}, ".zarray")
    malformed("group_not_array", {".zgroup": '{"zarr_format": 2}'}, "group")
    malformed("invalid_json", {".zarray": '{"zarr_format": 2, "shape": [4, 4], "chunks": [2, 2'}, "JSON")
    malformed("wrong_format", {".zarray": zarray(zarr_format=3)}, "zarr_format 3")
    malformed("rank_mismatch", {".zarray": zarray(shape=(4, 4), chunks=(2,))}, "[2]")
    malformed("zero_chunk", {".zarray": zarray(shape=(4, 4), chunks=(2, 0))}, "[2, 0]")
    malformed("unknown_compressor", {".zarray": zarray(compressor={"id": "lzma", "preset": 1})}, "lzma")
    malformed("bad_compressor_level", {".zarray": zarray(compressor={"id": "zlib", "level": 42})}, "42")
    blosc = {"id": "blosc", "cname": "snappy", "clevel": 5, "shuffle": 1, "blocksize": 0}
    malformed("blosc_bad_cname", {".zarray": zarray(compressor=blosc)}, "snappy")
    malformed("blosc_bad_shuffle", {".zarray": zarray(compressor=dict(blosc, cname="lz4", shuffle=7))}, "shuffle=7")
    malformed("dtype_datetime", {".zarray": zarray(dtype="<M8[ns]")}, "<M8[ns]")
    malformed("dtype_bytes", {".zarray": zarray(dtype="|S5")}, "|S5")
    malformed("dtype_structured", {".zarray": zarray(dtype=[["a", "<i4"], ["b", "<f8"]])}, "<f8")
    malformed("dtype_float16", {".zarray": zarray(dtype="<f2")}, "<f2")
    malformed("filters", {".zarray": zarray(filters=[{"id": "delta", "dtype": "<i4"}])}, "delta")
    malformed("bad_fill", {".zarray": zarray(fill="NaN")}, "NaN")
    malformed("bad_separator", {".zarray": zarray(sep="_")}, "_")
    # Corrupt chunks: only chunk (1, 0) is stored, and it is broken.
    whole = zlib.compress(good_chunk)
    corrupt = [
        ("chunk_zlib_truncated", {"id": "zlib", "level": 1}, whole[: len(whole) // 2], "."),
        ("chunk_zlib_garbage", {"id": "zlib", "level": 1}, b"this is not a zlib stream", "."),
        ("chunk_gzip_truncated", {"id": "gzip", "level": 1}, gzip.compress(good_chunk, mtime=0)[:12], "."),
        ("chunk_zstd_garbage", {"id": "zstd", "level": 1}, b"\x28\xb5\x2f\xfd garbage garbage", "."),
        ("chunk_lz4_garbage", {"id": "lz4", "acceleration": 1}, b"\x10\x00\x00\x00\xff\xff\xff\xff\xff\xff", "."),
        ("chunk_bz2_garbage", {"id": "bz2", "level": 1}, bz2.compress(good_chunk)[:20], "."),
        ("chunk_raw_short", None, good_chunk[:10], "."),
        ("chunk_raw_long_nested", None, good_chunk + b"\x00\x00\x00\x00", "/"),
        ("chunk_blosc_garbage", {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
         b"\x02\x01\x21\x04garbage-garbage-garbage", "."),
    ]
    for name, comp, content, sep in corrupt:
        key = "1" + sep + "0"
        files = {".zarray": zarray(compressor=comp, sep=sep), key: content}
        malformed(name, files, "corrupt", chunk=key)


def main():
    for d in (ARRAYS, EXPECTED, MALFORMED):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    generate_arrays()
    generate_malformed()
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %d arrays and %d malformed fixtures" % (len(manifest["arrays"]), len(manifest["malformed"])))


if __name__ == "__main__":
    main()
