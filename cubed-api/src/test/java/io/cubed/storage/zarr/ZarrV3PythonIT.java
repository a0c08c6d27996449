package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cubed's Zarr v3 writes decoded by the fixture generator's independent Python reader ({@code generate.py read},
 * numpy + numcodecs following the v3 specification): every codec, both endians, transpose, key encodings, sharding.
 * Needs {@code /usr/bin/python3} with numpy and numcodecs (or {@code -Dcubed.test.python}); fails without them.
 */
class ZarrV3PythonIT {
    private static final String PYTHON = System.getProperty("cubed.test.python", "/usr/bin/python3");

    @TempDir
    Path tmp;

    @Test
    void pythonReadsWhatCubedWrites() throws Exception {
        List<List<V3Codec>> chains = List.of(
                ZarrV3Metadata.defaultCodecs(),
                List.of(new V3Codec.Transpose(List.of(1, 0)), new V3Codec.Bytes(true), new V3Codec.Gzip(5)),
                List.of(
                        new V3Codec.Bytes(false),
                        new V3Codec.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 8, 0),
                        new V3Codec.Crc32c()),
                ZarrV3Metadata.sharding(new int[] {2, 3}, List.of(new V3Codec.Zstd(3, false))),
                List.of(new V3Codec.Sharding(
                        List.of(4, 3),
                        ZarrV3Metadata.sharding(new int[] {2, 3}, List.of(new V3Codec.Gzip(1))),
                        List.of(new V3Codec.Bytes(true), new V3Codec.Crc32c()),
                        false)));
        int n = 0;
        for (List<V3Codec> chain : chains) {
            for (boolean v2Keys : new boolean[] {false, true}) {
                String url = tmp.resolve("a" + n++).toString();
                ZarrV3Metadata m = ZarrV3Metadata.create(
                        new long[] {10, 13},
                        new int[] {4, 6},
                        DType.FLOAT64,
                        Scalar.ofDouble(Double.NaN),
                        chain,
                        v2Keys,
                        v2Keys ? "." : "/");
                ZarrV3Array a = ZarrV3Array.create(url, m, false, StoreOptions.empty());
                Chunk data = ZarrV3ArrayTest.values(DType.FLOAT64, 10, 13);
                ChunkGrid g = a.grid();
                for (long i = 0; i < g.numChunks(); i++) {
                    long[] c = g.chunkCoordsOf(i);
                    a.writeChunk(ZarrTestValues.region(data, g.chunkOffset(c), g.chunkShapeAt(c)), c);
                }
                byte[] expected = ElementBytes.encode(data, ByteOrder.LITTLE_ENDIAN, false);
                assertThat(pythonRead(url))
                        .as("python decode of %s (%s)", url, chain)
                        .isEqualTo(expected);
            }
        }
    }

    private byte[] pythonRead(String dir) throws Exception {
        Path script = ZarrV3FixturesTest.ROOT.resolve("generate.py");
        Process p = new ProcessBuilder(PYTHON, script.toString(), "read", dir).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("python exit, stderr: %s", err).isZero();
        return out.toByteArray();
    }
}
