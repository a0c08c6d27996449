"""zarr-python's side of S3ObjectStoreIT: it writes and reads Zarr v2 arrays as files in the S3 test server's
directory (DIR/BUCKET/KEY), the objects the server serves, and prints what it wrote or read as one JSON object."""
import json
import os
import sys

import numcodecs
import numpy as np
import zarr

# Array names with characters that URIs refuse or decode, under a prefix several levels deep.
NAMES = ["with space.zarr", "r[1]^{x}.zarr", "q#x.zarr", "pct%41.zarr", "ünï€ode.zarr", "a.b-c.zarr"]


def values(a):
    return {"dtype": a.dtype.str, "shape": list(a.shape), "values": a[...].ravel().tolist()}


def write(bucket_dir):
    out = {}
    rng = np.random.default_rng(7)
    for i, name in enumerate(NAMES):
        data = rng.standard_normal((7, 5)) * (i + 1)
        z = zarr.open_array(os.path.join(bucket_dir, "in", "l1", "l2", name), mode="w", shape=data.shape,
                            chunks=(3, 2), dtype="f8", compressor=numcodecs.Zlib(1),
                            dimension_separator="/" if i % 2 else ".")
        z[...] = data
        out[name] = values(z)
    # A group of more than 1000 arrays, and an array of more than 1000 chunks: listings of several pages.
    g = zarr.open_group(os.path.join(bucket_dir, "wide.zarr"), mode="w")
    for i in range(1100):
        g.create_dataset("v%04d" % i, data=np.array([i], "i4"), chunks=(1,))
    many = zarr.open_array(os.path.join(bucket_dir, "many.zarr"), mode="w", shape=(3000,), chunks=(2,), dtype="i2")
    many[:2400] = np.arange(2400, dtype="i2")
    out["wide.zarr"] = sorted(g.array_keys())
    out["many.zarr"] = {"chunks_initialized": int(many.nchunks_initialized), **values(many)}
    print(json.dumps(out))


def read(bucket_dir, keys):
    print(json.dumps({k: values(zarr.open_array(os.path.join(bucket_dir, k), mode="r")) for k in keys}))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        read(sys.argv[2], sys.argv[3:])
