package io.cubed.plan;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemoryBudget;
import io.cubed.memory.MemorySize;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.UUID;

/**
 * Where and how arrays are computed: the work directory for intermediate arrays (any store URI), the memory a task
 * may use ({@code allowedMem}, of which {@code reservedMem} is the runtime's own), the executor, the options of the
 * stores opened, and whether intermediates are kept. All arrays of one computation share one spec.
 */
public final class Spec {
    /** Cubed's defaults for a laptop: 2 GB per task of which 100 MB reserved. */
    public static final MemorySize DEFAULT_ALLOWED_MEM = MemorySize.parse("2GB");

    public static final MemorySize DEFAULT_RESERVED_MEM = MemorySize.parse("100MB");

    private static volatile Spec defaults;

    private final String workDir;
    private final MemoryBudget budget;
    private final Executor executor;
    private final StoreOptions storeOptions;
    private final boolean keepIntermediates;
    private final boolean optimize;
    private final String intermediateCodec;

    private Spec(Builder b) {
        this.workDir = b.workDir;
        this.budget = new MemoryBudget(b.allowedMem, b.reservedMem);
        this.executor = b.executor;
        this.storeOptions = b.storeOptions;
        this.keepIntermediates = b.keepIntermediates;
        this.optimize = b.optimize;
        this.intermediateCodec = b.intermediateCodec;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The most bytes of data a plan may carry inside its tasks (an {@code asarray}, a list of indices): half of what a
     * task may use ({@code allowedMem − reservedMem}), since every task reading it holds it whole beside its chunk. The
     * plan counts it whole in the projected memory of the operations that carry it ({@link Plan#carriedBytes}).
     */
    public long inTaskDataLimitBytes() {
        return Math.max(0, allowedMem().bytes() - reservedMem().bytes()) / 2;
    }

    /**
     * The default spec: work directory {@code <java.io.tmpdir>/cubed-<user.name>}, 2 GB / 100 MB, local executor.
     * Shared.
     */
    public static Spec defaults() {
        Spec s = defaults;
        if (s == null) {
            synchronized (Spec.class) {
                s = defaults;
                if (s == null) {
                    s = builder().build();
                    defaults = s;
                }
            }
        }
        return s;
    }

    public String workDir() {
        return workDir;
    }

    public MemoryBudget budget() {
        return budget;
    }

    public MemorySize allowedMem() {
        return budget.allowed();
    }

    public MemorySize reservedMem() {
        return budget.reserved();
    }

    public Executor executor() {
        return executor;
    }

    public StoreOptions storeOptions() {
        return storeOptions;
    }

    public boolean keepIntermediates() {
        return keepIntermediates;
    }

    /**
     * How intermediate arrays are compressed: {@code auto} (the default: no compressor when the work directory is on
     * a local file system, where compressing costs more CPU than the bytes it saves; Blosc-LZ4 with byte shuffle, the
     * default compressor, on any other file system, where bytes cost more), or a compressor spec such as {@code none},
     * {@code lz4} or {@code blosc:zstd:3:shuffle} ({@link io.cubed.storage.zarr.Compressor#parseSpec}).
     */
    public String intermediateCodec() {
        return intermediateCodec;
    }

    /** True when computations fuse blockwise operations (the default; see {@link FusionOptions}). */
    public boolean optimize() {
        return optimize;
    }

    /** A builder with this spec's settings. */
    public Builder toBuilder() {
        return new Builder()
                .workDir(workDir)
                .allowedMem(budget.allowed())
                .reservedMem(budget.reserved())
                .executor(executor)
                .storeOptions(storeOptions)
                .keepIntermediates(keepIntermediates)
                .optimize(optimize)
                .intermediateCodec(intermediateCodec);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Spec)) {
            return false;
        }
        Spec s = (Spec) o;
        return workDir.equals(s.workDir)
                && budget.equals(s.budget)
                && executor.equals(s.executor)
                && storeOptions.equals(s.storeOptions)
                && keepIntermediates == s.keepIntermediates
                && optimize == s.optimize
                && intermediateCodec.equals(s.intermediateCodec);
    }

    @Override
    public int hashCode() {
        return Objects.hash(workDir, budget, executor, storeOptions, keepIntermediates, optimize, intermediateCodec);
    }

    @Override
    public String toString() {
        return "Spec{workDir=" + workDir + ", allowedMem=" + budget.allowed() + ", reservedMem=" + budget.reserved()
                + ", executor=" + executor.name() + "}";
    }

    /**
     * The default work directory: {@code <java.io.tmpdir>/cubed-<user.name>}, one per user, so that users of one
     * machine never share (or fight over the permissions of) each other's intermediate arrays. {@link Builder#build}
     * creates it readable by its owner only.
     */
    public static String defaultWorkDir() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of(System.getProperty("java.io.tmpdir"), "cubed-" + (user.isEmpty() ? "user" : user))
                .toString();
    }

    /** Builder of {@link Spec}; {@link #build} checks the memory sizes and that the work directory can be written. */
    public static final class Builder {
        private String workDir = defaultWorkDir();
        private MemorySize allowedMem = DEFAULT_ALLOWED_MEM;
        private MemorySize reservedMem = DEFAULT_RESERVED_MEM;
        private Executor executor = LocalExecutor.defaults();
        private StoreOptions storeOptions = StoreOptions.empty();
        private boolean keepIntermediates;
        /** Default on; the system property {@code cubed.optimize=false} turns it off (for tests and debugging). */
        private boolean optimize = !"false".equalsIgnoreCase(System.getProperty("cubed.optimize"));

        private String intermediateCodec = "auto";

        private Builder() {}

        /** Work directory for intermediate arrays: a path or URI ({@code s3a://bucket/tmp}, …). */
        public Builder workDir(String workDir) {
            this.workDir = Objects.requireNonNull(workDir, "workDir");
            return this;
        }

        public Builder allowedMem(MemorySize allowedMem) {
            this.allowedMem = Objects.requireNonNull(allowedMem, "allowedMem");
            return this;
        }

        /** Allowed memory per task as a string such as {@code "2GB"}. */
        public Builder allowedMem(String allowedMem) {
            return allowedMem(MemorySize.parse(allowedMem));
        }

        /** Allowed memory per task in bytes. */
        public Builder allowedMem(long bytes) {
            return allowedMem(MemorySize.ofBytes(bytes));
        }

        public Builder reservedMem(MemorySize reservedMem) {
            this.reservedMem = Objects.requireNonNull(reservedMem, "reservedMem");
            return this;
        }

        /** Reserved memory per task as a string such as {@code "100MB"}. */
        public Builder reservedMem(String reservedMem) {
            return reservedMem(MemorySize.parse(reservedMem));
        }

        /** Reserved memory per task in bytes. */
        public Builder reservedMem(long bytes) {
            return reservedMem(MemorySize.ofBytes(bytes));
        }

        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** Options for every store opened (e.g. Hadoop {@code fs.s3a.*} settings). */
        public Builder storeOptions(StoreOptions storeOptions) {
            this.storeOptions = Objects.requireNonNull(storeOptions, "storeOptions");
            return this;
        }

        /** Keep intermediate arrays after a computation (default: delete them). */
        public Builder keepIntermediates(boolean keep) {
            this.keepIntermediates = keep;
            return this;
        }

        /**
         * Fuse chains of blockwise operations so that intermediates a task can keep in memory are not written (default
         * true); false runs every operation as its own stage.
         */
        public Builder optimize(boolean optimize) {
            this.optimize = optimize;
            return this;
        }

        /**
         * How intermediate arrays are compressed: {@code auto} (default) or a compressor spec ({@link
         * Spec#intermediateCodec()}).
         *
         * @throws io.cubed.error.InvalidArgumentException naming the value when it is neither
         */
        public Builder intermediateCodec(String codec) {
            String c = Objects.requireNonNull(codec, "intermediateCodec").trim();
            if (!c.equalsIgnoreCase("auto")) {
                try {
                    io.cubed.storage.zarr.Compressor.parseSpec(c);
                } catch (io.cubed.error.InvalidArgumentException e) {
                    throw new io.cubed.error.InvalidArgumentException(
                            "intermediateCodec '" + codec + "': " + e.getMessage() + "; or auto", e);
                }
            }
            this.intermediateCodec = c.toLowerCase(java.util.Locale.ROOT);
            return this;
        }

        /** The spec; fails when the sizes are invalid or the work directory cannot be written. */
        public Spec build() {
            Spec spec = new Spec(this);
            checkWritable(spec);
            return spec;
        }

        private static void checkWritable(Spec spec) {
            String probe = ".cubed-probe-" + UUID.randomUUID();
            if (spec.workDir.equals(defaultWorkDir())) {
                createOwnerOnly(Path.of(spec.workDir));
            }
            try {
                Store store = Stores.open(spec.workDir, spec.storeOptions);
                store.put(probe, "probe".getBytes(StandardCharsets.UTF_8));
                store.delete(probe);
            } catch (CubedException e) {
                throw new InvalidArgumentException(
                        "workDir '" + spec.workDir + "' cannot be written: " + e.getMessage(), e);
            }
        }

        /**
         * Creates the default work directory with owner-only permissions (rwx------) where the file system has POSIX
         * permissions; an existing directory is left as it is.
         */
        private static void createOwnerOnly(Path dir) {
            if (java.nio.file.Files.isDirectory(dir)) {
                return;
            }
            try {
                if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    java.nio.file.Files.createDirectories(
                            dir,
                            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
                } else {
                    java.nio.file.Files.createDirectories(dir);
                }
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // Made by another thread or process meanwhile: checked for writing next.
            } catch (java.io.IOException e) {
                throw new InvalidArgumentException("workDir '" + dir + "' cannot be created: " + e, e);
            }
        }
    }
}
