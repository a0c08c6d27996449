package io.cubed.storage.zarr.cf;

import java.io.Serializable;
import java.util.Objects;

/**
 * Which CF decodings apply when an array is read, after xarray's {@code open_zarr} arguments: {@code maskAndScale}
 * (fill values to NaN, {@code scale_factor} and {@code add_offset} applied), {@code decodeTimes} ("UNIT since DATE"
 * to dates and times) and {@code zarrFillValueAsMask} (whether the Zarr {@code fill_value} counts as a
 * {@code _FillValue} when that attribute is absent: null decides by format, yes for Zarr v2 and no for v3, as
 * xarray's {@code use_zarr_fill_value_as_mask=None} does). Immutable.
 */
public final class CfOptions implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final CfOptions DEFAULTS = new CfOptions(true, true, null);
    private static final CfOptions NONE = new CfOptions(false, false, null);

    private final boolean maskAndScale;
    private final boolean decodeTimes;
    private final Boolean zarrFillValueAsMask;

    private CfOptions(boolean maskAndScale, boolean decodeTimes, Boolean zarrFillValueAsMask) {
        this.maskAndScale = maskAndScale;
        this.decodeTimes = decodeTimes;
        this.zarrFillValueAsMask = zarrFillValueAsMask;
    }

    /** Everything decoded, as xarray's {@code decode_cf} does by default. */
    public static CfOptions defaults() {
        return DEFAULTS;
    }

    /** Nothing decoded: values as stored. */
    public static CfOptions none() {
        return NONE;
    }

    public CfOptions withMaskAndScale(boolean on) {
        return new CfOptions(on, decodeTimes, zarrFillValueAsMask);
    }

    public CfOptions withDecodeTimes(boolean on) {
        return new CfOptions(maskAndScale, on, zarrFillValueAsMask);
    }

    /** Whether the Zarr {@code fill_value} masks values like a {@code _FillValue}; null: Zarr v2 yes, v3 no. */
    public CfOptions withZarrFillValueAsMask(Boolean on) {
        return new CfOptions(maskAndScale, decodeTimes, on);
    }

    public boolean maskAndScale() {
        return maskAndScale;
    }

    public boolean decodeTimes() {
        return decodeTimes;
    }

    /** Whether the {@code fill_value} of an array of Zarr format {@code zarrFormat} masks values. */
    public boolean zarrFillValueAsMask(int zarrFormat) {
        return zarrFillValueAsMask == null ? zarrFormat == 2 : zarrFillValueAsMask;
    }

    /** True when nothing is decoded. */
    public boolean isNone() {
        return !maskAndScale && !decodeTimes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CfOptions c
                && c.maskAndScale == maskAndScale
                && c.decodeTimes == decodeTimes
                && Objects.equals(c.zarrFillValueAsMask, zarrFillValueAsMask);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maskAndScale, decodeTimes, zarrFillValueAsMask);
    }

    @Override
    public String toString() {
        return "CfOptions{maskAndScale=" + maskAndScale + ", decodeTimes=" + decodeTimes + ", zarrFillValueAsMask="
                + (zarrFillValueAsMask == null ? "by format" : zarrFillValueAsMask) + "}";
    }
}
