package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Intermediate arrays are compressed as the spec's intermediateCodec says; auto depends on where workDir is. */
class IntermediateCodecTest {
    @TempDir
    Path tmp;

    private Spec.Builder spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .keepIntermediates(true);
    }

    /** The .zarray texts of the intermediates a rechunk of a 12 x 12 array wrote, after a run with {@code spec}. */
    private List<String> intermediatesOfARechunk(Spec spec, double[] expected) throws Exception {
        double[] d = new double[144];
        for (int i = 0; i < d.length; i++) {
            d[i] = i * 0.25 - 7;
        }
        System.arraycopy(d, 0, expected, 0, d.length);
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {12, 12}, d), spec, 1, 12);
        // Row stripes to column stripes through an intermediate: allowedMem forces two stages.
        CubedArray y = Manipulation.rechunk(x, 12, 1);
        double[] got =
                y.compute(ComputeOptions.builder().optimize(false).build()).doubles();
        assertThat(got).containsExactly(expected);
        try (Stream<Path> s = Files.walk(tmp.resolve("work"))) {
            return s.filter(p -> p.getFileName().toString().equals(".zarray"))
                    .map(p -> {
                        try {
                            return Files.readString(p);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
    }

    @Test
    void autoWritesUncompressedIntermediatesOnALocalWorkDirectory() throws Exception {
        Spec spec = spec().allowedMem("3000B").reservedMem("0B").build();
        assertThat(spec.intermediateCodec()).isEqualTo("auto");
        List<String> metadata = intermediatesOfARechunk(spec, new double[144]);
        assertThat(metadata).isNotEmpty();
        for (String m : metadata) {
            assertThat(m.replaceAll("\\s", "")).contains("\"compressor\":null");
        }
    }

    @Test
    void aChosenCodecCompressesIntermediatesAndCountsItsBuffer() throws Exception {
        Spec zstd = spec().allowedMem("3000B")
                .reservedMem("0B")
                .intermediateCodec("zstd:3")
                .build();
        List<String> metadata = intermediatesOfARechunk(zstd, new double[144]);
        assertThat(metadata).isNotEmpty();
        for (String m : metadata) {
            assertThat(m.replaceAll("\\s", "")).contains("\"id\":\"zstd\"").contains("\"level\":3");
        }
        // A compressor that codes the whole chunk's bytes at once (zlib) holds them as one more chunk while reading and
        // writing: an elementwise operation on a stored intermediate projects one input and one output chunk more.
        // zstd, coded piece by piece from and into the elements, and Blosc, block by block, hold none.
        Spec roomy = spec().allowedMem("1GB").reservedMem("0B").build();
        long chunk = 12 * 8;
        assertThat(negateOfIntermediate(
                                roomy.toBuilder().intermediateCodec("zlib:1").build())
                        - negateOfIntermediate(roomy))
                .isEqualTo(2 * chunk);
        assertThat(negateOfIntermediate(
                        roomy.toBuilder().intermediateCodec("zstd:3").build()))
                .isEqualTo(negateOfIntermediate(roomy));
    }

    /** Projected memory of negate reading the (stored) intermediate sqrt(x) + sqrt(x) of a 12 x 12 array. */
    private static long negateOfIntermediate(Spec spec) {
        CubedArray x = Creation.ones(new long[] {12, 12}, new int[] {1, 12}, DType.FLOAT64, spec);
        CubedArray s = Elementwise.sqrt(x);
        CubedArray twice = Elementwise.add(s, s);
        CubedArray n = Elementwise.negative(twice);
        Computation c = Computation.prepare(spec, List.of(n.node()), Map.of(), FusionOptions.disabled());
        return c.projectedMemBytes().get(n.node().op());
    }

    @Test
    void autoKeepsBloscOnObjectStoresAndBadCodecsAreRefused() {
        assertThat(Computation.intermediateFormat(spec().build()).compressor()).isNull();
        for (String local : List.of("/tmp/work", "work", "file:///tmp/work", "C:/work")) {
            assertThat(Computation.intermediateFormat("auto", local).compressor())
                    .as(local)
                    .isNull();
        }
        for (String remote : List.of("s3a://bucket/work", "hdfs://nn:8020/tmp", "abfss://c@a.dfs.core.windows.net/w")) {
            assertThat(Computation.intermediateFormat("auto", remote).compressor())
                    .as(remote)
                    .isEqualTo(io.cubed.storage.zarr.ZarrFormat.v2().compressor());
        }
        assertThat(Computation.intermediateFormat("none", "s3a://bucket/work").compressor())
                .isNull();
        assertThatThrownBy(() -> spec().intermediateCodec("blosc:lz5"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("intermediateCodec 'blosc:lz5': ")
                .hasMessageEndingWith("; or auto");
    }
}
