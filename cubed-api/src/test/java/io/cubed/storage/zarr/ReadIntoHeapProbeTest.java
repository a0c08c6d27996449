package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a Zarr v2 chunk read into the output chunks of a rechunk's region holds ({@link ZarrArray#readChunkInto}), by
 * {@link HeapProbe}: with Blosc or zstd its stored bytes only, edge chunks (stored full-size, read clipped) included; with
 * gzip also its decompressed bytes, which the codec's buffer copy counts. This is what lets the plan count such an input
 * chunk by its read copies alone ({@link io.cubed.memory.BufferCopies#readsInto}).
 */
class ReadIntoHeapProbeTest {
    private static final int MB = 1 << 20;
    private static final int N = 1024;
    private static final long CHUNK = (long) N * N * 8; // one float64 chunk: 8 MB
    private static final long[] SHAPE = {N + 476, N}; // the second row of chunks is an edge of 476 rows

    @TempDir
    Path tmp;

    private ZarrArray written(String name, Compressor compressor) {
        ZarrArray a = ZarrArray.create(
                tmp.resolve(name).toString(),
                ZarrCreateOptions.builder(SHAPE, new int[] {N, N}, DType.FLOAT64)
                        .compressor(compressor)
                        .build());
        ZarrArrayTest.writeAll(a);
        return a;
    }

    /** The output chunks of (256, 512) over the whole array, clipped at its edge, and their offsets. */
    private static Chunk[] targets(long[][] offsets) {
        Chunk[] t = new Chunk[offsets.length];
        int k = 0;
        for (long r = 0; r < SHAPE[0]; r += 256) {
            for (long c = 0; c < SHAPE[1]; c += 512) {
                offsets[k] = new long[] {r, c};
                t[k] = Chunk.allocate(DType.FLOAT64, (int) Math.min(256, SHAPE[0] - r), 512);
                Arrays.fill(t[k].doubles(), Double.NaN);
                k++;
            }
        }
        return t;
    }

    /**
     * The median peak of three reads of chunk {@code row} into the targets (made before the measurement, so they do not
     * count), after which every target the chunk overlaps holds the array's values.
     */
    private static long peakOfReadInto(ZarrArray a, int row) {
        int count = (int) (((SHAPE[0] + 255) / 256) * 2);
        long[][] offsets = new long[count][];
        Chunk[] targets = targets(offsets);
        long[] peaks = new long[3];
        for (int i = 0; i < peaks.length; i++) {
            ArrayRecycler.releaseIdle();
            try (HeapProbe.Measurement m = HeapProbe.begin()) {
                a.readChunkInto(new long[] {row, 0}, targets, offsets);
                peaks[i] = m.peakBytes();
            }
        }
        for (int t = 0; t < targets.length; t++) {
            if (offsets[t][0] / N != row) {
                continue;
            }
            int[] shape = targets[t].shape();
            assertThat(targets[t].contentEquals(ZarrArrayTest.reference(DType.FLOAT64, SHAPE, offsets[t], shape)))
                    .as("target at %s", Arrays.toString(offsets[t]))
                    .isTrue();
        }
        Arrays.sort(peaks);
        return peaks[1];
    }

    @Test
    void bloscAndZstdChunksGoIntoTheTargetsWithNoArrayOfTheirBytesEdgeChunksToo() {
        for (Compressor compressor : new Compressor[] {
            new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0), new Compressor.Zstd(1, false)
        }) {
            ZarrArray a = written("streams-" + compressor.getClass().getSimpleName() + ".zarr", compressor);
            assertThat(a.bufferCopies().readsInto()).isTrue();
            for (int row = 0; row < 2; row++) {
                // The stored bytes (the reference values compress to a few MB at most) and a block's scratch: no 8 MB
                // array of the chunk's decompressed bytes, which the edge chunk (1, 0) was read through before.
                assertThat(peakOfReadInto(a, row))
                        .as("%s, chunk row %d", compressor, row)
                        .isLessThan(CHUNK - 2 * MB);
            }
        }
    }

    @Test
    void gzipChunksHoldTheirDecompressedBytesWhichTheCodecCopyCounts() {
        ZarrArray a = written("gzip.zarr", new Compressor.Gzip(1));
        assertThat(a.bufferCopies().readsInto()).isTrue();
        assertThat(a.bufferCopies().read()).isEqualTo(2); // the stored bytes and the decompressed ones
        for (int row = 0; row < 2; row++) {
            assertThat(peakOfReadInto(a, row)).as("chunk row %d", row).isBetween(CHUNK - MB, 2 * CHUNK);
        }
    }
}
