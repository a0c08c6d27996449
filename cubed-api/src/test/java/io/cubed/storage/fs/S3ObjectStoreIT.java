package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.PythonTool;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * {@code s3a://} through Cubed's S3 client as a user meets it, against the S3 test server keeping its objects as files
 * (s3proxy's file system blob store): arrays zarr-python wrote as those files are read over S3 with {@link
 * Cubed#fromZarr}, and what Cubed writes over S3 is read back by zarr-python from the files. zarr-python's values are
 * the reference throughout.
 */
class S3ObjectStoreIT {
    private static final String BUCKET = "cubed-object-store";

    @TempDir
    static Path dir;

    private static S3TestServer s3;
    private static RefusingBlobStore refusing;
    private static Path script;
    private static Map<String, Object> written;

    @BeforeAll
    static void start() throws Exception {
        PythonTool.requireModules("zarr", "numcodecs", "numpy");
        s3 = S3TestServer.builder()
                .bucket(BUCKET)
                .directory(dir)
                .wrapStore(s -> refusing = new RefusingBlobStore(s))
                .start();
        script = dir.resolve("zarr_on_s3.py");
        try (InputStream in = S3ObjectStoreIT.class.getResourceAsStream("/s3-audit/zarr_on_s3.py")) {
            Files.write(script, in.readAllBytes());
        }
        written =
                PythonTool.runForJson(script, 300, "write", dir.resolve(BUCKET).toString());
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.close();
        }
    }

    private static Spec spec() {
        return Spec.builder()
                .workDir(s3.url("work"))
                .storeOptions(s3.options().with(RetryingStore.BASE_DELAY_MS, "10"))
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    @SuppressWarnings("unchecked")
    private static List<Double> values(Map<String, Object> array) {
        List<Double> v = new ArrayList<>();
        for (Object o : (List<Object>) array.get("values")) {
            v.add(((Number) o).doubleValue());
        }
        return v;
    }

    private static List<Double> values(Chunk c) {
        List<Double> v = new ArrayList<>();
        for (double d : c.doubles()) {
            v.add(d);
        }
        return v;
    }

    /**
     * Names with a space, brackets, '#', '%', unicode, dots and dashes, several levels down: S3's keys are the URL's
     * text after the bucket, literally, as S3A takes them. Until the destination checks read object-store URLs as
     * URIs, such a name was refused ("not a valid URI"), or cut at '#' and decoded at '%'.
     */
    @Test
    @SuppressWarnings("unchecked")
    void arraysWhoseNamesURIsWouldRefuseOrDecodeAreReadAndWrittenUnderTheirNames() throws Exception {
        List<String> outKeys = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String name : written.keySet()) {
            if (!name.startsWith("in/") && !name.equals("wide.zarr") && !name.equals("many.zarr")) {
                names.add(name);
            }
        }
        assertThat(names).hasSize(6);
        for (String name : names) {
            Map<String, Object> reference = (Map<String, Object>) written.get(name);
            CubedArray x = Cubed.fromZarr(s3.url("in/l1/l2/" + name), spec());
            assertThat(x.shape()).as(name).containsExactly(7, 5);
            assertThat(values(x.compute())).as(name).isEqualTo(values(reference));
            String out = "out/l1/" + name;
            Elementwise.multiply(x, Scalar.ofDouble(2)).toZarr(s3.url(out));
            outKeys.add(out);
        }
        Map<String, Object> back = PythonTool.runForJson(
                script,
                120,
                concat(List.of("read", dir.resolve(BUCKET).toString()), outKeys).toArray(String[]::new));
        for (int i = 0; i < names.size(); i++) {
            List<Double> expected = new ArrayList<>();
            for (double v : values((Map<String, Object>) written.get(names.get(i)))) {
                expected.add(v * 2);
            }
            Map<String, Object> read = (Map<String, Object>) back.get(outKeys.get(i));
            assertThat(read.get("shape")).as(outKeys.get(i)).isEqualTo(List.of(7L, 5L));
            assertThat(values(read)).as(outKeys.get(i)).isEqualTo(expected);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    @SuppressWarnings("unchecked")
    void listingsOfMoreThanAThousandKeysTakeEveryPage() {
        Store wide = Stores.open(s3.url("wide.zarr"), s3.options());
        List<String> children = new ArrayList<>(wide.listChildren(""));
        children.remove(".zgroup");
        assertThat(children).isEqualTo(written.get("wide.zarr"));
        Map<String, Object> many = (Map<String, Object>) written.get("many.zarr");
        ZarrArray a = ZarrArray.open(s3.url("many.zarr"), s3.options());
        assertThat(a.writtenChunkCount()).isEqualTo(((Number) many.get("chunks_initialized")).longValue());
        List<Double> all = new ArrayList<>();
        for (short v : Cubed.fromZarr(s3.url("many.zarr"), spec()).compute().shorts()) {
            all.add((double) v);
        }
        assertThat(all).isEqualTo(values(many));
    }

    /**
     * A bucket that does not exist is no missing object: S3 answers a GET in it with 404 {@code NoSuchBucket}, which
     * was read as "no value", so the array "was missing" and a chunk read as the fill value.
     */
    @Test
    void aMissingBucketIsAnErrorSayingSoNotAnAbsentArrayOrFillValues() {
        String url = "s3a://no-such-bucket-here/data/x.zarr";
        assertThatThrownBy(() -> Cubed.fromZarr(url, spec()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url)
                .hasMessageContaining("NoSuchBucket");
        Store store = Stores.open(url, s3.options());
        assertThatThrownBy(() -> store.get("0.0"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("'0.0'")
                .hasMessageContaining("NoSuchBucket");
        assertThatThrownBy(() -> store.getRange("0.0", 0, 4)).hasMessageContaining("NoSuchBucket");
        assertThatThrownBy(() -> store.getAsync("0.0").join()).hasMessageContaining("NoSuchBucket");
    }

    /** A HEAD's answer has no body: a refused one said only "HTTP 403". */
    @Test
    void aRefusedHeadSaysWhatA403Means() {
        Store wrongKey = Stores.open(s3.url("in"), s3.options().with("fs.s3a.secret.key", "not-the-secret"));
        assertThatThrownBy(() -> wrongKey.exists("l1/l2/a.b-c.zarr/.zarray"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(s3.url("in"))
                .hasMessageContaining("403 Forbidden: access denied");
    }

    /**
     * The output's attributes with its incomplete mark land first and its metadata document next. When the metadata
     * came first and the mark could not be written (S3 refusing the {@code .zattrs} PUT), the array was left behind
     * unmarked, passing for a complete array of fill values. Now a refused {@code .zattrs} leaves nothing, and a
     * refused {@code .zarray} has the failure remove the attributes; where that fails too, it says the array must be
     * deleted.
     */
    @Test
    void anOutputWhoseMarkCannotBeWrittenIsNotLeftBehindAsAnArray() {
        ZarrArray src = ZarrArray.create(
                s3.url("mark/in.zarr"),
                ZarrCreateOptions.builder(new long[] {6}, new int[] {3}, DType.FLOAT64)
                        .build(),
                s3.options());
        src.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {1, 2, 3}), 0);
        src.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {4, 5, 6}), 1);
        CubedArray y = Elementwise.add(Cubed.fromZarr(s3.url("mark/in.zarr"), spec()), Scalar.ofDouble(1));
        Store bucket = Stores.open("s3a://" + BUCKET, s3.options());

        for (String doc : java.util.List.of(".zattrs", ".zarray")) {
            String out = "mark/out" + doc + ".zarr";
            refusing.refusePuts(key -> key.equals(out + "/" + doc));
            try {
                assertThatThrownBy(() -> y.toZarr(s3.url(out)))
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("'" + doc + "'")
                        .hasMessageContaining("403");
            } finally {
                refusing.refusePuts(key -> false);
                refusing.refuseDeletes(key -> false);
            }
            assertThat(bucket.list(out)).as(doc).isEmpty();
            assertThat(Zarr.arrayExists(s3.url(out), s3.options())).isFalse();
            y.toZarr(s3.url(out));
            Chunk back = ZarrArray.open(s3.url(out), s3.options()).readRegion(new long[] {0}, new int[] {6});
            assertThat(back.doubles()).containsExactly(2, 3, 4, 5, 6, 7);
        }

        // Nor can the documents be removed: the failure names the array to delete.
        refusing.refusePuts(key -> key.equals("mark/stuck.zarr/.zarray"));
        refusing.refuseDeletes(key -> key.startsWith("mark/stuck.zarr/"));
        try {
            assertThatThrownBy(() -> y.toZarr(s3.url("mark/stuck.zarr")))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("the array just created at " + s3.url("mark/stuck.zarr"))
                    .hasMessageContaining("could not be removed (.zarray, zarr.json, .zattrs: ")
                    .hasMessageContaining("delete it");
        } finally {
            refusing.refusePuts(key -> false);
            refusing.refuseDeletes(key -> false);
        }
    }

    /**
     * On an object store the targets' places are looked at all at once, and the targets are created while the
     * intermediates' owner and the intermediates are: the values and the work directory's emptiness afterwards say
     * that each array was created whole and the intermediates deleted. A target at the work directory itself is still
     * created after the intermediates, and refused there, not made an array around them; one inside it is written.
     */
    @Test
    void targetsAreCreatedAlongsideTheIntermediatesButNeverAroundThem() {
        ZarrArray src = ZarrArray.create(
                s3.url("order/in.zarr"),
                ZarrCreateOptions.builder(new long[] {6}, new int[] {3}, DType.FLOAT64)
                        .build(),
                s3.options());
        src.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {1, 2, 3}), 0);
        src.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {4, 5, 6}), 1);
        CubedArray plusOne = Elementwise.add(Cubed.fromZarr(s3.url("order/in.zarr"), spec()), Scalar.ofDouble(1));
        CubedArray a = Elementwise.add(plusOne, Scalar.ofDouble(1));
        CubedArray b = Elementwise.multiply(plusOne, Scalar.ofDouble(2));
        io.cubed.array.ComputeOptions unfused =
                io.cubed.array.ComputeOptions.builder().optimize(false).build();
        Cubed.store(List.of(a, b), List.of(s3.url("order/a.zarr"), s3.url("order/b.zarr")), unfused);
        assertThat(ZarrArray.open(s3.url("order/a.zarr"), s3.options())
                        .readRegion(new long[] {0}, new int[] {6})
                        .doubles())
                .containsExactly(3, 4, 5, 6, 7, 8);
        assertThat(ZarrArray.open(s3.url("order/b.zarr"), s3.options())
                        .readRegion(new long[] {0}, new int[] {6})
                        .doubles())
                .containsExactly(4, 6, 8, 10, 12, 14);
        Store work = Stores.open(s3.url("work"), s3.options());
        assertThat(work.list("")).as("the work directory after the computation").isEmpty();

        assertThatThrownBy(() -> a.toZarr(s3.url("work"), unfused))
                .hasMessageContaining("cannot create an array at " + s3.url("work"));
        assertThat(work.exists(".zarray")).isFalse();
        a.toZarr(s3.url("work/inside.zarr"), unfused);
        assertThat(ZarrArray.open(s3.url("work/inside.zarr"), s3.options())
                        .readRegion(new long[] {0}, new int[] {6})
                        .doubles())
                .containsExactly(3, 4, 5, 6, 7, 8);
    }

    /** The test server's blob store, refusing (403 AccessDenied) the PUTs and DELETEs of the keys a test names. */
    private static final class RefusingBlobStore extends ForwardingBlobStore {
        private volatile Predicate<String> puts = key -> false;
        private volatile Predicate<String> deletes = key -> false;

        RefusingBlobStore(BlobStore delegate) {
            super(delegate);
        }

        void refusePuts(Predicate<String> keys) {
            this.puts = keys;
        }

        void refuseDeletes(Predicate<String> keys) {
            this.deletes = keys;
        }

        @Override
        public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
            if (puts.test(request.key())) {
                throw S3Exceptions.fromStatusCode(403);
            }
            return super.putBlob(request, body);
        }

        @Override
        public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
            if (deletes.test(request.key())) {
                throw S3Exceptions.fromStatusCode(403);
            }
            return super.removeBlob(request);
        }
    }
}
