package io.cubed.error;

/** A caller passed a value that cannot work (bad shape, chunks, dtype, size); the message names the value. */
public class InvalidArgumentException extends CubedException {
    private static final long serialVersionUID = 1L;

    public InvalidArgumentException(String message) {
        super(message);
    }

    public InvalidArgumentException(String message, Throwable cause) {
        super(message, cause);
    }
}
