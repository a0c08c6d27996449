package io.cubed.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A task function for executor tests that keeps its state in files, so it works in any JVM that sees {@code dir}: each
 * attempt of task {@code i} creates {@code dir/i-ATTEMPT} holding its start and end times (epoch milliseconds). It
 * fails the first {@code failures} attempts of task {@code failing}, and, when {@code mustBeDoneDir} is set, fails
 * unless {@code mustBeDoneCount} distinct tasks have finished there. Returns {@code TaskIo(i, 2 i)}.
 */
public record FileRecordingTask(
        String dir, long failing, int failures, String mustBeDoneDir, long mustBeDoneCount, long sleepMillis)
        implements TaskFunction {
    private static final long serialVersionUID = 1L;

    /** A task that records runs in {@code dir} and never fails. */
    public static FileRecordingTask recording(Path dir) {
        return new FileRecordingTask(dir.toString(), -1, 0, null, 0, 0);
    }

    @Override
    public TaskIo run(long taskIndex) {
        long start = System.currentTimeMillis();
        if (mustBeDoneDir != null) {
            long finished = finishedTasks(Paths.get(mustBeDoneDir)).size();
            if (finished != mustBeDoneCount) {
                throw new IllegalStateException(
                        "ran before its dependency finished (" + finished + " of " + mustBeDoneCount + " tasks done)");
            }
        }
        int attempt = claimAttempt(taskIndex);
        if (sleepMillis > 0) {
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (taskIndex == failing && attempt <= failures) {
            throw new IllegalStateException("injected failure " + attempt);
        }
        Path file = Paths.get(dir, taskIndex + "-" + attempt);
        try {
            Files.writeString(file, start + " " + System.currentTimeMillis() + " ok", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TaskIo(taskIndex, 2 * taskIndex);
    }

    private int claimAttempt(long taskIndex) {
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createFile(Paths.get(dir, taskIndex + "-" + attempt));
                return attempt;
            } catch (FileAlreadyExistsException e) {
                // an earlier attempt: try the next number
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Attempts per task index found in {@code dir}. */
    public static Map<Long, Integer> attempts(Path dir) {
        Map<Long, Integer> m = new HashMap<>();
        for (String name : names(dir)) {
            long i = Long.parseLong(name.substring(0, name.indexOf('-')));
            m.merge(i, 1, Integer::sum);
        }
        return m;
    }

    /** Task indexes with a successful attempt in {@code dir}. */
    public static List<Long> finishedTasks(Path dir) {
        List<Long> done = new ArrayList<>();
        for (String name : names(dir)) {
            try {
                if (Files.readString(dir.resolve(name)).endsWith(" ok")) {
                    done.add(Long.parseLong(name.substring(0, name.indexOf('-'))));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return done;
    }

    /** {@code [start, end]} epoch milliseconds of the successful attempt of task {@code i}. */
    public static long[] interval(Path dir, long i) {
        for (String name : names(dir)) {
            if (name.startsWith(i + "-")) {
                try {
                    String s = Files.readString(dir.resolve(name));
                    if (s.endsWith(" ok")) {
                        String[] p = s.split(" ");
                        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("task " + i + " has no successful run in " + dir);
    }

    private static List<String> names(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
