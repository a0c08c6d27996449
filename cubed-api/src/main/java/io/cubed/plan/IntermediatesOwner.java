package io.cubed.plan;

import io.cubed.storage.Store;
import io.cubed.storage.zarr.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The owner of a computation's intermediates directory ({@code workDir/cubed-<computeId>/}): the JSON document {@value
 * #KEY} in it says which process writes there (host, pid, the process's start), whether the directory is kept for a
 * resumed run or by {@code keepIntermediates}, and when the owner last said it was alive. A running computation
 * rewrites it every {@link #HEARTBEAT} (its lease); {@link WorkDirCleaner} deletes directories whose owner is gone.
 *
 * <pre>
 * {"format": "cubed-owner/1", "computeId": "…", "host": "node-3", "pidNamespace": "pid:[4026531836]", "pid": 4242,
 *  "processStartMillis": …, "startedMillis": …, "heartbeatMillis": …, "leaseMillis": 600000,
 *  "resumable": false, "keepIntermediates": false, "state": "running"}
 * </pre>
 */
public final class IntermediatesOwner {
    /** The key of the owner document inside the intermediates directory. */
    public static final String KEY = "owner.json";

    static final String FORMAT = "cubed-owner/1";

    /** How often a running computation rewrites its owner document. */
    public static final Duration HEARTBEAT = Duration.ofMinutes(1);

    /**
     * How long after its last heartbeat a computation seen from another machine counts as gone: ten heartbeats, so that
     * a slow store or a long garbage collection never makes a live computation look dead.
     */
    public static final Duration LEASE = Duration.ofMinutes(10);

    /** What a running computation is: {@code running}; one that ended and left its directory: {@code ended}. */
    static final String RUNNING = "running";

    static final String ENDED = "ended";

    private static final ScheduledExecutorService BEATS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cubed-owner-heartbeat");
        t.setDaemon(true);
        return t;
    });

    private final Store work;
    private final String dir;
    private final Marker first;
    private final Object lock = new Object();
    private boolean ended;
    private ScheduledFuture<?> beat;

    private IntermediatesOwner(Store work, String dir, Marker first) {
        this.work = work;
        this.dir = dir;
        this.first = first;
    }

    /**
     * Writes the owner document of this process into {@code dir} of {@code work} (before any intermediate is written)
     * and rewrites it every {@code heartbeat} until {@link #end}.
     */
    static IntermediatesOwner start(
            Store work, String dir, String computeId, boolean resumable, boolean keep, Duration heartbeat) {
        long now = System.currentTimeMillis();
        Machine m = Machine.THIS;
        Marker marker = new Marker(
                computeId,
                m.host(),
                m.pidNamespace(),
                m.pid(),
                m.processStartMillis(),
                now,
                now,
                LEASE.toMillis(),
                resumable,
                keep,
                RUNNING);
        IntermediatesOwner owner = new IntermediatesOwner(work, dir, marker);
        owner.write(marker);
        long period = heartbeat.toMillis();
        owner.beat = BEATS.scheduleWithFixedDelay(owner::heartbeat, period, period, TimeUnit.MILLISECONDS);
        return owner;
    }

    private void heartbeat() {
        synchronized (lock) {
            if (ended) {
                return;
            }
            try {
                write(first.at(System.currentTimeMillis(), RUNNING));
            } catch (RuntimeException e) {
                // The next heartbeat tries again; ten are missed before the lease runs out.
                org.slf4j.LoggerFactory.getLogger(IntermediatesOwner.class)
                        .debug("cannot refresh the owner of {}: {}", dir, e.toString());
            }
        }
    }

    /**
     * Stops the heartbeat; when the directory stays ({@code leaving}: kept intermediates, a failed resumable run),
     * records that its computation has ended, so that it no longer counts as live.
     */
    void end(boolean leaving) {
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true;
            beat.cancel(false);
            if (leaving) {
                write(first.at(System.currentTimeMillis(), ENDED));
            }
        }
    }

    private void write(Marker m) {
        work.put(dir + "/" + KEY, m.toJson().getBytes(StandardCharsets.UTF_8));
    }

    /** The owner document: see {@link IntermediatesOwner}. Times are milliseconds since the epoch. */
    public record Marker(
            String computeId,
            String host,
            String pidNamespace,
            long pid,
            long processStartMillis,
            long startedMillis,
            long heartbeatMillis,
            long leaseMillis,
            boolean resumable,
            boolean keepIntermediates,
            String state) {

        /** This marker with another heartbeat time and state. */
        public Marker at(long heartbeat, String newState) {
            return new Marker(
                    computeId,
                    host,
                    pidNamespace,
                    pid,
                    processStartMillis,
                    startedMillis,
                    heartbeat,
                    leaseMillis,
                    resumable,
                    keepIntermediates,
                    newState);
        }

        /** True when the computation ended and left the directory (kept, or failed and resumable). */
        public boolean hasEnded() {
            return ENDED.equals(state);
        }

        /** The document as JSON. */
        public String toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("format", FORMAT);
            json.put("computeId", computeId);
            json.put("host", host);
            json.put("pidNamespace", pidNamespace);
            json.put("pid", pid);
            json.put("processStartMillis", processStartMillis);
            json.put("startedMillis", startedMillis);
            json.put("heartbeatMillis", heartbeatMillis);
            json.put("leaseMillis", leaseMillis);
            json.put("resumable", resumable);
            json.put("keepIntermediates", keepIntermediates);
            json.put("state", state);
            return Json.write(json);
        }

        /** The marker in {@code bytes}, or empty when they are not an owner document (malformed, another format). */
        public static Optional<Marker> parse(byte[] bytes) {
            Object parsed;
            try {
                parsed = Json.parse(bytes);
            } catch (RuntimeException e) {
                return Optional.empty();
            }
            if (!(parsed instanceof Map<?, ?> m) || !FORMAT.equals(m.get("format"))) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Marker(
                        (String) m.get("computeId"),
                        (String) m.get("host"),
                        (String) m.get("pidNamespace"),
                        number(m, "pid"),
                        number(m, "processStartMillis"),
                        number(m, "startedMillis"),
                        number(m, "heartbeatMillis"),
                        number(m, "leaseMillis"),
                        Boolean.TRUE.equals(m.get("resumable")),
                        Boolean.TRUE.equals(m.get("keepIntermediates")),
                        (String) m.get("state")));
            } catch (ClassCastException | NullPointerException e) {
                return Optional.empty();
            }
        }

        private static long number(Map<?, ?> m, String key) {
            return ((Number) m.get(key)).longValue();
        }
    }

    /**
     * This machine and process as owner documents name them: the host name, the pid namespace (Linux; containers on one
     * host with one name have different ones, and their pids cannot be compared), the pid and the process's start.
     */
    record Machine(String host, String pidNamespace, long pid, long processStartMillis) {
        static final Machine THIS = current();

        private static Machine current() {
            ProcessHandle self = ProcessHandle.current();
            return new Machine(
                    readHostName(),
                    readPidNamespace(),
                    self.pid(),
                    self.info()
                            .startInstant()
                            .map(java.time.Instant::toEpochMilli)
                            .orElse(-1L));
        }

        private static String readHostName() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException | RuntimeException e) {
                String env = System.getenv("HOSTNAME");
                return env != null && !env.isBlank() ? env : "unknown";
            }
        }

        private static String readPidNamespace() {
            try {
                return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return null;
            }
        }

        /** True when processes of {@code m} can be looked up from here: same host name and pid namespace. */
        boolean sees(Marker m) {
            return host.equals(m.host()) && java.util.Objects.equals(pidNamespace, m.pidNamespace());
        }

        /**
         * Whether the owner of {@code m}, a process this machine {@link #sees}, is still running: a process with its pid
         * that started when it did (a pid reused by a later process does not count).
         */
        static boolean running(Marker m) {
            Optional<ProcessHandle> p = ProcessHandle.of(m.pid());
            if (p.isEmpty() || !p.get().isAlive()) {
                return false;
            }
            if (m.processStartMillis() < 0) {
                return true;
            }
            return p.get()
                    .info()
                    .startInstant()
                    .map(s -> Math.abs(s.toEpochMilli() - m.processStartMillis()) < 1000)
                    .orElse(true);
        }
    }
}
