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
     * Refuses a destination that already holds a Zarr array (v2 or v3) unless one of {@code ways} (the flags that
     * replace or continue it) was given; returns what it found there (whether it is new).
     */
    static Zarr.PlaceForArray newDestination(String command, String dst, StoreOptions options, String ways) {
        Zarr.PlaceForArray place = Zarr.examinePlace(dst, options, false);
        if (place.arrayExists()) {
            throw new InvalidArgumentException(command + ": " + dst + " already holds a Zarr array; " + ways);
        }
        if (place.refusal() != null) {
            throw new InvalidArgumentException(command + ": " + place.refusal());
        }
        return place;
    }

    /**
     * Refuses a destination where no array may be created (with {@code overwrite}: replaced), as the creation would
     * refuse it, but before anything is read or written: a Zarr group, or a place holding anything that is not an
     * array's (a directory of other files, which overwriting would delete).
     */
    static void placeForArray(String command, String dst, StoreOptions options, boolean overwrite) {
        String refusal = Zarr.refusalToCreateArray(dst, options, overwrite);
        if (refusal != null) {
            throw new InvalidArgumentException(command + ": " + refusal);
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
