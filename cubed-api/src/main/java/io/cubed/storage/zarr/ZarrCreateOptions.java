package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Objects;

/**
 * How to create a new Zarr v2 array: shape and chunks in elements, dtype, compressor, fill value, dimension separator,
 * and whether an existing array at the same place may be replaced. Built with {@link #builder}.
 */
public final class ZarrCreateOptions {
    private final long[] shape;
    private final int[] chunks;
    private final DType dtype;
    private final Compressor compressor;
    private final Scalar fillValue;
    private final String dimensionSeparator;
    private final boolean overwrite;

    private ZarrCreateOptions(Builder b) {
        this.shape = b.shape.clone();
        this.chunks = b.chunks.clone();
        this.dtype = b.dtype;
        this.compressor = b.compressor;
        this.fillValue = b.fillValue;
        this.dimensionSeparator = b.dimensionSeparator;
        this.overwrite = b.overwrite;
    }

    /** Starts options for an array of {@code shape} elements in chunks of {@code chunks} elements of {@code dtype}. */
    public static Builder builder(long[] shape, int[] chunks, DType dtype) {
        return new Builder(shape, chunks, dtype);
    }

    /** The metadata these options describe. */
    public ZarrV2Metadata toMetadata() {
        return ZarrV2Metadata.create(shape, chunks, dtype, compressor, fillValue, dimensionSeparator);
    }

    public boolean overwrite() {
        return overwrite;
    }

    /** Builder of {@link ZarrCreateOptions}; defaults: {@link Compressor#defaultCompressor()}, fill 0, separator ".". */
    public static final class Builder {
        private final long[] shape;
        private final int[] chunks;
        private final DType dtype;
        private Compressor compressor = Compressor.defaultCompressor();
        private Scalar fillValue = Scalar.zero();
        private String dimensionSeparator = ".";
        private boolean overwrite;

        private Builder(long[] shape, int[] chunks, DType dtype) {
            this.shape = Objects.requireNonNull(shape, "shape").clone();
            this.chunks = Objects.requireNonNull(chunks, "chunks").clone();
            this.dtype = Objects.requireNonNull(dtype, "dtype");
            if (shape.length != chunks.length) {
                throw new InvalidArgumentException(
                        "chunks " + Arrays.toString(chunks) + " must have the rank of shape " + Arrays.toString(shape));
            }
        }

        /** The compressor; {@code null} stores chunks uncompressed. */
        public Builder compressor(Compressor compressor) {
            this.compressor = compressor;
            return this;
        }

        /** The fill value; {@code null} writes zarr's "no fill value" (missing chunks read as zeros). */
        public Builder fillValue(Scalar fillValue) {
            this.fillValue = fillValue;
            return this;
        }

        /** {@code "."} (default, chunk keys like {@code 0.1}) or {@code "/"} (nested, {@code 0/1}). */
        public Builder dimensionSeparator(String separator) {
            this.dimensionSeparator = separator;
            return this;
        }

        /** Replace an existing array at the same place (its chunks are deleted first); default false. */
        public Builder overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        public ZarrCreateOptions build() {
            ZarrCreateOptions o = new ZarrCreateOptions(this);
            o.toMetadata();
            return o;
        }
    }
}
