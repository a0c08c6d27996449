package io.cubed.storage.zarr;

import io.cubed.error.StorageException;

/** The compressors Cubed reads and writes, by their numcodecs id. */
public enum CodecId {
    ZLIB("zlib"),
    GZIP("gzip"),
    ZSTD("zstd"),
    LZ4("lz4"),
    BZ2("bz2"),
    BLOSC("blosc");

    private final String jsonId;

    CodecId(String jsonId) {
        this.jsonId = jsonId;
    }

    /** The {@code "id"} numcodecs writes in metadata, e.g. {@code "blosc"}. */
    public String jsonId() {
        return jsonId;
    }

    /** The codec with numcodecs id {@code id}; an unknown id is an error naming it and the known ones. */
    public static CodecId fromJsonId(String id) {
        for (CodecId c : values()) {
            if (c.jsonId.equals(id)) {
                return c;
            }
        }
        throw new StorageException(
                "unsupported compressor id '" + id + "'; supported: zlib, gzip, zstd, lz4, bz2, " + "blosc");
    }
}
