"""Writes an ERA5-like dataset with xarray's CF encoding to Zarr v2 and prints, as JSON, xarray's decoded answers.

Usage: write_era5.py OUT.zarr
The group holds t2m (int16 packed with scale_factor, add_offset and _FillValue -32767; some cells missing), tp (float32
with NaN cells), time (6-hourly 2020-01-01 to 2020-04-30 as int64 "hours since 1900-01-01"), lat (descending), lon
and a static land-sea mask lsm over (lat, lon). Every answer is computed by xarray on the dataset opened back from the
store, decoded (open_zarr's defaults), in float64 where it averages.
"""
import json
import sys
import warnings

import numpy as np
import pandas as pd
import xarray as xr

warnings.simplefilter("ignore")
out = sys.argv[1]
time = pd.date_range("2020-01-01", "2020-04-30T18:00", freq="6H")
lat = np.arange(90.0, -90.1, -10.0)
lon = np.arange(0.0, 360.0, 10.0)
nt, ny, nx = len(time), len(lat), len(lon)
rng = np.random.default_rng(2024)
day = np.arange(nt) / 4.0
t2m = (
    250.0
    + 35.0 * np.cos(np.deg2rad(lat))[None, :, None]
    + 8.0 * np.sin(2 * np.pi * day / 365.0)[:, None, None] * np.sin(np.deg2rad(lat))[None, :, None]
    + 2.0 * np.sin(3 * np.deg2rad(lon))[None, None, :]
    + rng.normal(0.0, 1.5, (nt, ny, nx))
)
t2m[rng.random((nt, ny, nx)) < 0.01] = np.nan
tp = rng.gamma(0.4, 0.002, (nt, ny, nx)).astype("float32")
tp[rng.random((nt, ny, nx)) < 0.03] = np.nan
lsm = np.clip(rng.random((ny, nx)) * 1.4 - 0.2, 0.0, 1.0).astype("float32")
ds = xr.Dataset(
    {
        "t2m": (("time", "lat", "lon"), t2m, {"units": "K", "long_name": "2 metre temperature"}),
        "tp": (("time", "lat", "lon"), tp, {"units": "m", "long_name": "Total precipitation"}),
        "lsm": (("lat", "lon"), lsm, {"units": "(0 - 1)", "long_name": "Land-sea mask"}),
    },
    coords={"time": time, "lat": ("lat", lat, {"units": "degrees_north"}), "lon": ("lon", lon, {"units": "degrees_east"})},
)
lo, hi = np.nanmin(t2m), np.nanmax(t2m)
scale = (hi - lo) / (2**16 - 2)
offset = (hi + lo) / 2
ds.to_zarr(
    out,
    mode="w",
    encoding={
        "t2m": {"dtype": "int16", "scale_factor": scale, "add_offset": offset, "_FillValue": -32767,
                "chunks": (48, 10, 18)},
        "tp": {"chunks": (48, 10, 18)},
        "lsm": {"chunks": (10, 18)},
        "time": {"units": "hours since 1900-01-01", "dtype": "int64"},
    },
)

d = xr.open_zarr(out)
t2m_d = d["t2m"].astype("float64")
tp_d = d["tp"].astype("float64")
box = dict(time=slice("2020-02-10T00:00", "2020-02-20T18:00"), lat=slice(60.0, 30.5), lon=slice(0.0, 40.0))
point = dict(time="2020-02-20T12:00", lat=40.0, lon=10.0)
missing = np.argwhere(np.isnan(d["t2m"].values))[0]
months = sorted(set(zip(d["time"].dt.year.values.tolist(), d["time"].dt.month.values.tolist())))


def micros(t):
    return int(np.datetime64(t, "us").astype("int64"))


def number(x):
    x = float(x)
    return None if np.isnan(x) else x


print(json.dumps({
    "dtypes": {k: str(d[k].dtype) for k in ["time", "lat", "lon", "t2m", "tp", "lsm"]},
    "count": int(d["t2m"].size),
    "count_t2m": int(d["t2m"].count()),
    "box_t2m": float(t2m_d.sel(**box).mean()),
    "box_tp": float(tp_d.sel(**box).mean()),
    "box_n": int(d["t2m"].sel(**box).size),
    "point": [micros(d["time"].sel(time=point["time"]).values), point["lat"], point["lon"],
              number(d["t2m"].sel(**point)), number(d["tp"].sel(**point))],
    "missing_point": [micros(d["time"].values[missing[0]]), float(d["lat"].values[missing[1]]),
                      float(d["lon"].values[missing[2]]), number(d["tp"].values[tuple(missing)])],
    "monthly": [[y, m, float(t2m_d.where((d["time"].dt.year == y) & (d["time"].dt.month == m), drop=True).mean())]
                for y, m in months],
    "land_t2m": float(t2m_d.where(d["lsm"] > 0.5).mean()),
    "land_cells": int((d["lsm"] > 0.5).sum()),
    "missing_t2m": int(d["t2m"].isnull().sum()),
    "missing_tp": int(d["tp"].isnull().sum()),
    "mean_t2m": float(t2m_d.mean()),
    "mean_tp": float(tp_d.mean()),
    "first_time": micros(d["time"].values[0]),
    "last_time": micros(d["time"].values[-1]),
}))
