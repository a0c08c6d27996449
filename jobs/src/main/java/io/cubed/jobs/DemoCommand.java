package io.cubed.jobs;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cubed demo}: writes a generated float64 Zarr array on local disk, copies it with the default compressor,
 * checks the copy element by element, and reports sizes and throughput. The copy runs on {@code --executor}; generating
 * and checking run in this JVM.
 */
@Command(name = "demo", description = "Generate a Zarr array, re-compress it with the default codec, and verify it.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--dir", description = "Working directory (default: ${DEFAULT-VALUE}).")
    Path dir = Path.of("cubed-demo");

    @Option(names = "--size-mb", description = "Size of the generated array in MB (default: ${DEFAULT-VALUE}).")
    int sizeMb = 256;

    @Option(names = "--chunk-mb", description = "Size of one chunk in MB (default: ${DEFAULT-VALUE}).")
    int chunkMb = 8;

    @picocli.CommandLine.Mixin
    ExecutionOptions execution = new ExecutionOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Checks.positive("demo", "--size-mb", sizeMb);
        Checks.positive("demo", "--chunk-mb", chunkMb);
        claimDirectory(dir);
        try (Execution run = execution.start("demo", new CubedCli.StoreArgs())) {
            return demo(run);
        }
    }

    private int demo(Execution run) {
        PrintWriter out = spec.commandLine().getOut();
        int threads = run.config().threads();
        int cols = 1024;
        int chunkRows = Math.max(1, chunkMb * 1_000_000 / (8 * cols));
        long rows = Math.max(1, (long) sizeMb * 1_000_000 / (8L * cols));
        String input = dir.resolve("input.zarr").toString();
        String output = dir.resolve("output.zarr").toString();

        // Within the budget before anything is generated or written: a refused demo leaves no array behind.
        ChunkGrid grid = ChunkGrid.of(new long[] {rows, cols}, new int[] {chunkRows, cols});
        StoreOptions options = run.spec().storeOptions();
        try {
            CopyCommand.budget(
                    ZarrFormat.v2(new Compressor.Zlib(1), Scalar.zero()).describe(input, grid, DType.FLOAT64, options),
                    ZarrFormat.v2(Compressor.defaultCompressor(), Scalar.zero())
                            .describe(output, grid, DType.FLOAT64, options),
                    run);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException(
                    "demo: " + e.getMessage() + ", or lower --chunk-mb (" + chunkMb + ")", e);
        }
        long t0 = System.nanoTime();
        ZarrArray src = ZarrArray.create(
                input,
                ZarrCreateOptions.builder(new long[] {rows, cols}, new int[] {chunkRows, cols}, DType.FLOAT64)
                        .compressor(new Compressor.Zlib(1))
                        .overwrite(true)
                        .build());
        ParallelChunks.forEach(src.grid(), threads, "generating " + input, c -> src.writeChunk(generate(src, c), c));
        long t1 = System.nanoTime();
        ZarrArray dst = ZarrArray.create(
                output,
                ZarrCreateOptions.builder(new long[] {rows, cols}, new int[] {chunkRows, cols}, DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .overwrite(true)
                        .build());
        long copied = CopyCommand.copy(input, output, run.spec().storeOptions(), run);
        long t2 = System.nanoTime();
        AtomicLong mismatches = new AtomicLong();
        ParallelChunks.forEach(dst.grid(), threads, "verifying " + output, c -> {
            if (!dst.readChunk(c).contentEquals(generate(src, c))) {
                mismatches.incrementAndGet();
            }
        });
        long t3 = System.nanoTime();
        if (mismatches.get() > 0) {
            throw new CubedException(mismatches.get() + " chunks of " + output + " differ from the generated data");
        }
        double bytes = (double) rows * cols * 8;
        out.printf(
                Locale.ROOT,
                "array: %d x %d float64 (%s) in %d chunks of %d x %d (%s)%n",
                rows,
                cols,
                Sizes.format(bytes),
                src.grid().numChunks(),
                chunkRows,
                cols,
                Sizes.format(8.0 * chunkRows * cols));
        out.printf(Locale.ROOT, "generate + write zlib:1     %s: %s%n", input, Sizes.rate(bytes, t1 - t0));
        out.printf(
                Locale.ROOT,
                "copy to %-20s %s: %s (%d chunks, %s)%n",
                codecName(dst),
                output,
                Sizes.rate(bytes, t2 - t1),
                copied,
                run.name());
        out.printf(
                Locale.ROOT,
                "read + verify              %s: %s, all values equal%n",
                output,
                Sizes.rate(bytes, t3 - t2));
        return 0;
    }

    /** The file that marks a directory as the demo's own, whose input.zarr and output.zarr it may replace. */
    static final String MARKER = ".cubed-demo";

    /**
     * Makes {@code dir} the demo's working directory, or refuses it before anything is written: the demo replaces
     * {@code input.zarr} and {@code output.zarr} there, so the directory must be new, empty or a previous demo's (it
     * holds {@value #MARKER}), and must not be or lie inside a Zarr array or group.
     */
    static void claimDirectory(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        for (Path p = absolute; p != null; p = p.getParent()) {
            for (String meta : new String[] {".zarray", ".zgroup", "zarr.json"}) {
                if (Files.isRegularFile(p.resolve(meta))) {
                    throw new InvalidArgumentException("demo: --dir " + dir
                            + (p.equals(absolute) ? " is" : " lies inside")
                            + " the Zarr " + (meta.equals(".zarray") ? "array" : "node") + " " + p + " (it holds "
                            + meta + "); the demo would write its arrays into it: choose a directory outside any Zarr"
                            + " array or group");
                }
            }
        }
        try {
            if (Files.isDirectory(absolute)) {
                boolean ours = Files.exists(absolute.resolve(MARKER)) || earlierDemo(absolute);
                boolean empty;
                try (java.util.stream.Stream<Path> entries = Files.list(absolute)) {
                    empty = entries.findAny().isEmpty();
                }
                if (!ours && !empty) {
                    throw new InvalidArgumentException("demo: --dir " + dir + " is not empty and was not made by cubed"
                            + " demo (no " + MARKER + " file); the demo replaces input.zarr and output.zarr in its"
                            + " directory: choose a new or empty --dir");
                }
            } else if (Files.exists(absolute)) {
                throw new InvalidArgumentException("demo: --dir " + dir + " is a file, not a directory");
            }
            Files.createDirectories(absolute);
            Files.write(absolute.resolve(MARKER), "written by cubed demo\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new InvalidArgumentException("demo: cannot use --dir " + dir + ": " + e, e);
        }
    }

    /**
     * True when {@code dir} holds just the two arrays of a demo run before the marker existed: {@code input.zarr} and
     * {@code output.zarr}, float64 with 1024 columns.
     */
    private static boolean earlierDemo(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            if (!entries.map(p -> p.getFileName().toString())
                    .allMatch(n -> n.equals("input.zarr") || n.equals("output.zarr"))) {
                return false;
            }
        }
        for (String name : new String[] {"input.zarr", "output.zarr"}) {
            Path p = dir.resolve(name);
            if (!Files.isRegularFile(p.resolve(".zarray"))) {
                return false;
            }
            try {
                ZarrArray a = ZarrArray.open(p.toString());
                if (a.dtype() != DType.FLOAT64
                        || a.grid().ndim() != 2
                        || a.grid().shape()[1] != 1024) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    private static String codecName(ZarrArray a) {
        Compressor c = a.metadata().compressor();
        return c == null ? "none" : c.toJson().toString();
    }

    /** Deterministic data for a chunk: a smooth field plus small noise seeded by the chunk's position. */
    static Chunk generate(ZarrArray a, long[] coords) {
        ChunkGrid g = a.grid();
        int[] shape = g.chunkShapeAt(coords);
        long[] offset = g.chunkOffset(coords);
        Chunk c = Chunk.allocate(DType.FLOAT64, shape);
        double[] d = c.doubles();
        SplittableRandom noise = new SplittableRandom(31 * coords[0] + coords[1]);
        double[] columns = new double[shape[1]];
        for (int k = 0; k < shape[1]; k++) {
            columns[k] = 20 * Math.cos((offset[1] + k) / 300.0);
        }
        int i = 0;
        for (int r = 0; r < shape[0]; r++) {
            double y = Math.sin((offset[0] + r) / 500.0);
            for (int k = 0; k < shape[1]; k++) {
                d[i++] = y * columns[k] + 280 + noise.nextDouble() * 0.01;
            }
        }
        return c;
    }
}
