"""Writes Zarr v2 arrays with CF attributes and prints, as JSON, what xarray decodes them to.

Usage: cases.py OUT_DIR
Each case is a group OUT_DIR/NAME.zarr holding the array 'v' (dimension 'x', or 'v' itself for a coordinate). For each
case the output gives xarray's decoded dtype and values: numbers (NaN as null), datetime64 values as nanoseconds since
1970-01-01 (NaT as null), timedelta64 values as nanoseconds (NaT as null), cftime dates as 'YYYY-MM-DD HH:MM:SS.ffffff' labels, and the values decoded without times
('numeric', for arrays whose dates a Gregorian timestamp may not hold).
"""
import json
import sys
import warnings

import numpy as np
import xarray as xr
import zarr

warnings.simplefilter("ignore")
out = sys.argv[1]

CASES = [
    # name, dtype, zarr fill_value, stored values, attributes, coordinate?
    ("i2_fill_scale_offset", "i2", -32767, [-32767, 0, 1, 2, 12345, -32000], {"scale_factor": 0.0018, "add_offset": 265.0}, False),
    ("i2_attr_fill_scale_offset", "i2", None, [-32767, 0, 1, -5], {"_FillValue": -32767, "scale_factor": 0.01, "add_offset": 270.0}, False),
    ("i2_scale_offset", "i2", None, [-3, 0, 1, 2], {"scale_factor": 0.01, "add_offset": 270.0}, False),
    ("i2_scale", "i2", None, [-3, 0, 1, 2], {"scale_factor": 0.1}, False),
    ("i2_missing_list", "i2", None, [0, 1, 2, 3], {"missing_value": [1, 2]}, False),
    ("i4_fill", "i4", 0, [0, 1, -2, 2147483647], {}, False),
    ("i8_fill", "i8", 7, [7, 1, -2, 123456789012], {}, False),
    ("u1_fill", "u1", 255, [255, 0, 1, 254], {}, False),
    ("u2_fill_scale", "u2", 65535, [65535, 0, 1, 40000], {"scale_factor": 0.5}, False),
    ("i1_fill", "i1", 0, [0, 1, -128, 127], {}, False),
    ("i4_scale_offset", "i4", None, [0, 1, 2, -7], {"scale_factor": 0.5, "add_offset": 1.0}, False),
    ("f4_fill0", "f4", 0.0, [0.0, 1.5, -2.25, float("nan")], {}, False),
    ("f4_nan_fill", "f4", float("nan"), [float("nan"), 1.5, -2.25, 0.0], {}, False),
    ("f4_scale_offset", "f4", float("nan"), [0.0, 1.5, -2.25, 3.0], {"scale_factor": 0.1, "add_offset": 2.0}, False),
    ("f8_fill_scale", "f8", -9999.0, [-9999.0, 1.5, 0.1, 3.0], {"scale_factor": 3.0}, False),
    ("i1_unsigned", "i1", None, [-1, 0, 1, -128, 127], {"_Unsigned": "true"}, False),
    ("i1_unsigned_fill", "i1", -1, [-1, 0, 1, -128, 127, -2], {"_Unsigned": "true"}, False),
    ("i1_unsigned_attr_fill", "i1", None, [-1, 0, 1, -128], {"_Unsigned": "true", "_FillValue": -1}, False),
    ("i2_unsigned_scale", "i2", None, [-1, 0, 1, -32768], {"_Unsigned": "true", "scale_factor": 0.5}, False),
    ("i2_unsigned_fill_scale_offset", "i2", -2, [-2, 0, 1, -32768, -1], {"_Unsigned": "true", "scale_factor": 0.01, "add_offset": 10.0}, False),
    ("i4_unsigned", "i4", None, [-1, 0, 1], {"_Unsigned": "true"}, False),
    ("u1_signed", "u1", None, [255, 0, 1, 128], {"_Unsigned": "false"}, False),
    ("u1_signed_fill", "u1", 255, [255, 0, 1, 128], {"_Unsigned": "false"}, False),
    ("i1_unsigned_other_spelling", "i1", None, [-1, 0], {"_Unsigned": "True"}, False),
    ("f4_unsigned", "f4", None, [-1.5, 0.0], {"_Unsigned": "true"}, False),
    ("duration_hours", "i8", None, [0, 6, -12, 1000000], {"units": "hours"}, False),
    ("duration_days_float_fill", "f8", float("nan"), [0.5, float("nan"), -1.25, 1e-7], {"units": "days"}, False),
    ("duration_seconds_fill", "i4", -1, [-1, 0, 90, 86400], {"units": "seconds"}, False),
    ("duration_nanoseconds", "i8", None, [1, 1500, -1, -1500, 499], {"units": "nanoseconds"}, False),
    ("duration_packed", "i2", -1, [-1, 4, 8], {"units": "hours", "scale_factor": 0.5}, False),
    ("duration_milliseconds_f4", "f4", None, [1.5, 2.25, -0.5], {"units": "milliseconds"}, False),
    ("duration_hours_coordinate", "i4", None, [0, 6, 12, 18], {"units": "hours"}, True),
    ("not_duration_singular", "i4", None, [1, 2], {"units": "hour"}, False),
    ("not_duration_capitalized", "i4", None, [1, 2], {"units": "Hours"}, False),
    ("i1_bool", "i1", None, [0, 1, 2, 0], {"dtype": "bool"}, False),
    ("time_hours_1900", "i8", None, [1053096, 1053097, 0, 876576], {"units": "hours since 1900-01-01", "calendar": "proleptic_gregorian"}, False),
    ("time_days_fill", "i8", -1, [0, -1, 31, 366], {"units": "days since 2000-01-01"}, False),
    ("time_float_tz", "f8", float("nan"), [0.0, 1.5, float("nan"), -0.25], {"units": "days since 2000-01-01 12:00:00 +05:00"}, False),
    ("time_seconds_epoch", "f4", float("nan"), [0.0, 86400.0, float("nan"), 1.5], {"units": "seconds since 1970-01-01", "calendar": "standard"}, False),
    ("time_packed", "i2", -1, [0, -1, 2, 100], {"units": "hours since 2020-01-01", "scale_factor": 6.0}, False),
    ("time_noleap", "i4", None, [0, 59, 365, 730], {"units": "days since 2000-01-01", "calendar": "noleap"}, False),
    ("time_360_variable", "i4", None, [0, 30, 59, 365], {"units": "days since 2000-01-01", "calendar": "360_day"}, False),
    ("time_360_coordinate", "i4", None, [0, 30, 60, 90], {"units": "days since 2000-01-01", "calendar": "360_day"}, True),
    ("time_360_coordinate_feb30", "i4", None, [0, 30, 59], {"units": "days since 2000-01-01", "calendar": "360_day"}, True),
    ("time_julian_coordinate", "i8", None, [0, 59, 365], {"units": "days since 2000-01-01", "calendar": "julian"}, True),
    ("i1_bool_fill", "i1", 1, [1, 0, 1, 0, 2, -1], {"dtype": "bool"}, False),
    ("i1_bool_fill0", "i1", 0, [0, 1, 2, 0], {"dtype": "bool"}, False),
    ("time_ns_fill_above_2_53", "i8", -999, [1700000332277599388, 1700000946957893278, -999], {"units": "nanoseconds since 1970-01-01"}, False),
    ("time_reference_nanoseconds", "i8", None, [0, 7], {"units": "seconds since 2000-01-01 00:00:00.123456789"}, False),
    ("time_reference_carry", "i8", None, [0, 7], {"units": "seconds since 2000-01-01 23:59:59.9999996"}, False),
    ("time_noleap_fraction", "f8", None, [1984.553798956869, 0.5], {"units": "days since 2001-01-01", "calendar": "noleap"}, False),
    ("time_all_leap_variable", "i8", None, [0, 59, 365], {"units": "days since 2001-01-01 06:00", "calendar": "all_leap"}, False),
]


def plain(values):
    return [None if (isinstance(x, float) and x != x) else x for x in values]


result = {}
for name, dtype, fill, values, attrs, coordinate in CASES:
    path = f"{out}/{name}.zarr"
    var = "v"
    dim = "v" if coordinate else "x"
    g = zarr.open_group(path, mode="w")
    a = g.create(var, shape=(len(values),), chunks=(3,), dtype=dtype, fill_value=fill)
    a[:] = np.array(values, dtype=dtype)
    a.attrs.update(dict(attrs, _ARRAY_DIMENSIONS=[dim]))
    decoded = xr.open_zarr(path, consolidated=False)[var]
    numeric = xr.open_zarr(path, consolidated=False, decode_times=False)[var].values
    v = decoded.values
    entry = {"dtype": str(v.dtype), "numeric": plain(numeric.tolist())}
    if v.dtype.kind == "m":
        nanos = v.astype("timedelta64[ns]").astype("int64")
        entry["values"] = [None if np.isnat(t) else int(m) for t, m in zip(v, nanos)]
    elif v.dtype.kind == "M":
        nanos = v.astype("datetime64[ns]").astype("int64")
        entry["values"] = [None if np.isnat(t) else int(m) for t, m in zip(v, nanos)]
    elif v.dtype == object:
        entry["values"] = [x.strftime("%Y-%m-%d %H:%M:%S") + ".%06d" % x.microsecond for x in v]
    else:
        entry["values"] = plain(v.tolist())
    result[name] = entry
print(json.dumps(result))
