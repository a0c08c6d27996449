package io.cubed.jobs;

import io.cubed.runtime.Callback;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Resuming a job in a new process: the resume id a job derives from its arguments, and the count of tasks run and
 * skipped that a job reports.
 *
 * <p>A job's plan is code, so what identifies a run across processes is the job's name and the arguments that shape
 * its plan: the same arguments build the same plan, whose arrays are named by their place in it. The derived id is
 * {@code <job>-<first 16 hex digits of SHA-256 of the arguments>}, with local paths made absolute so that a relative
 * and an absolute spelling of the same output resume each other.
 */
final class Resume {
    private Resume() {}

    /** The resume id of {@code job} run with {@code planArguments} (the arguments its plan depends on). */
    static String deriveId(String job, List<String> planArguments) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        sha.update(job.getBytes(StandardCharsets.UTF_8));
        for (String a : planArguments) {
            sha.update((byte) 0);
            sha.update(a.getBytes(StandardCharsets.UTF_8));
        }
        return job + "-" + HexFormat.of().formatHex(sha.digest()).substring(0, 16);
    }

    /**
     * {@code url} in one spelling: a local path (no scheme, or {@code file:}) as the {@code file:} URL of its absolute,
     * normalised path ({@link io.cubed.storage.fs.Locations#fileUrl}: the characters as they are, not percent-encoded);
     * any other URL as {@link io.cubed.storage.fs.StoreLocation#canonicalUrl} spells it (scheme in lower case,
     * repeated and trailing slashes removed, {@code .} and {@code ..} applied, as Hadoop's {@code Path} reads it).
     */
    static String canonicalUrl(String url) {
        if (io.cubed.storage.fs.Locations.isLocal(url)) {
            // Absolute and normalised, but with links as written (StoreLocation resolves them).
            return io.cubed.storage.fs.Locations.fileUrl(io.cubed.storage.fs.Locations.localPath(url));
        }
        // s3a://bucket//x/ and s3a://bucket/x are one place (as Hadoop's Path and Cubed's S3 client read them).
        return io.cubed.storage.fs.StoreLocation.of(url).canonicalUrl();
    }

    /**
     * Counts the tasks of a computation: those that wrote chunks, and those that wrote nothing because every chunk
     * of theirs was already there (resuming; a task that runs always writes each of its output chunks).
     */
    static final class TaskTally implements Callback {
        private final AtomicLong run = new AtomicLong();
        private final AtomicLong skipped = new AtomicLong();

        @Override
        public void onTaskEnd(TaskEnd event) {
            if (event.result().bytesWritten() == 0) {
                skipped.incrementAndGet();
            } else {
                run.incrementAndGet();
            }
        }

        long run() {
            return run.get();
        }

        long skipped() {
            return skipped.get();
        }

        /** For example {@code "tasks: 12 run, 88 skipped (already written)"}. */
        String summary() {
            return "tasks: " + run() + " run, " + skipped() + " skipped (already written)";
        }
    }
}
