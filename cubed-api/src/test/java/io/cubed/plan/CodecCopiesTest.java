package io.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.dtype.DType;
import io.cubed.memory.BufferCopies;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.V3Codec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrFormat;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory projection counts every chunk-sized buffer a codec holds: Blosc (v2) and no compressor hold none besides
 * the stored bytes, as they convert block by block or not at all; every other codec holds the chunk's element bytes as
 * one more array, while reading and while writing. Terms written out: a chunk of 10 x 10 float64 is 800 bytes.
 */
class CodecCopiesTest {
    private static final long CHUNK = 800;

    @TempDir
    Path tmp;

    private String v2(String name, Compressor c) {
        String url = tmp.resolve(name).toString();
        ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {20, 10}, new int[] {10, 10}, DType.FLOAT64)
                        .compressor(c)
                        .build());
        return url;
    }

    @Test
    void storesReportTheirCodecsBuffers() throws java.io.IOException {
        assertThat(ZarrArray.open(v2("blosc.zarr", Compressor.defaultCompressor()))
                        .bufferCopies())
                .isEqualTo(new BufferCopies(1, 1, true));
        // Zarr v2 in C order reads a chunk into other chunks with no decoded chunk (ReadIntoHeapProbeTest).
        assertThat(ZarrArray.open(v2("raw.zarr", null)).bufferCopies()).isEqualTo(new BufferCopies(1, 1, true));
        assertThat(ZarrArray.open(v2("zlib.zarr", new Compressor.Zlib(1))).bufferCopies())
                .isEqualTo(new BufferCopies(2, 2, true));
        // zstd compresses and decompresses piece by piece: no array of the element bytes.
        assertThat(ZarrArray.open(v2("zstd.zarr", new Compressor.Zstd(1, false)))
                        .bufferCopies())
                .isEqualTo(new BufferCopies(1, 1, true));
        // Fortran order: every compressed chunk is decoded to its bytes first, and read into other chunks through a
        // decoded chunk.
        String fortran = v2("zstd-f.zarr", new Compressor.Zstd(1, false));
        java.nio.file.Path zarray = java.nio.file.Path.of(fortran, ".zarray");
        String json = java.nio.file.Files.readString(zarray).replaceAll("\"order\":\\s*\"C\"", "\"order\": \"F\"");
        java.nio.file.Files.writeString(zarray, json);
        assertThat(ZarrArray.open(fortran).bufferCopies()).isEqualTo(new BufferCopies(2, 2));
        ZarrV3Array gzip = ZarrV3Array.create(
                tmp.resolve("gzip3.zarr").toString(),
                ZarrV3Metadata.create(
                        new long[] {20, 10},
                        new int[] {10, 10},
                        DType.FLOAT64,
                        io.cubed.dtype.Scalar.ofDouble(0),
                        List.of(new V3Codec.Bytes(false), new V3Codec.Gzip(1))),
                false,
                StoreOptions.empty());
        assertThat(gzip.bufferCopies()).isEqualTo(new BufferCopies(2, 2, false));
        assertThat(ZarrFormat.v3().codecCopies()).as("bytes then zstd").isZero();
        assertThat(ZarrFormat.v3(
                                List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(1, false), new V3Codec.Crc32c()),
                                io.cubed.dtype.Scalar.ofDouble(0))
                        .codecCopies())
                .as("bytes, zstd, crc32c")
                .isEqualTo(1);
        assertThat(ZarrFormat.v2().codecCopies()).isZero();
        assertThat(ZarrFormat.v2(new Compressor.Bz2(1), io.cubed.dtype.Scalar.ofDouble(0))
                        .codecCopies())
                .isEqualTo(1);
    }

    @Test
    void aTaskReadingZlibAndWritingZstdCountsBothCodecsBuffers() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .reservedMem(1000)
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray blosc = Cubed.fromZarr(v2("in-blosc.zarr", Compressor.defaultCompressor()), spec);
        CubedArray zlib = Cubed.fromZarr(v2("in-zlib.zarr", new Compressor.Zlib(1)), spec);
        for (CubedArray x : List.of(blosc, zlib)) {
            CubedArray y = Blockwise.mapBlocks((blocks, id) -> blocks[0], DType.FLOAT64, x);
            String out = tmp.resolve("out-" + x.name() + ".zarr").toString();
            long readCopies = x == zlib ? 2 : 1;
            // Written as Blosc (the default): the chunk and its frame.
            Computation c = Computation.prepare(spec, List.of(y.node()), Map.of(y.node(), out));
            assertThat(c.projectedMemBytes().get(y.node().op()))
                    .isEqualTo(1000 + CHUNK * (1 + readCopies) + CHUNK * (1 + 1));
            // Written as Zstandard: the chunk and the compressed bytes (compressed from the elements piece by piece).
            Computation z = Computation.prepare(
                    spec,
                    List.of(y.node()),
                    Map.of(y.node(), out),
                    FusionOptions.defaults(),
                    null,
                    ZarrFormat.v2(new Compressor.Zstd(1, false), io.cubed.dtype.Scalar.ofDouble(0)));
            assertThat(z.projectedMemBytes().get(y.node().op()))
                    .isEqualTo(1000 + CHUNK * (1 + readCopies) + CHUNK * (1 + 1));
        }
    }
}
