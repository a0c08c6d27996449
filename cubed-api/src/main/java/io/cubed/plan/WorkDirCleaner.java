package io.cubed.plan;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds and deletes the intermediates directories ({@code cubed-<computeId>/}) of a work directory that no computation
 * owns any more: their owner ({@link IntermediatesOwner}) is a process of this machine that is gone, or has not renewed
 * its lease for {@link IntermediatesOwner#LEASE}, or has ended. Directories kept for a resumed run or by {@code
 * keepIntermediates} stay unless asked for; so do those of live computations, and anything this class did not write.
 */
public final class WorkDirCleaner {
    /**
     * How old a directory without an owner document (written before Cubed recorded owners, or by a process killed
     * between creating the directory and writing the document) must be, by the time in its generated id, to count as
     * abandoned.
     */
    public static final Duration UNMARKED_AGE = Duration.ofHours(24);

    private static final Pattern GENERATED = Pattern.compile("cubed-(\\d{8}T\\d{6})-[0-9a-f]{8}");
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");

    private WorkDirCleaner() {}

    /** What to clean: see the builder's methods. */
    public static final class Options {
        private final Duration olderThan;
        private final boolean includeResumable;
        private final boolean includeKept;
        private final boolean dryRun;
        private final int limit;

        private Options(Builder b) {
            this.olderThan = b.olderThan;
            this.includeResumable = b.includeResumable;
            this.includeKept = b.includeKept;
            this.dryRun = b.dryRun;
            this.limit = b.limit;
        }

        public static Builder builder() {
            return new Builder();
        }

        /** Builds {@link Options}; by default any directory whose owner is gone, resumable and kept ones excepted. */
        public static final class Builder {
            private Duration olderThan = Duration.ZERO;
            private boolean includeResumable;
            private boolean includeKept;
            private boolean dryRun;
            private int limit = Integer.MAX_VALUE;

            /** Deletes only directories whose owner's last sign of life (heartbeat, or start) is older than this. */
            public Builder olderThan(Duration age) {
                if (age.isNegative()) {
                    throw new InvalidArgumentException("--older-than must not be negative, got " + age);
                }
                this.olderThan = age;
                return this;
            }

            /** Also deletes directories kept for a resumed run ({@code --resume}) whose owner is gone. */
            public Builder includeResumable(boolean include) {
                this.includeResumable = include;
                return this;
            }

            /** Also deletes directories kept by {@code keepIntermediates} whose owner is gone. */
            public Builder includeKept(boolean include) {
                this.includeKept = include;
                return this;
            }

            /** Reports what would be deleted, and its size, without deleting anything. */
            public Builder dryRun(boolean dry) {
                this.dryRun = dry;
                return this;
            }

            /** Looks at no more than {@code directories} intermediates directories (in name order: oldest ids first). */
            public Builder limit(int directories) {
                this.limit = directories;
                return this;
            }

            public Options build() {
                return new Options(this);
            }
        }
    }

    /**
     * One intermediates directory and what was decided: deleted ({@code removed}; with a dry run, would be), with the
     * {@code bytes} it held, or kept (bytes {@code -1}: not measured), and why.
     */
    public record Entry(String url, boolean removed, long bytes, String reason) {}

    /** Examines each intermediates directory of {@code workDir} and deletes those {@code options} say to. */
    public static List<Entry> clean(String workDir, StoreOptions storeOptions, Options options) {
        String base = workDir.endsWith("/") ? workDir : workDir + "/";
        List<Entry> out = new ArrayList<>();
        try (Store work = Stores.open(workDir, storeOptions)) {
            int seen = 0;
            for (String name : work.listChildren("")) {
                if (!name.startsWith("cubed-") || seen++ >= options.limit) {
                    continue;
                }
                byte[] doc = work.get(name + "/" + IntermediatesOwner.KEY);
                String why = orphaned(name, doc, options, System.currentTimeMillis());
                if (why.startsWith("kept: ")) {
                    out.add(new Entry(base + name, false, -1, why.substring("kept: ".length())));
                    continue;
                }
                if (!options.dryRun && !Arrays.equals(doc, work.get(name + "/" + IntermediatesOwner.KEY))) {
                    out.add(new Entry(base + name, false, -1, "its owner document changed while cleaning"));
                    continue;
                }
                long bytes = work.sizeBelow(name);
                if (!options.dryRun) {
                    delete(work, name);
                }
                out.add(new Entry(base + name, true, bytes, why));
            }
        }
        return out;
    }

    /**
     * Deletes the directory {@code name} of {@code work}, its owner document last: a deletion cut short leaves a
     * directory that still names its (gone) owner.
     */
    private static void delete(Store work, String name) {
        for (String child : work.listChildren(name)) {
            if (!child.equals(IntermediatesOwner.KEY)) {
                work.deletePrefix(name + "/" + child);
            }
        }
        work.deletePrefix(name);
    }

    /**
     * Why the directory {@code name} with owner document {@code doc} (null: none) is abandoned, or, starting with
     * {@code "kept: "}, why it is not, at {@code now} (milliseconds since the epoch).
     */
    static String orphaned(String name, byte[] doc, Options options, long now) {
        Optional<IntermediatesOwner.Marker> parsed =
                doc == null ? Optional.empty() : IntermediatesOwner.Marker.parse(doc);
        if (parsed.isEmpty()) {
            return unmarked(name, doc != null, options, now);
        }
        IntermediatesOwner.Marker m = parsed.get();
        String owner = "process " + m.pid() + " on " + m.host();
        long silent = now - m.heartbeatMillis();
        String gone;
        if (m.hasEnded()) {
            gone = "its computation (" + owner + ") ended " + age(silent) + " ago";
        } else if (IntermediatesOwner.Machine.THIS.sees(m)) {
            if (IntermediatesOwner.Machine.running(m)) {
                return "kept: live (" + owner + ", this machine)";
            }
            gone = "its owner, " + owner + ", is no longer running (last heartbeat " + age(silent) + " ago)";
        } else if (silent < m.leaseMillis()) {
            return "kept: live (" + owner + ", last heartbeat " + age(silent) + " ago, within its lease of "
                    + age(m.leaseMillis()) + ")";
        } else {
            gone = "its owner, " + owner + ", has sent no heartbeat for " + age(silent) + " (lease "
                    + age(m.leaseMillis()) + ")";
        }
        if (m.resumable() && !options.includeResumable) {
            return "kept: resumable (resume id " + m.computeId() + "; " + gone + "): resume it, or pass"
                    + " --include-resumable to delete it";
        }
        if (m.keepIntermediates() && !options.includeKept) {
            return "kept: intermediates kept by keepIntermediates (" + gone + "); pass --include-kept to delete them";
        }
        if (silent < options.olderThan.toMillis()) {
            return "kept: " + gone + ", less than --older-than " + age(options.olderThan.toMillis()) + " ago";
        }
        return gone;
    }

    /** The verdict on a directory without a (readable) owner document: only old generated ids are abandoned. */
    private static String unmarked(String name, boolean unreadable, Options options, long now) {
        String what = unreadable ? "an unreadable owner document" : "no owner document";
        Matcher g = GENERATED.matcher(name);
        if (!g.matches()) {
            return "kept: " + what + ", and its name is not a generated computation id (a resume id?)";
        }
        long started;
        try {
            started = LocalDateTime.parse(g.group(1), ID_TIME)
                    .atZone(ZoneId.systemDefault())
                    .toInstant()
                    .toEpochMilli();
        } catch (DateTimeParseException e) {
            return "kept: " + what + ", and no start time in its name";
        }
        long since = now - started;
        long needed = Math.max(UNMARKED_AGE.toMillis(), options.olderThan.toMillis());
        if (since < needed) {
            return "kept: " + what + ", started " + age(since) + " ago, less than " + age(needed) + " ago";
        }
        return what + ", started " + age(since) + " ago (a computation of before Cubed recorded owners, or killed as"
                + " it started)";
    }

    /** A duration for people: {@code 45 s}, {@code 12 min}, {@code 3.5 h}, {@code 2.0 days}. */
    static String age(long millis) {
        long s = Math.max(0, millis) / 1000;
        if (s < 120) {
            return s + " s";
        }
        if (s < 2 * 3600) {
            return s / 60 + " min";
        }
        if (s < 48 * 3600) {
            return String.format(java.util.Locale.ROOT, "%.1f h", s / 3600.0);
        }
        return String.format(java.util.Locale.ROOT, "%.1f days", s / 86400.0);
    }
}
