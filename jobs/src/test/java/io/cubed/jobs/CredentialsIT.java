package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No credential in what a run writes: a rechunk between {@code s3a://} arrays with the access and secret keys given as
 * {@code --conf} options, saving its plan and history, leaves the planted values in no file it wrote (plan, history,
 * work directory, the arrays on S3) and in none of its output or logs; {@code cubed resume FILE} takes the secret again
 * from {@code --conf} and refuses to authenticate without it.
 */
class CredentialsIT {
    private static final String ACCESS = "PLANTED-ACCESS-7c1e";
    private static final String SECRET = "PLANTED-SECRET-91f4a2";
    private static S3TestServer s3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("secrets", ACCESS, SECRET);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    private static List<String> conf(boolean withSecret) {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, String> e : s3.options().asMap().entrySet()) {
            if (!withSecret && StoreOptions.isSensitive(e.getKey())) {
                continue;
            }
            args.add("--conf");
            args.add(e.getKey() + "=" + e.getValue());
        }
        return args;
    }

    @Test
    void plantedCredentialsAppearInNoFileAndNoOutput() throws Exception {
        ZarrArray src = ZarrArray.create(
                s3.url("rows.zarr"),
                ZarrCreateOptions.builder(new long[] {8, 6}, new int[] {1, 6}, DType.FLOAT64)
                        .build(),
                s3.options());
        for (int i = 0; i < 8; i++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, 1, 6);
            java.util.Arrays.fill(c.doubles(), i);
            src.writeChunk(c, i, 0);
        }
        Path plan = tmp.resolve("plan.json");
        Path history = tmp.resolve("history");
        Path work = tmp.resolve("work");
        String jars = jarOf(org.apache.hadoop.fs.s3a.S3AFileSystem.class) + ","
                + jarOf(com.amazonaws.auth.AWSCredentials.class);
        List<String> args = new ArrayList<>(List.of(
                "--jars",
                jars,
                "rechunk",
                s3.url("rows.zarr"),
                s3.url("cols.zarr"),
                "--chunks",
                "-1,2",
                "--save-plan",
                plan.toString(),
                "--history",
                history.toString(),
                "--work-dir",
                work.toString(),
                "--keep-intermediates"));
        args.addAll(conf(true));
        // Cubed's own logs at debug: everything Cubed may log is captured.
        Map<String, String> env = Map.of("CUBED_JAVA_OPTS", "-Xmx1g -Dorg.slf4j.simpleLogger.log.io.cubed=debug");
        BinCubed.Result run = BinCubed.run(tmp, env, args.toArray(new String[0]));
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(ZarrArray.open(s3.url("cols.zarr"), s3.options())
                        .readChunk(0, 1)
                        .doubles())
                .containsExactly(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);

        // The plan records that the keys were given, without their values.
        String saved = Files.readString(plan, StandardCharsets.UTF_8);
        assertThat(saved)
                .contains("fs.s3a.secret.key=" + StoreOptions.REDACTED)
                .contains("fs.s3a.access.key=" + StoreOptions.REDACTED)
                .contains("fs.s3a.endpoint=http://127.0.0.1:" + s3.port());

        // Resumed without the secret: the plan cannot supply it; S3 refuses the request.
        List<String> resume = new ArrayList<>(List.of("--jars", jars, "resume", plan.toString()));
        BinCubed.Result without = BinCubed.run(tmp, env, resume.toArray(new String[0]));
        assertThat(without.code()).as(without.output()).isNotZero();
        assertThat(without.output()).contains("fs.s3a.secret.key was not saved in " + plan);
        // With it given again, the resumed run finds everything written.
        resume.addAll(List.of("--conf", "fs.s3a.access.key=" + ACCESS, "--conf", "fs.s3a.secret.key=" + SECRET));
        BinCubed.Result with = BinCubed.run(tmp, env, resume.toArray(new String[0]));
        assertThat(with.code()).as(with.output()).isZero();
        assertThat(with.output()).containsPattern("tasks: 0 run, [1-9]\\d* skipped");

        List<String> leaks = new ArrayList<>();
        for (BinCubed.Result r : List.of(run, without, with)) {
            if (r.output().contains(SECRET) || r.output().contains(ACCESS)) {
                leaks.add("the output of a run");
            }
        }
        try (Stream<Path> files = Files.walk(tmp)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                if (text.contains(SECRET) || text.contains(ACCESS)) {
                    leaks.add(f.toString());
                }
            }
        }
        for (String array : List.of("rows.zarr", "cols.zarr")) {
            Store store = Stores.open(s3.url(array), s3.options());
            List<String> keys = store.list("");
            assertThat(keys).isNotEmpty();
            for (String key : keys) {
                String text = new String(store.get(key), StandardCharsets.ISO_8859_1);
                if (text.contains(SECRET) || text.contains(ACCESS)) {
                    leaks.add(s3.url(array) + "/" + key);
                }
            }
        }
        assertThat(leaks).as("files and outputs holding a planted credential").isEmpty();
        assertThat(Files.exists(history.resolve("tasks.csv"))).isTrue();
    }

    private static String jarOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
