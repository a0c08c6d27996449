package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.Blockwise;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.BufferCopies;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Zarr arrays and whole computations on {@code s3a://}, against an in-process S3 server on 127.0.0.1. */
class S3ComputeIT {
    private static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("cubed-compute");
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    @Test
    void zarrArraysRoundTripOnS3WithEveryKindOfChunk() {
        String url = s3.url("arrays/a.zarr");
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {5, 7}, new int[] {2, 3}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(-1))
                        .build(),
                s3.options());
        assertThat(a.bufferCopies()).isEqualTo(BufferCopies.OBJECT_STORE.readingInto(true));
        for (long i = 0; i < a.grid().numChunks(); i++) {
            long[] c = a.grid().chunkCoordsOf(i);
            if (i == 4) {
                continue; // one chunk left unwritten: reads as the fill value
            }
            Chunk chunk = Chunk.full(DType.FLOAT64, Scalar.ofDouble(i), a.grid().chunkShapeAt(c));
            a.writeChunk(chunk, c);
        }
        ZarrArray b = ZarrArray.open(url, s3.options());
        assertThat(b.metadata()).isEqualTo(a.metadata());
        Chunk all = b.readRegion(new long[] {0, 0}, new int[] {5, 7});
        for (int r = 0; r < 5; r++) {
            for (int col = 0; col < 7; col++) {
                long chunkIndex = (r / 2) * 3L + col / 3;
                double expected = chunkIndex == 4 ? -1 : chunkIndex;
                assertThat(all.doubles()[r * 7 + col]).isEqualTo(expected);
            }
        }
        assertThat(b.writtenChunkCount()).isEqualTo(8);
    }

    @Test
    void aComputationReadsAndWritesS3AndProjectsObjectStoreCopies() {
        String in = s3.url("compute/in.zarr");
        ZarrArray src = ZarrArray.create(
                in,
                ZarrCreateOptions.builder(new long[] {40}, new int[] {8}, DType.INT32)
                        .compressor(new Compressor.Zstd(1, false))
                        .build(),
                s3.options());
        for (long i = 0; i < src.grid().numChunks(); i++) {
            int[] v = new int[8];
            for (int k = 0; k < 8; k++) {
                v[k] = (int) (i * 8 + k);
            }
            src.writeChunk(Chunk.wrap(DType.INT32, new int[] {8}, v), i);
        }
        Spec spec = Spec.builder()
                .workDir(s3.url("work"))
                .storeOptions(s3.options())
                .reservedMem(1000)
                .executor(new LocalExecutor(2, 3, 0))
                .build();
        CubedArray x = Cubed.fromZarr(in, spec);
        CubedArray y = Blockwise.mapBlocks(
                (blocks, id) -> {
                    int[] v = blocks[0].ints().clone();
                    for (int k = 0; k < v.length; k++) {
                        v[k] = v[k] * v[k];
                    }
                    return Chunk.wrap(DType.INT32, blocks[0].shape(), v);
                },
                DType.INT32,
                x);
        // Input and output both on S3: 2 read and 2 write copies of each 32-byte chunk, and none more for the codecs:
        // Zstandard (the input's) decodes piece by piece into the chunk, Blosc (the output's) encodes block by block.
        Computation c = Computation.prepare(spec, List.of(y.node()), Map.of());
        assertThat(c.projectedMemBytes().get(y.node().op())).isEqualTo(1000 + 32 * (1 + 2) + 32 * (1 + 2));
        String out = s3.url("compute/out.zarr");
        y.toZarr(out);
        Chunk back = ZarrArray.open(out, s3.options()).readRegion(new long[] {0}, new int[] {40});
        for (int i = 0; i < 40; i++) {
            assertThat(back.ints()[i]).isEqualTo(i * i);
        }
        assertThat(Stores.open(s3.url("work"), s3.options()).list(""))
                .as("intermediates deleted")
                .isEmpty();
    }

    @Test
    void aTargetThatIsTheSourceKeyInAnotherSpellingIsRefusedBeforeAnythingIsWritten() {
        String in = s3.url("safety/x.zarr");
        ZarrArray src = ZarrArray.create(
                in,
                ZarrCreateOptions.builder(new long[] {8}, new int[] {4}, DType.FLOAT64)
                        .build(),
                s3.options());
        src.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(7), 4), 0);
        src.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(9), 4), 1);
        Store bucket = Stores.open(s3.url("safety"), s3.options());
        List<String> keys = bucket.list("");
        Spec spec = Spec.builder()
                .workDir(s3.url("work"))
                .storeOptions(s3.options())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray y = io.cubed.array.Elementwise.add(Cubed.fromZarr(in, spec), Scalar.ofDouble(1));
        String s3Scheme = in.replaceFirst("^s3a:", "s3:");
        for (String url : List.of(in, in + "/", s3Scheme, in.replace("/safety/", "//safety/./"), in + "/inner.zarr")) {
            assertThatThrownBy(() -> y.toZarr(
                            url, ComputeOptions.builder().resume("again").build()))
                    .as(url)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(in);
        }
        assertThat(bucket.list("")).containsExactlyInAnyOrderElementsOf(keys);
        Chunk back = ZarrArray.open(in, s3.options()).readRegion(new long[] {0}, new int[] {8});
        assertThat(back.doubles()).containsExactly(7, 7, 7, 7, 9, 9, 9, 9);
    }
}
