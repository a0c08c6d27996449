package io.cubed.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Guards tests that need a tool outside the JVM (zarr-python, numpy): without it the test is skipped visibly with the
 * reason — except in CI ({@code CI=true}), where the tool is installed by {@code .ci/run} and its absence is a failure.
 */
public final class ExternalTool {
    private ExternalTool() {}

    /** True when running in CI, where every external tool must be present. */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Skips (or, in CI, fails) the calling test unless {@code available}; {@code why} says what is missing. */
    public static void require(boolean available, String why) {
        if (available) {
            return;
        }
        if (inCi()) {
            Assertions.fail("CI=true but " + why);
        }
        Assumptions.assumeTrue(false, why);
    }
}
