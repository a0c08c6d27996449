package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.Store;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * {@code cubed copy} and {@code cubed info} on {@code s3a://} as a user meets them: names with characters URIs refuse,
 * a missing bucket, and a destination whose incomplete mark S3 refuses. Values are checked against the formula the
 * source was written with; exit codes are those of docs/errors.md (1: a failure while running).
 */
class S3CopyCommandIT {
    private static S3TestServer s3;
    private static RefusedPuts refused;

    @TempDir
    static Path tmp;

    private static String source;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.builder()
                .bucket("copy-command")
                .wrapStore(s -> refused = new RefusedPuts(s))
                .start();
        source = tmp.resolve("in.zarr").toString();
        ZarrArray a = ZarrArray.create(
                source,
                ZarrCreateOptions.builder(new long[] {5, 6}, new int[] {2, 4}, DType.FLOAT64)
                        .build());
        double[] all = formula();
        for (long k = 0; k < a.grid().numChunks(); k++) {
            long[] c = a.grid().chunkCoordsOf(k);
            int[] shape = a.grid().chunkShapeAt(c);
            double[] v = new double[shape[0] * shape[1]];
            for (int i = 0; i < shape[0]; i++) {
                for (int j = 0; j < shape[1]; j++) {
                    v[i * shape[1] + j] = all[(int) (c[0] * 2 + i) * 6 + (int) (c[1] * 4 + j)];
                }
            }
            a.writeChunk(Chunk.wrap(DType.FLOAT64, shape, v), c);
        }
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    /** The source's values: element (i, j) is i * 10 + j / 4. */
    private static double[] formula() {
        double[] v = new double[30];
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 6; j++) {
                v[i * 6 + j] = i * 10 + j / 4.0;
            }
        }
        return v;
    }

    private static CliRun cubed(String... args) {
        return CliRun.withStore(s3.options(), args);
    }

    /** A space, brackets and a '#' in S3 keys: copy refused them as "not a valid URI" before it opened anything. */
    @Test
    void copiesToAndFromKeysWithCharactersURIsRefuse() {
        for (String name : List.of("with space.zarr", "r[1]^{x}.zarr", "q#x.zarr", "ünï€ode.zarr")) {
            String url = s3.url("names/d e e p/" + name);
            CliRun up = cubed("copy", source, url);
            assertThat(up.code()).as(name + ": " + up.err()).isZero();
            Path back = tmp.resolve("back-" + Math.abs(name.hashCode()) + ".zarr");
            CliRun down = cubed("copy", url, back.toString());
            assertThat(down.code()).as(name + ": " + down.err()).isZero();
            Chunk values = ZarrArray.open(back.toString()).readRegion(new long[] {0, 0}, new int[] {5, 6});
            assertThat(values.doubles()).as(name).containsExactly(formula());
        }
        Store names = Stores.open(s3.url("names/d e e p"), s3.options());
        assertThat(names.listChildren(""))
                .containsExactlyInAnyOrder("with space.zarr", "r[1]^{x}.zarr", "q#x.zarr", "ünï€ode.zarr");
    }

    /** A missing bucket said "no Zarr array at …: .zarray is missing": S3's 404 NoSuchBucket was read as no object. */
    @Test
    void infoOfAMissingBucketSaysTheBucketDoesNotExist() {
        CliRun run = cubed("info", "s3a://no-such-bucket/x.zarr");
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.err()).contains("s3a://no-such-bucket/x.zarr").contains("NoSuchBucket");
        assertThat(run.err()).doesNotContain("is missing");
    }

    /**
     * The copy writes the destination's attributes with the incomplete mark, then its {@code .zarray}: when S3 refuses
     * either, nothing is left at DST (a refused {@code .zarray} after the attributes landed: they are removed again),
     * and the copy fails (exit 1). When the mark came second, a refused mark had left an unmarked array of fill values.
     */
    @Test
    void aCopyWhoseDocumentsAreRefusedLeavesNothingAtTheDestination() {
        for (String doc : List.of(".zattrs", ".zarray")) {
            String dst = s3.url("marks/out" + doc + ".zarr");
            String refusedKey = "marks/out" + doc + ".zarr/" + doc;
            refused.keys = key -> key.equals(refusedKey);
            CliRun run;
            try {
                run = cubed("copy", source, dst);
            } finally {
                refused.keys = key -> false;
            }
            assertThat(run.code()).as(run.err()).isEqualTo(1);
            assertThat(run.err()).contains(dst).contains("'" + doc + "'").contains("403");
            assertThat(Stores.open(dst, s3.options()).list("")).as(doc).isEmpty();
            CliRun again = cubed("copy", source, dst);
            assertThat(again.code()).as(again.err()).isZero();
        }
    }

    /** The test server's blob store, refusing (403 AccessDenied) the PUTs of the keys a test names. */
    private static final class RefusedPuts extends ForwardingBlobStore {
        volatile Predicate<String> keys = key -> false;

        RefusedPuts(BlobStore delegate) {
            super(delegate);
        }

        @Override
        public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
            if (keys.test(request.key())) {
                throw S3Exceptions.fromStatusCode(403);
            }
            return super.putBlob(request, body);
        }
    }
}
