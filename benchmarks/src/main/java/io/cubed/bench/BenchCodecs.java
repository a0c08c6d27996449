package io.cubed.bench;

import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import io.cubed.storage.zarr.codec.Codec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The codec configurations the benchmarks know, by the name used in JMH's {@code codec} and {@code compressor}
 * parameters; {@value #NONE} is no compression and {@value #DEFAULT} is {@link Compressor#defaultCompressor()}.
 */
public final class BenchCodecs {
    /** No compressor: a plain copy in {@link CodecBenchmark}, uncompressed chunks in {@link ZarrIoBenchmark}. */
    public static final String NONE = "none";
    /** Whatever {@link Compressor#defaultCompressor()} is. */
    public static final String DEFAULT = "default";

    private static final Map<String, Compressor> COMPRESSORS = compressors();

    private BenchCodecs() {}

    private static Map<String, Compressor> compressors() {
        Map<String, Compressor> m = new LinkedHashMap<>();
        m.put("zlib-1", new Compressor.Zlib(1));
        m.put("gzip-1", new Compressor.Gzip(1));
        m.put("zstd-1", new Compressor.Zstd(1, false));
        m.put("zstd-3", new Compressor.Zstd(3, false));
        m.put("lz4", new Compressor.Lz4(1));
        m.put("bz2-1", new Compressor.Bz2(1));
        m.put("blosc-lz4-shuffle-5", blosc(BloscCname.LZ4, BloscShuffle.SHUFFLE));
        m.put("blosc-lz4-bitshuffle-5", blosc(BloscCname.LZ4, BloscShuffle.BITSHUFFLE));
        m.put("blosc-zstd-shuffle-5", blosc(BloscCname.ZSTD, BloscShuffle.SHUFFLE));
        m.put("blosc-blosclz-shuffle-5", blosc(BloscCname.BLOSCLZ, BloscShuffle.SHUFFLE));
        m.put("blosc-zlib-shuffle-5", blosc(BloscCname.ZLIB, BloscShuffle.SHUFFLE));
        m.put("blosc-lz4hc-shuffle-5", blosc(BloscCname.LZ4HC, BloscShuffle.SHUFFLE));
        return Collections.unmodifiableMap(m);
    }

    private static Compressor blosc(BloscCname cname, BloscShuffle shuffle) {
        return new Compressor.Blosc(cname, 5, shuffle, 0);
    }

    /** Every name {@link #compressor} accepts, {@value #NONE} and {@value #DEFAULT} first. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(NONE);
        names.add(DEFAULT);
        names.addAll(COMPRESSORS.keySet());
        return names;
    }

    /** The names of the Blosc configurations, which need the pure-Java Blosc codec. */
    public static Set<String> bloscNames() {
        Set<String> s = new LinkedHashSet<>();
        COMPRESSORS.forEach((name, c) -> {
            if (c instanceof Compressor.Blosc) {
                s.add(name);
            }
        });
        return s;
    }

    /** The compressor called {@code name}, or {@code null} for {@value #NONE}. */
    public static Compressor compressor(String name) {
        if (NONE.equals(name)) {
            return null;
        }
        if (DEFAULT.equals(name)) {
            return Compressor.defaultCompressor();
        }
        Compressor c = COMPRESSORS.get(name);
        if (c == null) {
            throw new IllegalArgumentException("unknown codec '" + name + "'; known: " + names());
        }
        return c;
    }

    /**
     * The codec called {@code name} for float64 chunks; {@value #NONE} is {@link CopyCodec}, the cost of moving the
     * bytes with no compression at all.
     */
    public static Codec codec(String name) {
        Compressor c = compressor(name);
        return c == null ? new CopyCodec() : c.codec(Double.BYTES);
    }

    /** The baseline codec: both directions allocate the output and {@link System#arraycopy} the input into it. */
    static final class CopyCodec implements Codec {
        @Override
        public byte[] encode(byte[] raw) {
            byte[] out = new byte[raw.length];
            System.arraycopy(raw, 0, out, 0, raw.length);
            return out;
        }

        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            if (encoded.length != decodedSizeBytes) {
                throw new IllegalArgumentException(
                        "copy codec: " + encoded.length + " bytes cannot decode to " + decodedSizeBytes);
            }
            byte[] out = new byte[decodedSizeBytes];
            System.arraycopy(encoded, 0, out, 0, decodedSizeBytes);
            return out;
        }
    }
}
