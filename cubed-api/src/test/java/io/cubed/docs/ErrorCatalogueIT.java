package io.cubed.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.PlanException;
import io.cubed.error.StorageException;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalogue of user errors in docs/errors.md, one test each: the exception type and the words of its message the
 * document quotes. Each error is raised by the call that caused it (or, for data that is only read in a task, by the
 * computation, naming the chunk), and never leaves a half-written output.
 */
class ErrorCatalogueIT {
    private static S3TestServer s3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = S3TestServer.start("errors");
    }

    @AfterAll
    static void stopS3() throws Exception {
        s3.close();
    }

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
    }

    private String zarr(String name) {
        String url = tmp.resolve(name).toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4, 4}, new int[] {2, 2}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < 4; i++) {
            z.writeChunk(Chunk.allocate(DType.FLOAT64, 2, 2), z.grid().chunkCoordsOf(i));
        }
        return url;
    }

    @Test
    void invalidChunks() {
        assertThatThrownBy(() -> Creation.ones(new long[] {10, 10}, new int[] {5, 0}, DType.FLOAT64, spec()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("chunks [5, 0]");
        assertThatThrownBy(() -> Cubed.fromZarr(zarr("a.zarr"), spec(), 3, 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("a.zarr");
    }

    @Test
    void allowedMemTooSmall() {
        Spec small = spec().toBuilder().allowedMem("150MB").build();
        CubedArray x = Creation.ones(new long[] {8192, 8192}, new int[] {8192, 8192}, DType.FLOAT64, small);
        assertThatThrownBy(() -> Elementwise.negative(x).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem (150.0 MB)")
                .hasMessageContaining("negative");
        // A source row of 512 bytes and its copies cannot fit 500 bytes: the planner names a budget that works.
        Spec tiny = spec().toBuilder().allowedMem(500).reservedMem(0).build();
        CubedArray rows = Creation.ones(new long[] {64, 64}, new int[] {1, 64}, DType.FLOAT64, tiny);
        assertThatThrownBy(() -> Manipulation.rechunk(rows, 64, 1).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("allowedMem");
    }

    @Test
    void mismatchedShapesAndTypes() {
        Spec spec = spec();
        CubedArray a = Creation.ones(new long[] {3}, new int[] {3}, DType.INT64, spec);
        CubedArray b = Creation.ones(new long[] {4}, new int[] {4}, DType.INT64, spec);
        CubedArray u = Creation.ones(new long[] {3}, new int[] {3}, DType.UINT64, spec);
        assertThatThrownBy(() -> Elementwise.add(a, b))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot be broadcast together");
        assertThatThrownBy(() -> Elementwise.add(a, u))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("defines no promotion");
    }

    @Test
    void missingMalformedAndCorruptZarr() throws Exception {
        assertThatThrownBy(() -> Cubed.fromZarr(tmp.resolve("nothing.zarr").toString(), spec()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(".zarray is missing");
        String bad = zarr("bad.zarr");
        Files.writeString(Path.of(bad, ".zarray"), "{\"shape\": [4, 4], ", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Cubed.fromZarr(bad, spec()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("bad.zarr");
        String corrupt = zarr("corrupt.zarr");
        Files.write(Path.of(corrupt, "1.1"), new byte[] {1, 2, 3});
        Spec retrying = spec().toBuilder().executor(new LocalExecutor(1, 3, 0)).build();
        CubedArray x = Cubed.fromZarr(corrupt, retrying);
        assertThatThrownBy(() ->
                        Elementwise.negative(x).toZarr(tmp.resolve("out.zarr").toString()))
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("failed after 1 attempt: corrupt chunk " + corrupt + "/1.1")
                .hasRootCauseInstanceOf(io.cubed.error.StorageException.class)
                .satisfies(e ->
                        assertThat(io.cubed.error.CorruptDataException.in(e)).isNotNull());
        Files.writeString(tmp.resolve("marker"), "", StandardCharsets.UTF_8);
    }

    @Test
    void missingCredentials() {
        Spec wrong = spec().toBuilder()
                .storeOptions(s3.options().with("fs.s3a.secret.key", "not-the-secret"))
                .build();
        assertThatThrownBy(() -> Cubed.fromZarr(s3.url("x.zarr"), wrong))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("s3a://errors/x.zarr");
    }

    @Test
    void unwritableOutputAndExistingOutput() throws Exception {
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "not a directory", StandardCharsets.UTF_8);
        CubedArray x = Creation.ones(new long[] {4}, new int[] {2}, DType.FLOAT64, spec());
        assertThatThrownBy(() ->
                        Elementwise.negative(x).toZarr(file.resolve("out.zarr").toString()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("a-file");
        String out = tmp.resolve("exists.zarr").toString();
        Elementwise.negative(x).toZarr(out);
        assertThatThrownBy(() -> Elementwise.negative(x).toZarr(out))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("an array already exists there");
    }
}
