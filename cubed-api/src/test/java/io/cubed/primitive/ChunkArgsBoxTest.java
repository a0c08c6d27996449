package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.storage.ChunkStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When a task reads a box of an input chunk instead of the chunk ({@link ChunkArgs#regionToRead}): the box widened to
 * whole readable chunks and clipped to the chunk, only when it is smaller than the chunk and holds no more than the
 * projection counts for the chunk.
 */
class ChunkArgsBoxTest {
    /**
     * A 2-d float64 array of {@code shape} in chunks of {@code chunks} that reads boxes of {@code readable} on their
     * own, each region read holding {@code regionCopies} extra copies, a chunk read {@code readCopies}; its element
     * at (i, j) is {@code 1000 i + j}. Records the regions read.
     */
    static final class BoxStore implements ChunkStore {
        private static final long serialVersionUID = 1L;
        final ChunkGrid grid;
        final int[] readable;
        final int regionCopies;
        final int readCopies;
        final List<String> reads = new ArrayList<>();

        BoxStore(long[] shape, int[] chunks, int[] readable, int regionCopies, int readCopies) {
            this.grid = ChunkGrid.of(shape, chunks);
            this.readable = readable;
            this.regionCopies = regionCopies;
            this.readCopies = readCopies;
        }

        @Override
        public String url() {
            return "memory://boxes";
        }

        @Override
        public DType dtype() {
            return DType.FLOAT64;
        }

        @Override
        public ChunkGrid grid() {
            return grid;
        }

        @Override
        public Scalar fillValue() {
            return Scalar.zero();
        }

        @Override
        public Chunk readChunk(long... chunkCoords) {
            reads.add("chunk " + Arrays.toString(chunkCoords));
            return values(grid.chunkOffset(chunkCoords), grid.chunkShapeAt(chunkCoords));
        }

        @Override
        public Chunk readRegion(long[] offset, int[] shape) {
            reads.add("region " + Arrays.toString(offset) + " " + Arrays.toString(shape));
            return values(offset, shape);
        }

        private static Chunk values(long[] offset, int[] shape) {
            Chunk c = Chunk.allocate(DType.FLOAT64, shape);
            for (int i = 0; i < shape[0]; i++) {
                for (int j = 0; j < shape[1]; j++) {
                    c.doubles()[i * shape[1] + j] = 1000 * (offset[0] + i) + offset[1] + j;
                }
            }
            return c;
        }

        @Override
        public void writeChunk(Chunk chunk, long... chunkCoords) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean chunkExists(long... chunkCoords) {
            return true;
        }

        @Override
        public BufferCopies bufferCopies() {
            return new BufferCopies(readCopies, 1);
        }

        @Override
        public int[] readableChunkShape() {
            return readable.clone();
        }

        @Override
        public int regionReadCopies(int[] regionShape) {
            return regionCopies;
        }
    }

    private static long[] l(long... v) {
        return v;
    }

    @Test
    void theBoxIsWidenedToReadableChunksAndClippedToTheChunk() {
        // 30 x 20 in chunks of 16 x 16 (edge chunks of 14 rows and 4 columns), readable boxes of 4 x 4.
        BoxStore s = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {4, 4}, 3, 1);
        // Element (3, 5): the readable chunk of rows 0-3, columns 4-7.
        assertThat(ChunkArgs.regionToRead(s, l(0, 0), l(3, 5), l(4, 6))).isEqualTo(new long[][] {{0, 4}, {4, 8}});
        // Row 29, columns 17-18 of the edge chunk (1, 1) of 14 x 4: the readable chunk of rows 28-31 and columns
        // 16-19, clipped to rows 28-29.
        assertThat(ChunkArgs.regionToRead(s, l(1, 1), l(29, 17), l(30, 19)))
                .isEqualTo(new long[][] {{28, 16}, {30, 20}});
        // Rows 16-20 of that chunk: 8 of its 14 rows.
        assertThat(ChunkArgs.regionToRead(s, l(1, 1), l(16, 16), l(21, 17)))
                .isEqualTo(new long[][] {{16, 16}, {24, 20}});
    }

    @Test
    void aBoxAsLargeAsTheChunkIsReadAsTheChunk() {
        BoxStore s = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {4, 4}, 0, 1);
        assertThat(ChunkArgs.regionToRead(s, l(0, 0), l(1, 1), l(15, 15))).isNull();
        // The edge chunk (1, 1) of 14 x 4, whose elements all lie in the box.
        assertThat(ChunkArgs.regionToRead(s, l(1, 1), l(17, 17), l(30, 19))).isNull();
    }

    @Test
    void aBoxIsReadOnlyWhenItHoldsNoMoreThanTheChunkIsProjectedToHold() {
        // Chunks of 8 x 4 elements read with 1 copy: 32 · (1 + 1) = 64 elements projected. A box of one readable
        // chunk of 4 x 4: 16 · (1 + 3) = 64, read; 16 · (1 + 4) = 80, not.
        BoxStore fits = new BoxStore(l(16, 4), new int[] {8, 4}, new int[] {4, 4}, 3, 1);
        assertThat(ChunkArgs.regionToRead(fits, l(1, 0), l(9, 0), l(10, 4))).isEqualTo(new long[][] {{8, 0}, {12, 4}});
        BoxStore over = new BoxStore(l(16, 4), new int[] {8, 4}, new int[] {4, 4}, 4, 1);
        assertThat(ChunkArgs.regionToRead(over, l(1, 0), l(9, 0), l(10, 4))).isNull();
        // The projection counts the full chunk, also for an edge chunk: 8 x 4 projected, 16 · (1 + 3) read of the
        // edge chunk of 5 x 4 (an array of 13 rows).
        BoxStore edge = new BoxStore(l(13, 4), new int[] {8, 4}, new int[] {4, 4}, 3, 1);
        assertThat(ChunkArgs.regionToRead(edge, l(1, 0), l(8, 0), l(9, 4))).isEqualTo(new long[][] {{8, 0}, {12, 4}});
    }

    @Test
    void arraysThatReadWholeChunksAndComputedChunksAreReadWhole() {
        BoxStore whole = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {16, 16}, 0, 1);
        assertThat(ChunkArgs.regionToRead(whole, l(0, 0), l(3, 5), l(4, 6))).isNull();
        BoxStore s = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {4, 4}, 0, 1);
        ChunkGrid g = s.grid();
        ComputedChunkStore computed = new ComputedChunkStore(
                "negative",
                new ChunkStore[] {s},
                identityKeys(),
                (args, coords) -> new Chunk[] {args.chunk(0)},
                0,
                DType.FLOAT64,
                g);
        assertThat(ChunkArgs.regionToRead(computed, l(0, 0), l(3, 5), l(4, 6))).isNull();
    }

    private static KeyFunction identityKeys() {
        return coords -> new long[][][] {{coords.clone()}};
    }

    @Test
    void elementsOutsideTheChunkAreRefused() {
        BoxStore s = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {4, 4}, 0, 1);
        assertThatThrownBy(() -> ChunkArgs.regionToRead(s, l(0, 0), l(3, 15), l(4, 17)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("elements 15 to 16 along axis 1 are not in chunk [0, 0] of memory://boxes, which"
                        + " holds 0 to 15");
    }

    /** {@link ChunkArgs#box} reads the box, gives its offset and counts its bytes; readInto copies from it. */
    @Test
    void boxesAndReadIntoReadOnlyWhatTheTaskNeeds() {
        BoxStore s = new BoxStore(l(30, 20), new int[] {16, 16}, new int[] {4, 4}, 3, 1);
        ChunkArgs args = new ChunkArgs(new ChunkStore[] {s}, new long[][][] {{{1, 0}}});
        ChunkArgs.Box box = args.box(0, 0, l(21, 5), l(23, 9));
        assertThat(s.reads).containsExactly("region [20, 4] [4, 8]");
        assertThat(box.offset()).containsExactly(20, 4);
        assertThat(box.chunk().shape()).containsExactly(4, 8);
        assertThat(box.chunk().doubles()[0]).isEqualTo(20_004);
        assertThat(args.bytesRead()).isEqualTo(4 * 8 * 8);
        // A target of rows 18-21, columns 3-6 of chunk (1, 0): rows 16-23, columns 0-7 read, then copied.
        s.reads.clear();
        Chunk target = Chunk.allocate(DType.FLOAT64, 4, 4);
        args.readInto(0, 0, new Chunk[] {target}, new long[][] {{18, 3}});
        assertThat(s.reads).containsExactly("region [16, 0] [8, 8]");
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                assertThat(target.doubles()[i * 4 + j]).isEqualTo(1000 * (18 + i) + 3 + j);
            }
        }
        assertThat(args.bytesRead()).isEqualTo(4 * 8 * 8 + 8 * 8 * 8);
    }
}
