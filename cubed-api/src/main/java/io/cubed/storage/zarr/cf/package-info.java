/**
 * CF decoding of Zarr arrays, as xarray's {@code decode_cf} does it: fill values and missing values to NaN, {@code
 * scale_factor} and {@code add_offset} applied, times in "UNIT since DATE" to microseconds since 1970-01-01 on the
 * CF calendars ({@link io.cubed.storage.zarr.cf.CfDecoding}, {@link io.cubed.storage.zarr.cf.CfTimeUnits}, {@link
 * io.cubed.storage.zarr.cf.CfCalendar}), decided once from an array's attributes and applied to each chunk read
 * ({@link io.cubed.storage.zarr.cf.CfDecodedArray}). The array API ({@code Cubed.fromZarr(url, spec, CfOptions)}) and
 * the Spark SQL reader decode through it, so that both give the same values.
 */
package io.cubed.storage.zarr.cf;
