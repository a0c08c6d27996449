package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * Where along one input axis an output index reads from, for a {@link Gather}: {@link #index} maps an element index
 * of the output axis to an element index of the input axis, or {@code -1} when that output position takes no element
 * of the input (padding, or another input of a concatenation). Serializable; the implementations are the maps the
 * manipulation functions need (shift and flip, cyclic shift, repeat, symmetric reflection).
 */
public interface AxisMap extends Serializable {
    /** The input element index for output element index {@code outIndex}, or {@code -1} for none. */
    long index(long outIndex);

    /**
     * An upper bound of the number of input chunks (of {@code inChunk} elements, {@code inChunks} of them) that
     * {@code outLength} consecutive output indexes read.
     */
    default long maxChunks(long outLength, int inChunk, long inChunks) {
        return Math.max(1, Math.min(inChunks, outLength));
    }

    /** Bytes of the lists this map carries (take's indices, a concatenation's offsets); 0 for a few numbers. */
    default long carriedBytes() {
        return 0;
    }

    /** {@code start + step·j} when it lies in {@code [0, length)}, else {@code -1}. */
    static AxisMap affine(long start, long step, long length) {
        return new Affine(start, step, length);
    }

    /** The same index ({@code j}) on an axis of {@code length}. */
    static AxisMap identity(long length) {
        return new Affine(0, 1, length);
    }

    /** {@code (j + shift) mod length}: a cyclic shift (roll) or a periodic repetition (tile). */
    static AxisMap cyclic(long shift, long length) {
        if (length <= 0) {
            throw new InvalidArgumentException("cyclic axis map needs a positive length, got " + length);
        }
        return new Cyclic(Math.floorMod(shift, length), length);
    }

    /** {@code j / repeats}: every input element {@code repeats} times in a row. */
    static AxisMap repeat(long repeats) {
        if (repeats <= 0) {
            throw new InvalidArgumentException("repeat axis map needs a positive count, got " + repeats);
        }
        return new Repeat(repeats);
    }

    /**
     * The input of {@code length} padded with {@code before} elements reflected symmetrically (the edge element
     * repeated, as NumPy's {@code pad(mode="symmetric")}), continuing the reflection when the padding is longer than
     * the axis.
     */
    static AxisMap symmetric(long before, long length) {
        if (length <= 0) {
            throw new InvalidArgumentException("symmetric axis map needs a positive length, got " + length);
        }
        return new Symmetric(before, length);
    }

    /**
     * The segment {@code t} with {@code offsets[t] <= j < offsets[t + 1]} (as a selector: which of several
     * concatenated inputs position {@code j} comes from); {@code offsets} starts at 0 and does not decrease.
     */
    static AxisMap segments(long[] offsets) {
        return new Segments(offsets);
    }

    /** {@code indices[j]}: an explicit list of input indexes (integer-array indexing, take). */
    static AxisMap list(long[] indices) {
        return new ListMap(indices);
    }

    /** See {@link AxisMap#affine}. */
    final class Affine implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long start;
        private final long step;
        private final long length;

        Affine(long start, long step, long length) {
            this.start = start;
            this.step = step;
            this.length = length;
        }

        @Override
        public long index(long outIndex) {
            long q = start + step * outIndex;
            return q >= 0 && q < length ? q : -1;
        }

        @Override
        public long maxChunks(long outLength, int inChunk, long inChunks) {
            if (step == 0) {
                return 1;
            }
            if (step != 1 && step != -1) {
                return Math.max(1, Math.min(inChunks, outLength));
            }
            return Math.max(1, Math.min(inChunks, (outLength + inChunk - 1) / inChunk + 1));
        }
    }

    /** See {@link AxisMap#cyclic}. */
    final class Cyclic implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long shift;
        private final long length;

        Cyclic(long shift, long length) {
            this.shift = shift;
            this.length = length;
        }

        @Override
        public long index(long outIndex) {
            return Math.floorMod(outIndex + shift, length);
        }

        @Override
        public long maxChunks(long outLength, int inChunk, long inChunks) {
            return Math.max(1, Math.min(inChunks, (outLength + inChunk - 1) / inChunk + 2));
        }
    }

    /** See {@link AxisMap#repeat}. */
    final class Repeat implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long repeats;

        Repeat(long repeats) {
            this.repeats = repeats;
        }

        @Override
        public long index(long outIndex) {
            return outIndex / repeats;
        }

        @Override
        public long maxChunks(long outLength, int inChunk, long inChunks) {
            long inputs = (outLength + repeats - 1) / repeats + 1;
            return Math.max(1, Math.min(inChunks, (inputs + inChunk - 1) / inChunk + 1));
        }
    }

    /** See {@link AxisMap#symmetric}. */
    final class Symmetric implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long before;
        private final long length;

        Symmetric(long before, long length) {
            this.before = before;
            this.length = length;
        }

        @Override
        public long index(long outIndex) {
            long m = Math.floorMod(outIndex - before, 2 * length);
            return m < length ? m : 2 * length - 1 - m;
        }
    }

    /** See {@link AxisMap#segments}. */
    final class Segments implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long[] offsets;

        Segments(long[] offsets) {
            this.offsets = offsets.clone();
        }

        @Override
        public long carriedBytes() {
            return 8L * offsets.length;
        }

        @Override
        public long index(long outIndex) {
            int lo = 0;
            int hi = offsets.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (offsets[mid] <= outIndex) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo - 1;
        }
    }

    /** See {@link AxisMap#list}. */
    final class ListMap implements AxisMap {
        private static final long serialVersionUID = 1L;
        private final long[] indices;

        ListMap(long[] indices) {
            this.indices = indices.clone();
        }

        @Override
        public long carriedBytes() {
            return 8L * indices.length;
        }

        @Override
        public long index(long outIndex) {
            return indices[Math.toIntExact(outIndex)];
        }
    }
}
