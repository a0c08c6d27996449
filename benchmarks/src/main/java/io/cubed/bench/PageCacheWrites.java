package io.cubed.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * How fast a node's page cache takes chunk-sized files, by the state of the memory the pages come from: files written
 * in place over files of the same size (the kernel reuses their pages), new files in a fresh directory, new files
 * right after as many bytes of files were deleted, and the same after a pause. A rechunk through an intermediate on
 * local disk writes the whole array as new files and deletes them minutes later, so these rates bound it where the
 * codecs do not. Files are written as {@code LocalStore} writes them (256 kB slices from a heap array, one file per
 * chunk), on {@code --threads} threads; the directory is emptied at the end. On Linux it prints the kernel's dirty-page
 * thresholds (4 kB pages assumed): a pass larger than the lower one ({@code nr_dirty_background_threshold}) is written
 * back to disk while it is being written.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.cubed.bench.PageCacheWrites --dir /tmp/pcw \
 *     [--files 256] [--size-mb 8] [--threads 2] [--pause-s 3] [--rounds 2]
 * </pre>
 */
public final class PageCacheWrites {
    private static final int SLICE = 256 * 1024;

    private PageCacheWrites() {}

    public static void main(String[] args) throws Exception {
        Path dir = Paths.get("/tmp/cubed-page-cache-writes");
        int files = 256;
        int sizeMb = 8;
        int threads = 2;
        int pauseS = 3;
        int rounds = 2;
        for (int i = 0; i < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--dir" -> dir = Paths.get(v);
                case "--files" -> files = Integer.parseInt(v);
                case "--size-mb" -> sizeMb = Integer.parseInt(v);
                case "--threads" -> threads = Integer.parseInt(v);
                case "--pause-s" -> pauseS = Integer.parseInt(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(dir);
        // Linux: past the background threshold the kernel starts writing dirty pages to disk, and writers are slowed
        // down towards the disk's rate as dirty pages approach the higher one.
        Path vmstat = Paths.get("/proc/vmstat");
        if (Files.isReadable(vmstat)) {
            for (String line : Files.readAllLines(vmstat)) {
                if (line.startsWith("nr_dirty_background_threshold ") || line.startsWith("nr_dirty_threshold ")) {
                    String[] kv = line.split(" ");
                    System.out.printf(Locale.ROOT, "%s: %.2f GB%n", kv[0], Long.parseLong(kv[1]) * 4096 / 1e9);
                }
            }
        }
        byte[] data = new byte[sizeMb << 20];
        new Random(1).nextBytes(data);
        System.out.printf(
                Locale.ROOT,
                "%d files of %d MB on %d threads in %s (%.1f GB per pass), %d rounds%n",
                files,
                sizeMb,
                threads,
                dir,
                (double) files * data.length / 1e9,
                rounds);
        for (int r = 0; r < rounds; r++) {
            deleteAll(dir);
            report("new files, empty directory", write(dir, "a", files, data, threads));
            report("in place over those files", write(dir, "a", files, data, threads));
            deleteAll(dir);
            report("new files, right after deleting", write(dir, "b", files, data, threads));
            deleteAll(dir);
            Thread.sleep(pauseS * 1000L);
            report("new files, " + pauseS + " s after deleting", write(dir, "c", files, data, threads));
        }
        deleteAll(dir);
    }

    private static void report(String what, double[] secondsAndBytes) {
        System.out.printf(
                Locale.ROOT,
                "%-34s %6.3f s %7.0f MB/s%n",
                what,
                secondsAndBytes[0],
                secondsAndBytes[1] / secondsAndBytes[0] / 1e6);
    }

    /** Writes {@code files} files named {@code prefix + i}, in place when they exist; seconds and bytes. */
    private static double[] write(Path dir, String prefix, int files, byte[] data, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                fs.add(pool.submit(() -> {
                    for (int i = first; i < files; i += threads) {
                        try (FileChannel ch = FileChannel.open(
                                dir.resolve(prefix + i), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                            for (int n = 0; n < data.length; ) {
                                n += ch.write(ByteBuffer.wrap(data, n, Math.min(SLICE, data.length - n)), n);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        return new double[] {(System.nanoTime() - start) / 1e9, (double) files * data.length};
    }

    private static void deleteAll(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.delete(p);
            }
        }
    }
}
