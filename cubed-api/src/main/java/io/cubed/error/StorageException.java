package io.cubed.error;

/**
 * A store or the Zarr format failed: missing or malformed metadata, a corrupt chunk, a codec error, or an I/O failure.
 * The message names the URL and, where there is one, the chunk key.
 */
public class StorageException extends CubedException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
