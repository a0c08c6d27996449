package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Random arrays, chunkings and regions: what is read equals a plain loop over the reference array. */
class ZarrRegionProperties {
    /** An array shape, a chunk shape, and a region (offset, extent) inside the array, all of one rank. */
    record Case(long[] shape, int[] chunks, long[] offset, int[] extent, DType dtype) {}

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(0, 3).flatMap(rank -> {
            Arbitrary<int[]> dims =
                    Arbitraries.integers().between(0, 9).array(int[].class).ofSize(rank);
            return Combinators.combine(
                            dims,
                            Arbitraries.integers()
                                    .between(1, 4)
                                    .array(int[].class)
                                    .ofSize(rank),
                            Arbitraries.longs()
                                    .between(0, Long.MAX_VALUE)
                                    .array(long[].class)
                                    .ofSize(2 * rank),
                            Arbitraries.of(DType.values()))
                    .as((d, c, r, dtype) -> {
                        long[] shape = new long[rank];
                        long[] offset = new long[rank];
                        int[] extent = new int[rank];
                        for (int i = 0; i < rank; i++) {
                            shape[i] = d[i];
                            offset[i] = d[i] == 0 ? 0 : r[2 * i] % d[i];
                            extent[i] = (int) (r[2 * i + 1] % (d[i] - offset[i] + 1));
                        }
                        return new Case(shape, c, offset, extent, dtype);
                    });
        });
    }

    @Property(tries = 300)
    void regionsAndChunksReadBackWhatWasWritten(@ForAll("cases") Case c) {
        ZarrArray a = ZarrArray.create(
                "memory://region-props-" + UUID.randomUUID(),
                ZarrCreateOptions.builder(c.shape(), c.chunks(), c.dtype())
                        .compressor(new Compressor.Zstd(1, false))
                        .build());
        ZarrArrayTest.writeAll(a);
        Chunk region = a.readRegion(c.offset(), c.extent());
        assertThat(region.contentEquals(ZarrArrayTest.reference(c.dtype(), c.shape(), c.offset(), c.extent())))
                .isTrue();
        ChunkGrid g = a.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            Chunk expected =
                    ZarrArrayTest.reference(c.dtype(), c.shape(), g.chunkOffset(coords), g.chunkShapeAt(coords));
            assertThat(a.readChunk(coords).contentEquals(expected)).isTrue();
        }
    }

    /**
     * Chunks read into targets (the case's region and the whole array), some chunks never written (read as the fill
     * value), and only every other chunk read at first: each target element equals, by a plain loop, the written
     * value, the fill value, or, where its chunk has not been read, what the target held before.
     */
    @Property(tries = 300)
    void chunksReadIntoTargetsCopyTheirOverlapOnly(@ForAll("cases") Case c) {
        Scalar fill = c.dtype() == DType.BOOL ? Scalar.ofBoolean(true) : Scalar.ofLong(5);
        ZarrArray a = ZarrArray.create(
                "memory://read-into-props-" + UUID.randomUUID(),
                ZarrCreateOptions.builder(c.shape(), c.chunks(), c.dtype())
                        .compressor(new Compressor.Zstd(1, false))
                        .fillValue(fill)
                        .build());
        ChunkGrid g = writeAllButEveryThirdChunk(a, c);
        int rank = c.shape().length;
        int[] wholeShape = new int[rank];
        for (int i = 0; i < rank; i++) {
            wholeShape[i] = (int) c.shape()[i];
        }
        long[][] offsets = {c.offset(), new long[rank]};
        Chunk[] targets = {sentinel(c.dtype(), c.extent()), sentinel(c.dtype(), wholeShape)};
        Chunk[] before = {sentinel(c.dtype(), c.extent()), sentinel(c.dtype(), wholeShape)};
        boolean[] read = new boolean[(int) g.numChunks()];
        for (int pass = 0; pass < 2; pass++) {
            for (int i = pass; i < read.length; i += 2) {
                a.readChunkInto(g.chunkCoordsOf(i), targets, offsets);
                read[i] = true;
            }
            for (int t = 0; t < targets.length; t++) {
                Chunk expected = expectedTarget(c, g, fill, offsets[t], before[t], read);
                assertThat(targets[t].contentEquals(expected))
                        .as("target %d after pass %d", t, pass)
                        .isTrue();
            }
        }
    }

    /**
     * Chunks read into one target (the case's region), with zstd (decoded in order) or Blosc (in blocks): a chunk that
     * lies whole within the target is decoded straight into its place there, the others have their overlap copied;
     * each target element equals, by a plain loop, the written value or the fill value.
     */
    @Property(tries = 300)
    void chunksReadIntoOneTargetEachGiveTheirOverlap(@ForAll("cases") Case c, @ForAll boolean blosc) {
        Scalar fill = c.dtype() == DType.BOOL ? Scalar.ofBoolean(true) : Scalar.ofLong(5);
        ZarrArray a = ZarrArray.create(
                "memory://read-into-one-" + UUID.randomUUID(),
                ZarrCreateOptions.builder(c.shape(), c.chunks(), c.dtype())
                        .compressor(
                                blosc
                                        ? new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0)
                                        : new Compressor.Zstd(1, false))
                        .fillValue(fill)
                        .build());
        ChunkGrid g = writeAllButEveryThirdChunk(a, c);
        Chunk target = sentinel(c.dtype(), c.extent());
        Chunk before = sentinel(c.dtype(), c.extent());
        boolean[] read = new boolean[(int) g.numChunks()];
        for (int i = 0; i < read.length; i++) {
            a.readChunkInto(g.chunkCoordsOf(i), new Chunk[] {target}, new long[][] {c.offset()});
            read[i] = true;
        }
        assertThat(target.contentEquals(expectedTarget(c, g, fill, c.offset(), before, read)))
                .isTrue();
    }

    /** Writes every chunk but those whose index is 1 modulo 3 (read as the fill value); returns the grid. */
    private static ChunkGrid writeAllButEveryThirdChunk(ZarrArray a, Case c) {
        ChunkGrid g = a.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            if (i % 3 != 1) {
                long[] coords = g.chunkCoordsOf(i);
                a.writeChunk(
                        ZarrArrayTest.reference(c.dtype(), c.shape(), g.chunkOffset(coords), g.chunkShapeAt(coords)),
                        coords);
            }
        }
        return g;
    }

    /** A chunk of {@code shape} holding values unlike the array's (so that untouched elements show). */
    private static Chunk sentinel(DType dtype, int[] shape) {
        Chunk s = Chunk.allocate(dtype, shape);
        for (int i = 0; i < s.size(); i++) {
            ZarrArrayTest.setReference(s, i, 7919L * i + 11);
        }
        return s;
    }

    /** The target at {@code offset}, element by element: written value, fill value, or {@code before}'s. */
    private static Chunk expectedTarget(Case c, ChunkGrid g, Scalar fill, long[] offset, Chunk before, boolean[] read) {
        int rank = offset.length;
        int[] shape = before.shape();
        Chunk expected = Chunk.allocate(c.dtype(), shape);
        Chunk one = Chunk.allocate(c.dtype(), new int[0]);
        Chunk fillOne = Chunk.full(c.dtype(), fill);
        int slots = c.dtype().slotsPerElement();
        int[] idx = new int[rank];
        for (int i = 0; i < expected.size(); i++) {
            long flat = 0;
            long chunkIndex = 0;
            for (int d = 0; d < rank; d++) {
                long pos = offset[d] + idx[d];
                flat = flat * c.shape()[d] + pos;
                chunkIndex = chunkIndex * g.chunksPerAxis(d) + pos / g.chunkShape(d);
            }
            Object from;
            int at = 0;
            if (!read[(int) chunkIndex]) {
                from = before.data();
                at = i;
            } else if (chunkIndex % 3 == 1) {
                from = fillOne.data();
            } else {
                ZarrArrayTest.setReference(one, 0, flat);
                from = one.data();
            }
            System.arraycopy(from, at * slots, expected.data(), i * slots, slots);
            for (int d = rank - 1; d >= 0; d--) {
                if (++idx[d] < shape[d]) {
                    break;
                }
                idx[d] = 0;
            }
        }
        return expected;
    }
}
