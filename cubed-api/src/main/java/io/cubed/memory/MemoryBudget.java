package io.cubed.memory;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * The memory one task may use: {@code allowed} bytes in total, of which {@code reserved} are taken by the runtime
 * (the JVM's own baseline) before any data. Both positive, reserved below allowed.
 */
public record MemoryBudget(MemorySize allowed, MemorySize reserved) implements Serializable {
    public MemoryBudget {
        if (allowed.bytes() <= 0) {
            throw new InvalidArgumentException("allowedMem must be positive, got " + allowed);
        }
        if (reserved.bytes() >= allowed.bytes()) {
            throw new InvalidArgumentException(
                    "reservedMem (" + reserved + ") must be less than allowedMem (" + allowed + ")");
        }
    }

    /** Bytes left for data: allowed minus reserved. */
    public long availableBytes() {
        return allowed.bytes() - reserved.bytes();
    }
}
