package io.cubed.error;

/**
 * A task of an operation is projected to need more memory than {@code allowedMem}; raised before anything runs. The
 * message names the operation and the projected, allowed and reserved figures.
 */
public class MemoryBudgetExceededException extends CubedException {
    private static final long serialVersionUID = 1L;

    public MemoryBudgetExceededException(String message) {
        super(message);
    }
}
