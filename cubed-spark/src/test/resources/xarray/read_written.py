"""Opens a group Spark wrote as Zarr with xarray (decoding CF) and prints every value as JSON.

Usage: read_written.py GROUP.zarr
Times are printed as integer nanoseconds since 1970-01-01 (NaT as null), missing floats (NaN) as null.
"""
import json
import sys

import numpy as np
import xarray as xr

ds = xr.open_zarr(sys.argv[1])


def values(a):
    if np.issubdtype(a.dtype, np.datetime64):
        return [None if np.isnat(v) else int(v.astype("datetime64[ns]").astype("int64")) for v in a.ravel()]
    return [None if (isinstance(v, float) and np.isnan(v)) else v for v in a.ravel().tolist()]


print(json.dumps({
    "dims": {k: list(ds[k].dims) for k in ds.data_vars},
    "coords": {k: values(ds[k].values) for k in ds.coords},
    "vars": {k: values(ds[k].values) for k in ds.data_vars},
    "dtypes": {k: str(ds[k].dtype) for k in list(ds.coords) + list(ds.data_vars)},
}))
