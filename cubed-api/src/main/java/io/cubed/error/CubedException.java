package io.cubed.error;

/** Root of every exception Cubed throws; unchecked so it travels through Spark tasks, lambdas and streams. */
public class CubedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CubedException(String message) {
        super(message);
    }

    public CubedException(String message, Throwable cause) {
        super(message, cause);
    }
}
