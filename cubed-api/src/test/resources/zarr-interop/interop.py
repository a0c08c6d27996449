#!/usr/bin/python3
"""The zarr-python side of ZarrPythonInteropIT; one process handles a whole batch of cases.

Usage: interop.py write|read CASES_JSON

Each case: name, path, dtype (NumPy string, e.g. ">i4"), shape, chunks, compressor (numcodecs config or null),
fill (as in .zarray: number, "NaN", "Infinity", "-Infinity", [re, im], boolean or null), order, separator and
missing (coordinates of chunks that must not exist). Values follow the same formula as InteropCases.java.

* write: creates each array with zarr-python, stores the formula values, deletes the missing chunks, and prints
  "WROTE <name>" or "ERROR <name> <reason>". A "python_group" path gets a group with attributes.
* read: opens each array (written by Java) with zarr-python, checks metadata, values and chunk files, and prints
  "OK <name>" or "FAIL <name> <reason>". A "java_group" path is read and printed as "GROUP <json>".
"""
import json
import os
import sys

import numcodecs
import numpy as np
import zarr


def formula(dtype, shape):
    """Element i (C order) is: bool i%3==0; ints i*7919-1000 wrapped; floats i/4-3 with NaN/Inf/-Inf at
    i%11 in (5, 7, 9); complex (i/2-1) + (2-i/4)j with a NaN real part where i%13==4."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    if dt.kind == "b":
        v = i % 3 == 0
    elif dt.kind in "iu":
        v = (i * 7919 - 1000).astype(dt)
    elif dt.kind == "f":
        v = i * 0.25 - 3.0
        v[i % 11 == 5] = np.nan
        v[i % 11 == 7] = np.inf
        v[i % 11 == 9] = -np.inf
    else:
        re = i * 0.5 - 1.0
        re[i % 13 == 4] = np.nan
        v = np.empty(n, dtype=np.complex128)
        v.real = re
        v.imag = 2.0 - i * 0.25
    return np.asarray(v).astype(dt).reshape(shape)


def decode_real(x):
    if isinstance(x, str):
        return {"NaN": np.nan, "Infinity": np.inf, "-Infinity": -np.inf}[x]
    return float(x)


def decode_fill(fill, dt):
    if fill is None:
        return None
    if dt.kind == "b":
        return bool(fill)
    if dt.kind in "iu":
        return int(fill)
    if dt.kind == "f":
        return decode_real(fill)
    return complex(decode_real(fill[0]), decode_real(fill[1]))


def canonical_bytes(values, dt):
    """Little-endian bytes of values as dt, every NaN (whatever its sign or payload) made the canonical NaN."""
    le = dt.newbyteorder("<") if dt.itemsize > 1 else dt
    a = np.array(values, dtype=le, copy=True)
    if dt.kind in "fc":
        parts = a.reshape(-1).view(np.dtype("<f%d" % (dt.itemsize // (2 if dt.kind == "c" else 1))))
        parts[np.isnan(parts)] = np.nan
    return a.tobytes()


def same_scalar(a, b, dt):
    if a is None or b is None:
        return a is None and b is None
    return canonical_bytes(a, dt) == canonical_bytes(b, dt)


def regions(case):
    for coords in case["missing"]:
        yield coords, tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, case["chunks"], case["shape"]))


def chunk_file(case, coords):
    key = case["separator"].join(str(c) for c in coords) if coords else "0"
    return os.path.join(case["path"], *key.split("/"))


def all_chunks(case):
    grid = [(s + k - 1) // k for s, k in zip(case["shape"], case["chunks"])]
    return [tuple(int(x) for x in c) for c in np.ndindex(*grid)] if grid else [()]


def write_case(case):
    dt = np.dtype(case["dtype"])
    comp = case["compressor"]
    z = zarr.open(case["path"], mode="w", shape=tuple(case["shape"]), chunks=tuple(case["chunks"]), dtype=dt,
                  compressor=None if comp is None else numcodecs.get_codec(dict(comp)),
                  fill_value=decode_fill(case["fill"], dt), order=case["order"],
                  dimension_separator=case["separator"])
    z[...] = formula(dt, tuple(case["shape"]))
    for coords, _ in regions(case):
        os.remove(chunk_file(case, coords))


def read_case(case):
    dt = np.dtype(case["dtype"])
    shape = tuple(case["shape"])
    z = zarr.open(case["path"], mode="r")
    problems = []
    for what, got, want in (("dtype", z.dtype.str, dt.str), ("shape", z.shape, shape),
                            ("chunks", z.chunks, tuple(case["chunks"])), ("order", z.order, "C"),
                            ("compressor", None if z.compressor is None else z.compressor.get_config(),
                             case["compressor"])):
        if got != want:
            problems.append("%s is %r, expected %r" % (what, got, want))
    fill = decode_fill(case["fill"], dt)
    if not same_scalar(z.fill_value, fill, dt):
        problems.append("fill_value is %r, expected %r" % (z.fill_value, fill))
    missing = {tuple(c) for c in case["missing"]}
    for coords in all_chunks(case) if 0 not in shape else []:
        exists = os.path.isfile(chunk_file(case, coords))
        if exists == (coords in missing):
            problems.append("chunk %s exists=%s" % (coords, exists))
    got = np.array(z[...])
    want = formula(dt, shape)
    for _, region in regions(case):
        if fill is None:
            got[region] = 0  # zarr-python leaves missing chunks uninitialised when there is no fill value
            want[region] = 0
        else:
            want[region] = fill
    got_bytes = canonical_bytes(got, dt)
    want_bytes = canonical_bytes(want, dt)
    if got.shape != want.shape:
        problems.append("data shape %s, expected %s" % (got.shape, want.shape))
    elif got_bytes != want_bytes:
        flat_got, flat_want = got.reshape(-1), want.reshape(-1)
        for k in range(flat_got.size):
            if canonical_bytes(flat_got[k:k + 1], dt) != canonical_bytes(flat_want[k:k + 1], dt):
                problems.append("element %s is %r, expected %r"
                                % (np.unravel_index(k, shape), flat_got[k], flat_want[k]))
                break
    return problems


def write_group(path):
    g = zarr.open_group(path, mode="w")
    g.attrs.update({"title": "written by zarr-python", "n": 7, "pi": 3.25, "list": [1, "a", None],
                    "nested": {"k": True}, "nan": float("nan"), "text": "\u00e9t\u00e9"})
    g.create_group("child").attrs["depth"] = 1
    a = g.create_dataset("data", shape=(5,), chunks=(2,), dtype="<i4", compressor=numcodecs.Zlib(level=1))
    a[...] = np.arange(5, dtype="<i4") * 3
    a.attrs["units"] = "m"


def read_group(path):
    g = zarr.open_group(path, mode="r")
    return {"attrs": dict(g.attrs), "arrays": sorted(g.array_keys()), "groups": sorted(g.group_keys()),
            "child_attrs": dict(g["child"].attrs), "array_attrs": dict(g["data"].attrs),
            "data": g["data"][...].tolist(), "zgroup": json.load(open(os.path.join(path, ".zgroup")))}


def main():
    mode, cases_file = sys.argv[1], sys.argv[2]
    with open(cases_file) as f:
        spec = json.load(f)
    for case in spec["cases"]:
        try:
            if mode == "write":
                write_case(case)
                print("WROTE", case["name"])
            else:
                problems = read_case(case)
                print(("FAIL %s %s" % (case["name"], "; ".join(problems))) if problems else "OK " + case["name"])
        except Exception as e:  # report per case, keep going
            print("%s %s %s: %s" % ("ERROR" if mode == "write" else "FAIL", case["name"], type(e).__name__,
                                    str(e).replace("\n", " ")))
    if mode == "write" and spec.get("python_group"):
        write_group(spec["python_group"])
        print("GROUP written")
    if mode == "read" and spec.get("java_group"):
        print("GROUP " + json.dumps(read_group(spec["java_group"]), sort_keys=True))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
