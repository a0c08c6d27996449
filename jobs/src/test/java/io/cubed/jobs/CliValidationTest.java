package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric and enumerated option is checked before anything is read or written, and refused with exit code 2 and
 * a message in the command line's words: the flag, the value given and the values allowed, never a Java type, enum
 * constant or API method. {@code SRC} in the arguments stands for a small existing array, {@code OLD} for another one,
 * {@code NEW} for a path where nothing exists (and where nothing may appear).
 */
class CliValidationTest {
    @TempDir
    Path tmp;

    private String src;
    private String old;
    private String fresh;

    @BeforeEach
    void arrays() {
        src = write("src.zarr");
        old = write("old.zarr");
        fresh = tmp.resolve("new.zarr").toString();
    }

    private String write(String name) {
        String url = tmp.resolve(name).toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4, 6}, new int[] {2, 3}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < a.grid().numChunks(); i++) {
            long[] c = a.grid().chunkCoordsOf(i);
            a.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(i), a.grid().chunkShapeAt(c)), c);
        }
        return url;
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of("demo --dir NEW --size-mb -5", "demo: --size-mb must be a positive whole number, got -5"),
                Arguments.of("demo --dir NEW --size-mb 0", "demo: --size-mb must be a positive whole number, got 0"),
                Arguments.of("demo --dir NEW --chunk-mb 0", "demo: --chunk-mb must be a positive whole number, got 0"),
                Arguments.of(
                        "demo --dir NEW --size-mb abc", "Invalid value for option '--size-mb': 'abc' is not a whole"),
                Arguments.of("copy SRC NEW --threads 0", "'0' must be at least 1"),
                Arguments.of("copy SRC NEW --threads -3", "'-3' must be at least 1"),
                Arguments.of("copy SRC NEW --threads x", "'x' is not a whole number"),
                Arguments.of(
                        "copy SRC NEW --threads 99999999999", "'99999999999' is out of range (at most 2147483647)"),
                Arguments.of(
                        "rechunk SRC NEW --chunks 100000000000,10",
                        "'100000000000' is out of range (at most 2147483647)"),
                Arguments.of("copy SRC NEW --max-attempts 0", "setting maxAttempts from option --max-attempts"),
                Arguments.of("copy SRC NEW --optimize maybe", "'maybe' must be true or false"),
                Arguments.of("copy SRC NEW --executor yarn", "'yarn' must be local or spark"),
                Arguments.of(
                        "copy SRC NEW --codec blosc:lz4:5:9",
                        "--codec 'blosc:lz4:5:9': unknown Blosc shuffle '9'; expected noshuffle (0), shuffle (1),"
                                + " bitshuffle (2) or autoshuffle (-1)"),
                Arguments.of("copy SRC NEW --codec blosc:foo", "unknown Blosc compressor 'foo'; expected blosclz, lz4"),
                Arguments.of(
                        "copy SRC NEW --codec zlib:x", "--codec 'zlib:x': zlib level 'x' is not a whole number from 0"),
                Arguments.of(
                        "copy SRC NEW --codec zlib:99", "--codec 'zlib:99': zlib level must be from 0 to 9, got 99"),
                Arguments.of("copy SRC NEW --codec bz2:0", "bz2 level must be from 1 to 9, got 0"),
                Arguments.of("copy SRC NEW --codec zlib:1:2", "--codec 'zlib:1:2' has 2 parameters but zlib takes 1"),
                Arguments.of("copy SRC NEW --codec snappy", "unknown codec 'snappy'"),
                Arguments.of("copy SRC NEW --chunks 0,3", "copy: --chunks 0,3: the length for axis 0 is 0"),
                Arguments.of("copy SRC NEW --chunks -2,3", "the length for axis 0 is -2"),
                Arguments.of("copy SRC NEW --chunks 2", "copy: --chunks 2 gives 1 length but"),
                Arguments.of("copy SRC NEW --dtype float128", "unknown data type 'float128'; expected one of"),
                Arguments.of("copy SRC NEW --zarr-format 4", "copy: --zarr-format must be 2 or 3, got 4"),
                Arguments.of(
                        "copy SRC OLD",
                        "already holds a Zarr array; pass --overwrite to replace it, --resume to finish an interrupted"
                                + " copy, or choose another DST"),
                Arguments.of(
                        "copy SRC OLD --chunks 4,6",
                        "already holds a Zarr array; pass --overwrite to replace it, --resume"),
                Arguments.of("rechunk SRC NEW --chunks 0,1", "rechunk: --chunks 0,1: the length for axis 0 is 0"),
                Arguments.of("rechunk SRC NEW --chunks 2", "rechunk: --chunks 2 gives 1 length but"),
                Arguments.of(
                        "rechunk SRC OLD --chunks 4,6",
                        "already holds a Zarr array; remove it or choose another DST, or pass --resume to continue"),
                Arguments.of("rechunk SRC NEW --chunks 2,2 --allowed-mem -1GB", "'-1GB' is not a memory size"),
                Arguments.of(
                        "rechunk SRC NEW --chunks 2,2 --reserved-mem 3GB",
                        "raise allowedMem (--allowed-mem, CUBED_ALLOWED_MEM) or lower reservedMem (--reserved-mem"),
                Arguments.of("quadratic-means NEW --shape 0,10", "--shape"),
                Arguments.of("quadratic-means NEW --shape 100,10 --chunks 0,10", "--chunks"),
                Arguments.of("bench --scale -1 --dir NEW", "bench: --scale must be a number above 0, got -1.0"),
                Arguments.of("bench --scale 0 --dir NEW", "bench: --scale must be a number above 0, got 0.0"),
                Arguments.of("bench --threads 0 --smoke --dir NEW", "bench: --threads must be a positive whole number"),
                Arguments.of("bench --measure-memory -1 --smoke --dir NEW", "bench: --measure-memory must be 0 (off)"),
                Arguments.of("bench --store gcs --smoke --dir NEW", "bench: --store must be s3"),
                Arguments.of(
                        "bench --store s3 --measure-memory 0 --smoke --dir NEW",
                        "bench --store s3 measures memory: --measure-memory must be 1 or more tasks, got 0"),
                Arguments.of("bench --store s3 --rounds 2 --smoke --dir NEW", "with no timed run: drop --peer and"),
                Arguments.of(
                        "bench --store s3 --latency-ms 30,0 --smoke --dir NEW",
                        "bench --store s3 runs at one latency: give --latency-ms one value"),
                Arguments.of("bench --store s3 --object-store --smoke --dir NEW", "two different benchmarks"),
                Arguments.of("copy SRC NEW --no-such-flag", "Unknown option: '--no-such-flag'"),
                Arguments.of(
                        "sql Q --table era", "sql: --table 'era' must be NAME=PATH, e.g. --table era=/data/era5.zarr"),
                Arguments.of("sql Q --table era=", "sql: --table 'era=' must be NAME=PATH"),
                Arguments.of("sql Q --table 2m=x", "sql: --table 2m=x: the name '2m' is not a table name for SQL"),
                Arguments.of("sql Q --table era=x --table ERA=y", "the table 'era' is given twice"),
                Arguments.of("sql Q --table era=x --option variables", "sql: --option 'variables' must be"),
                Arguments.of("sql Q --table era=x --conf spark.x", "sql: --conf 'spark.x' must be KEY=VALUE"),
                Arguments.of("sql Q --table era=x --threads 0", "sql: --threads must be a positive whole number"),
                Arguments.of("sql Q --table era=x --limit 0", "sql: --limit must be a positive whole number, got 0"),
                Arguments.of(
                        "sql Q --table era=x --output out", ": give --format csv, parquet, json or zarr (the path's"),
                Arguments.of("sql Q --table era=x --output NEW --format xlsx", "sql: --format 'xlsx' must be csv,"),
                Arguments.of("sql Q --table era=x --format csv", "sql: --format csv needs --output PATH"),
                Arguments.of("sql Q --table era=x --output NEW --mode append", "sql: --mode 'append' must be error"),
                Arguments.of("sql --table era=x", "sql: no query; give one"),
                Arguments.of("sql Q --file NEW", "sql: give the query either on the command line or with --file"),
                Arguments.of("sql --file NEW --table era=x", ": no such file"));
    }

    @ParameterizedTest(name = "cubed {0}")
    @MethodSource("badInputs")
    void badInputIsRefusedInCommandLineWordsBeforeAnythingIsWritten(String line, String words) throws IOException {
        List<String> args = new ArrayList<>();
        for (String a : line.split(" ")) {
            args.add(a.equals("SRC") ? src : a.equals("OLD") ? old : a.equals("NEW") ? fresh : a);
        }
        List<Path> before;
        try (Stream<Path> files = Files.walk(tmp)) {
            before = files.sorted().toList();
        }
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        String first = r.err().lines().findFirst().orElse("");
        assertThat(first).startsWith("cubed: ").contains(words);
        assertThat(r.err().lines().count()).as(r.err()).isLessThanOrEqualTo(2);
        // No Java type or API word reaches the user.
        assertThat(r.err())
                .doesNotContain("Exception")
                .doesNotContain("No enum constant")
                .doesNotContain("io.cubed")
                .doesNotContain("ComputeOptions")
                .doesNotContain("set overwrite")
                .doesNotContain("For input string")
                .doesNotContain("is not an int");
        try (Stream<Path> files = Files.walk(tmp)) {
            assertThat(files.sorted().toList()).as("nothing written").isEqualTo(before);
        }
    }
}
