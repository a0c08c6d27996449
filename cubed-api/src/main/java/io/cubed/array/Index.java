package io.cubed.array;

import java.util.Arrays;

/**
 * One item of an indexing key, as in NumPy's {@code x[...]}: an integer, a slice, a new axis, an ellipsis, or an array
 * of integers along one axis. Built with the static factories, which read well with a static import from Java and
 * Scala:
 *
 * <pre>{@code
 * import static io.cubed.array.Index.*;
 *
 * x.get(at(3), slice(10, null, 2))        // x[3, 10::2]
 * x.get(ellipsis(), newAxis(), at(-1))     // x[..., None, -1]
 * x.get(all(), take(0, 5, 7))              // x[:, [0, 5, 7]]
 * x.get(slice(null, null, -1))             // x[::-1]
 * }</pre>
 */
public sealed interface Index permits Index.At, Index.Slice, Index.NewAxis, Index.Ellipsis, Index.Take {

    /** The element at {@code i} along an axis (negative counts from the end); the axis is dropped. */
    static Index at(long i) {
        return new At(i);
    }

    /** {@code start:stop} (either may be null for the default); negative bounds count from the end. */
    static Index slice(Long start, Long stop) {
        return new Slice(start, stop, 1);
    }

    /** {@code start:stop:step}, with Python's defaults for null bounds (which depend on the sign of the step). */
    static Index slice(Long start, Long stop, long step) {
        return new Slice(start, stop, step);
    }

    /** {@code start:}. */
    static Index from(long start) {
        return new Slice(start, null, 1);
    }

    /** {@code :stop}. */
    static Index to(long stop) {
        return new Slice(null, stop, 1);
    }

    /** {@code :}, the whole axis. */
    static Index all() {
        return new Slice(null, null, 1);
    }

    /** {@code None}: a new axis of length 1. */
    static Index newAxis() {
        return NewAxis.INSTANCE;
    }

    /** {@code ...}: as many whole axes as the other items leave. */
    static Index ellipsis() {
        return Ellipsis.INSTANCE;
    }

    /** The elements at {@code indices} along an axis, in that order (repeats allowed; negative from the end). */
    static Index take(long... indices) {
        return new Take(indices);
    }

    /** An integer index. */
    record At(long index) implements Index {
        @Override
        public String toString() {
            return Long.toString(index);
        }
    }

    /** A slice with optional bounds and a nonzero step. */
    record Slice(Long start, Long stop, long step) implements Index {
        @Override
        public String toString() {
            return (start == null ? "" : start) + ":" + (stop == null ? "" : stop) + (step == 1 ? "" : ":" + step);
        }
    }

    /** A new axis of length 1. */
    enum NewAxis implements Index {
        INSTANCE;

        @Override
        public String toString() {
            return "None";
        }
    }

    /** An ellipsis. */
    enum Ellipsis implements Index {
        INSTANCE;

        @Override
        public String toString() {
            return "...";
        }
    }

    /** An array of integer indices along one axis. */
    record Take(long[] indices) implements Index {
        public Take {
            indices = indices.clone();
        }

        @Override
        public long[] indices() {
            return indices.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Take t && Arrays.equals(indices, t.indices);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(indices);
        }

        @Override
        public String toString() {
            return indices.length <= 8
                    ? Arrays.toString(indices)
                    : "[" + indices[0] + ", " + indices[1] + ", ... " + indices.length + " indices]";
        }
    }
}
