package io.cubed.error;

/** A plan cannot be built or run as asked (e.g. arrays of different specs, an output that exists already). */
public class PlanException extends CubedException {
    private static final long serialVersionUID = 1L;

    public PlanException(String message) {
        super(message);
    }

    public PlanException(String message, Throwable cause) {
        super(message, cause);
    }
}
