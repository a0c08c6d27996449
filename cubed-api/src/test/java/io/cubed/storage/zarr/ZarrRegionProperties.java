package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
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
}
