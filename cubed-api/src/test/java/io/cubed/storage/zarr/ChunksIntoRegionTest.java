package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Float64 chunks of a realistic size read into a larger target, as a rechunk's first stage reads its region: a chunk
 * that lies whole within the target is decoded block by block straight into its place there (Blosc blocks of 8 KiB
 * that cross the chunk's rows; streams unshuffled into the target's own array where a block lies in one contiguous
 * segment of it), and the target equals the array's values by a plain loop, element by element; and into several
 * targets.
 */
class ChunksIntoRegionTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                // Row stripes into a region of whole rows: each chunk one contiguous segment of the target.
                Arguments.of(new long[] {64, 600}, new int[] {16, 600}, new long[] {16, 0}, new int[] {32, 600}),
                // The same region taken from row 8: the first and last chunks only overlap it.
                Arguments.of(new long[] {64, 600}, new int[] {16, 600}, new long[] {8, 0}, new int[] {48, 600}),
                // Columns cut: each of a chunk's rows is a segment of its own (blocks cross rows).
                Arguments.of(new long[] {64, 600}, new int[] {16, 100}, new long[] {16, 100}, new int[] {32, 300}),
                // Three axes, the last whole: segments of 10 x 40 elements.
                Arguments.of(
                        new long[] {4, 30, 40}, new int[] {2, 10, 40}, new long[] {0, 10, 0}, new int[] {4, 20, 40}),
                // Three axes, the first two whole: one segment per chunk, at an offset on the first.
                Arguments.of(
                        new long[] {6, 30, 40}, new int[] {2, 30, 40}, new long[] {2, 0, 0}, new int[] {4, 30, 40}));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void chunksWithinTheTargetDecodeStraightIntoItsArray(long[] shape, int[] chunks, long[] offset, int[] extent) {
        for (int blocksize : new int[] {0, 8192}) {
            for (Compressor compressor : new Compressor[] {
                new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, blocksize),
                new Compressor.Blosc(BloscCname.BLOSCLZ, 5, BloscShuffle.BITSHUFFLE, blocksize),
                new Compressor.Zstd(1, false)
            }) {
                ZarrArray a = ZarrArray.create(
                        "memory://chunks-into-region-" + UUID.randomUUID(),
                        ZarrCreateOptions.builder(shape, chunks, DType.FLOAT64)
                                .compressor(compressor)
                                .build());
                ZarrArrayTest.writeAll(a);
                Chunk target = Chunk.allocate(DType.FLOAT64, extent);
                java.util.Arrays.fill(target.doubles(), Double.NaN);
                ChunkGrid g = a.grid();
                for (long i = 0; i < g.numChunks(); i++) {
                    long[] coords = g.chunkCoordsOf(i);
                    if (overlaps(g.chunkOffset(coords), g.chunkShapeAt(coords), offset, extent)) {
                        a.readChunkInto(coords, new Chunk[] {target}, new long[][] {offset});
                    }
                }
                Chunk expected = ZarrArrayTest.reference(DType.FLOAT64, shape, offset, extent);
                double[] got = target.doubles();
                double[] want = expected.doubles();
                for (int e = 0; e < want.length; e++) {
                    assertThat(got[e])
                            .as("element %d of the target, %s, blocksize %d", e, compressor, blocksize)
                            .isEqualTo(want[e]);
                }
            }
        }
    }

    /**
     * Row stripes read into the output chunks of a rechunk's region (a grid of 24 x 150 over rows 0..48), each chunk's
     * rows passing through several of them, and with one column of output chunks left out (its columns are bytes no
     * target takes, skipped): every target equals the array's values.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void chunksSplitAmongTheOutputChunksOfARegion(boolean gap) {
        long[] shape = {64, 600};
        // int64: 8-byte elements Blosc does not decode as float64 values, whose targets take bytes.
        for (DType dtype : new DType[] {DType.FLOAT64, DType.INT64}) {
            for (Compressor compressor : new Compressor[] {
                new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0),
                new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 8192),
                new Compressor.Zstd(1, false)
            }) {
                ZarrArray a = ZarrArray.create(
                        "memory://chunks-into-targets-" + UUID.randomUUID(),
                        ZarrCreateOptions.builder(shape, new int[] {16, 600}, dtype)
                                .compressor(compressor)
                                .build());
                ZarrArrayTest.writeAll(a);
                java.util.List<Chunk> targets = new java.util.ArrayList<>();
                java.util.List<long[]> offsets = new java.util.ArrayList<>();
                for (int r = 0; r < 48; r += 24) {
                    for (int c = 0; c < 600; c += 150) {
                        if (gap && c == 150) {
                            continue;
                        }
                        targets.add(Chunk.full(dtype, io.cubed.dtype.Scalar.ofLong(-7), new int[] {24, 150}));
                        offsets.add(new long[] {r, c});
                    }
                }
                Chunk[] ts = targets.toArray(new Chunk[0]);
                long[][] os = offsets.toArray(new long[0][]);
                for (long row = 0; row < 3; row++) {
                    a.readChunkInto(new long[] {row, 0}, ts, os);
                }
                for (int t = 0; t < ts.length; t++) {
                    assertThat(ts[t].contentEquals(ZarrArrayTest.reference(dtype, shape, os[t], new int[] {24, 150})))
                            .as("target %d, %s, %s", t, dtype, compressor)
                            .isTrue();
                }
            }
        }
    }

    /**
     * Targets of unequal widths, side by side (not cells of one grid: checked pairwise), and two that overlap each other
     * (each element must reach both: read as before, through the chunk's decompressed bytes): every target equals the
     * array's values.
     */
    @org.junit.jupiter.api.Test
    void targetsNotOfOneGridAndTargetsThatOverlap() {
        long[] shape = {32, 600};
        ZarrArray a = ZarrArray.create(
                "memory://chunks-into-uneven-" + UUID.randomUUID(),
                ZarrCreateOptions.builder(shape, new int[] {16, 600}, DType.FLOAT64)
                        .compressor(new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 8192))
                        .build());
        ZarrArrayTest.writeAll(a);
        long[][][] layouts = {
            {{0, 0}, {0, 250}}, // side by side, 250 and 350 wide
            {{0, 0}, {0, 200}} // overlapping in columns 200..250
        };
        int[][][] shapes = {{{32, 250}, {32, 350}}, {{32, 250}, {32, 350}}};
        for (int l = 0; l < layouts.length; l++) {
            Chunk[] ts = new Chunk[2];
            for (int t = 0; t < 2; t++) {
                ts[t] = Chunk.allocate(DType.FLOAT64, shapes[l][t]);
                java.util.Arrays.fill(ts[t].doubles(), Double.NaN);
            }
            a.readChunkInto(new long[] {0, 0}, ts, layouts[l]);
            a.readChunkInto(new long[] {1, 0}, ts, layouts[l]);
            for (int t = 0; t < 2; t++) {
                int[] ext = shapes[l][t].clone();
                ext[1] = (int) Math.min(ext[1], shape[1] - layouts[l][t][1]);
                double[] want = ZarrArrayTest.reference(DType.FLOAT64, shape, layouts[l][t], ext)
                        .doubles();
                double[] got = ts[t].doubles();
                for (int r = 0; r < ext[0]; r++) {
                    for (int c = 0; c < ext[1]; c++) {
                        assertThat(got[r * shapes[l][t][1] + c])
                                .as("layout %d target %d element (%d, %d)", l, t, r, c)
                                .isEqualTo(want[r * ext[1] + c]);
                    }
                }
            }
        }
    }

    private static boolean overlaps(long[] chunkOffset, int[] chunkShape, long[] offset, int[] extent) {
        for (int d = 0; d < offset.length; d++) {
            if (chunkOffset[d] + chunkShape[d] <= offset[d] || offset[d] + extent[d] <= chunkOffset[d]) {
                return false;
            }
        }
        return true;
    }
}
