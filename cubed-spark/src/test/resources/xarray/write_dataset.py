"""Writes a climate-like dataset with xarray to Zarr v2 and prints, as JSON, what SQL over it must answer.

Usage: write_dataset.py OUT.zarr
The answers are computed with NumPy from the very arrays written: the row count, the mean of t2m per time over
latitudes in [-30, 30], the sum of tp where time is 3 or 7 and lon < 90, and a few whole rows; and the dtype xarray
gives the time coordinate (units "hours": durations).
"""
import json
import sys

import numpy as np
import xarray as xr

out = sys.argv[1]
nt, ny, nx = 12, 19, 36
time = np.arange(nt, dtype="int64") * 6
lat = np.linspace(90.0, -90.0, ny)
lon = np.arange(nx, dtype="float64") * 10.0
rng = np.random.default_rng(42)
t2m = (250 + 30 * np.cos(np.deg2rad(lat))[None, :, None] + rng.normal(0, 2, (nt, ny, nx))).astype("float32")
tp = rng.gamma(0.5, 2.0, (nt, ny, nx))
ds = xr.Dataset(
    {"t2m": (("time", "lat", "lon"), t2m, {"units": "K"}), "tp": (("time", "lat", "lon"), tp)},
    coords={"time": ("time", time, {"units": "hours"}), "lat": lat, "lon": lon},
)
ds.to_zarr(out, mode="w", encoding={"t2m": {"chunks": (4, 10, 12)}, "tp": {"chunks": (5, 7, 36)}})

band = (lat >= -30) & (lat <= 30)
per_time = t2m[:, band, :].astype("float64").mean(axis=(1, 2))
sel_t = np.isin(time, [18, 42])
sel_x = lon < 90
rows = []
for (t, y, x) in [(0, 0, 0), (5, 9, 17), (11, 18, 35)]:
    rows.append([int(time[t]), float(lat[y]), float(lon[x]), float(t2m[t, y, x]), float(tp[t, y, x])])
print(json.dumps({
    "time_dtype": str(xr.open_zarr(out).time.dtype),
    "count": nt * ny * nx,
    "per_time": [[int(t), float(v)] for t, v in zip(time, per_time)],
    "tp_sum": float(tp[sel_t][:, :, sel_x].sum()),
    "rows": rows,
}))
