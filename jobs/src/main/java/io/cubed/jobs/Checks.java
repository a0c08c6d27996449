package io.cubed.jobs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Zarr;
import java.util.Arrays;

/**
 * Checks of command-line values made before anything is read or written, with messages in the command line's words
 * (the flag, the value given and the values allowed): a failed check is an {@link InvalidArgumentException}, exit code 2.
 */
final class Checks {
    private Checks() {}

    /** Refuses a {@code flag} value below 1. */
    static void positive(String command, String flag, long value) {
        if (value < 1) {
            throw new InvalidArgumentException(
                    command + ": " + flag + " must be a positive whole number, got " + value);
        }
    }

    /** Refuses a {@code flag} value that is not a finite number above 0. */
    static void positive(String command, String flag, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new InvalidArgumentException(command + ": " + flag + " must be a number above 0, got " + value);
        }
    }

    /**
     * Refuses chunk lengths ({@code flag}, one per axis of {@code src}'s {@code ndim} axes) that are not positive or -1
     * (a whole axis).
     */
    static void chunks(String command, String flag, int[] chunks, int ndim, String src) {
        if (chunks.length != ndim) {
            throw new InvalidArgumentException(command + ": " + flag + " " + join(chunks) + " gives " + chunks.length
                    + (chunks.length == 1 ? " length" : " lengths") + " but " + src + " has " + ndim
                    + (ndim == 1 ? " axis" : " axes") + ": give one chunk length per axis, -1 for a whole axis");
        }
        for (int a = 0; a < chunks.length; a++) {
            if (chunks[a] < 1 && chunks[a] != -1) {
                throw new InvalidArgumentException(command + ": " + flag + " " + join(chunks) + ": the length for axis "
                        + a + " is " + chunks[a] + "; chunk lengths must be positive, or -1 for a whole axis");
            }
        }
    }

    /**
     * Refuses a destination that already holds a Zarr array (v2 or v3), as {@code place} (a {@link Look} at it) found
     * it, naming {@code ways} (the flags that replace or continue it); returns what was found (whether it is new).
     */
    static Zarr.PlaceForArray newDestination(String command, String dst, Zarr.PlaceForArray place, String ways) {
        if (place.arrayExists()) {
            throw new InvalidArgumentException(command + ": " + dst + " already holds a Zarr array; " + ways);
        }
        if (place.refusal() != null) {
            throw new InvalidArgumentException(command + ": " + place.refusal());
        }
        return place;
    }

    /**
     * A look at a destination ({@link Zarr#examinePlace}: reads only) started before the command opens its source, so
     * that on an object store the two take one round trip, not one each: on a store thread when the destination's
     * store makes each request wait for the network, else (local disk) when it is asked for. The command judges what
     * it found once the source has passed its own checks, whose errors come first.
     */
    static final class Look {
        private final java.util.concurrent.CompletableFuture<Zarr.PlaceForArray> found;
        private final java.util.function.Supplier<Zarr.PlaceForArray> now;

        private Look(String dst, StoreOptions options, boolean overwrite) {
            now = () -> Zarr.examinePlace(dst, options, overwrite);
            found = io.cubed.storage.fs.Stores.supplier(dst, options).open().concurrency() > 1
                    ? io.cubed.storage.StoreThreads.supply(now)
                    : null;
        }

        /** Starts looking at {@code dst}, as creating an array there (replacing one with {@code overwrite}) would. */
        static Look start(String dst, StoreOptions options, boolean overwrite) {
            return new Look(dst, options, overwrite);
        }

        /** What the look found; its failure (an unreachable store, say) as it was thrown. */
        Zarr.PlaceForArray place() {
            return found == null ? now.get() : io.cubed.storage.StoreThreads.join(found);
        }

        /** Waits for a look whose result is not wanted (the command failed first), so that none is left in flight. */
        void drop() {
            if (found != null) {
                found.exceptionally(e -> null).join();
            }
        }
    }

    /**
     * {@code e}, a plan refused for its memory, with what the command was doing in front ({@code "rechunk SRC to
     * DST"}): the planner names its own arrays ({@code array-001}), which the user never named.
     */
    static io.cubed.error.MemoryBudgetExceededException naming(
            String what, io.cubed.error.MemoryBudgetExceededException e) {
        io.cubed.error.MemoryBudgetExceededException named =
                new io.cubed.error.MemoryBudgetExceededException(what + ": " + e.getMessage());
        named.initCause(e);
        return named;
    }

    private static String join(int[] values) {
        return Arrays.stream(values)
                .mapToObj(Integer::toString)
                .reduce((x, y) -> x + "," + y)
                .orElse("");
    }
}
