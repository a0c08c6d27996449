package io.cubed.storage.zarr.blosc;

import io.cubed.error.StorageException;

/** The filter Blosc applies to each block before compressing it, with the integer codes numcodecs uses. */
public enum BloscShuffle {
    NOSHUFFLE(0),
    SHUFFLE(1),
    BITSHUFFLE(2),
    /** Bit shuffle when the element size is 1 byte, byte shuffle otherwise, as numcodecs resolves it. */
    AUTOSHUFFLE(-1);

    private final int code;

    BloscShuffle(int code) {
        this.code = code;
    }

    /** The integer numcodecs stores in Zarr metadata as {@code shuffle}. */
    public int code() {
        return code;
    }

    /** The shuffle numcodecs denotes by {@code code}; throws {@link StorageException} for an unknown code. */
    public static BloscShuffle fromCode(int code) {
        for (BloscShuffle s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new StorageException("unknown blosc shuffle code " + code + " (expected -1, 0, 1 or 2)");
    }

    /** The concrete filter for elements of {@code typesizeBytes} bytes: resolves {@link #AUTOSHUFFLE}. */
    BloscShuffle resolve(int typesizeBytes) {
        if (this != AUTOSHUFFLE) {
            return this;
        }
        return typesizeBytes == 1 ? BITSHUFFLE : SHUFFLE;
    }
}
