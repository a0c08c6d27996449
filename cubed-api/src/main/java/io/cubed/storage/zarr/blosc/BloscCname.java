package io.cubed.storage.zarr.blosc;

import io.cubed.error.StorageException;
import java.util.Locale;

/** The internal compressor a Blosc frame uses for its blocks, named as numcodecs names it in {@code cname}. */
public enum BloscCname {
    BLOSCLZ("blosclz", 0),
    LZ4("lz4", 1),
    LZ4HC("lz4hc", 1),
    ZLIB("zlib", 3),
    ZSTD("zstd", 4);

    /** Format code 2 in the header flags; numcodecs can write it but this implementation cannot read it. */
    static final int SNAPPY_FORMAT = 2;

    private final String jsonName;
    private final int formatCode;

    BloscCname(String jsonName, int formatCode) {
        this.jsonName = jsonName;
        this.formatCode = formatCode;
    }

    /** The name numcodecs uses for this compressor in Zarr metadata, e.g. {@code "lz4"}. */
    public String jsonName() {
        return jsonName;
    }

    /** The compressor numcodecs calls {@code name}; throws {@link StorageException} for unknown or unsupported ones. */
    public static BloscCname fromJsonName(String name) {
        if (name != null) {
            for (BloscCname c : values()) {
                if (c.jsonName.equals(name)) {
                    return c;
                }
            }
            if (name.toLowerCase(Locale.ROOT).equals("snappy")) {
                throw new StorageException(
                        "unsupported blosc internal codec snappy (supported: " + "blosclz, lz4, lz4hc, zlib, zstd)");
            }
        }
        throw new StorageException(
                "unknown blosc internal codec " + name + " (supported: blosclz, lz4, lz4hc, zlib, zstd)");
    }

    /** The 3-bit compressor format code stored in bits 5-7 of the header flags (lz4 and lz4hc share one). */
    int formatCode() {
        return formatCode;
    }

    /** Whether c-blosc treats this codec as a high-compression-ratio one, which doubles its automatic block size. */
    boolean highCompressionRatio() {
        return this == LZ4HC || this == ZLIB || this == ZSTD;
    }

    /** A readable name for a header format code, for error messages. */
    static String formatName(int code) {
        return switch (code) {
            case 0 -> "blosclz";
            case 1 -> "lz4";
            case SNAPPY_FORMAT -> "snappy";
            case 3 -> "zlib";
            case 4 -> "zstd";
            default -> "with format code " + code;
        };
    }
}
