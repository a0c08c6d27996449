package io.cubed.storage.zarr.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * LZ4 block compressors at an <em>acceleration</em>, for numcodecs' LZ4 and for Blosc's LZ4 streams. LZ4's
 * acceleration (1 = its default) trades a little compression for speed by probing fewer positions for matches; every
 * LZ4 decoder reads the result alike. c-blosc compresses its LZ4 streams at acceleration {@code 10 − clevel} (5 at
 * the usual clevel 5), and numcodecs' LZ4 codec records its acceleration in the metadata: honouring both makes our
 * writes as fast as theirs and the same format. On this project's data (shuffled float64 streams) acceleration 5
 * compresses 1.3–2.4 × faster than 1 at a compression ratio within 0.2 % (docs/benchmarks.md).
 *
 * <p>Acceleration needs lz4-java's native library and an lz4-java with {@code fastResetCompressor} (1.10 or later).
 * Spark 3.5 puts its own lz4-java 1.8 first on the classpath under {@code spark-submit} (its jars come before the
 * application's), which would leave every Blosc-LZ4 write of a Spark job at LZ4's default acceleration, a third
 * slower to encode than in-process. So when the lz4-java that the class path gives lacks it, the newer lz4-java that
 * this project ships (inside {@code cubed-jobs-spark.jar}, or as its own jar) is loaded a second time, on its own,
 * by a class loader that looks at its classes and native library first ({@link #isolated}), and only its accelerated
 * compressor is used, through {@link Accelerated}; everything else, decompression included, stays with the lz4-java
 * the class path gives. Where no newer lz4-java can be found or the native library cannot load (the pure-Java LZ4 has
 * no acceleration), {@link #compressor} returns the default compressor, which writes valid, slightly smaller and
 * slower LZ4 blocks.
 */
public final class Lz4Blocks {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    private static final Accelerated ACCELERATED = Accelerated.find();

    private Lz4Blocks() {}

    /** Whether {@link #compressor} honours an acceleration above 1 in this JVM. */
    public static boolean accelerationAvailable() {
        return ACCELERATED != null;
    }

    /**
     * Where the accelerated compressor comes from: {@code "classpath"} (the lz4-java the class path gives), {@code
     * "isolated <location>"} (a newer lz4-java loaded on its own, see the class comment), or {@code "none"}.
     */
    public static String accelerationSource() {
        return ACCELERATED == null ? "none" : ACCELERATED.source;
    }

    /**
     * A compressor at {@code acceleration} (values below 1 mean 1), for one thread; {@link #release} it after use (an
     * accelerated compressor holds native state).
     */
    public static LZ4Compressor compressor(int acceleration) {
        if (acceleration > 1 && ACCELERATED != null) {
            return ACCELERATED.create(acceleration);
        }
        return FACTORY.fastCompressor();
    }

    /** Frees the native state of a compressor from {@link #compressor}; a no-op for the default one. */
    public static void release(LZ4Compressor compressor) {
        if (compressor instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot release an LZ4 compressor", e);
            }
        }
    }

    /** The native, accelerated compressors of one lz4-java 1.10 or later, reached through method handles. */
    private static final class Accelerated {
        private final String source;
        private final MethodHandle create; // (int acceleration) -> compressor
        private final boolean sameClasses; // the compressor is an LZ4Compressor of the class path's lz4-java
        private final MethodHandle compressArrays; // (compressor, src, srcOff, srcLen, dest, destOff, maxDestLen)
        private final MethodHandle close; // (compressor)

        private Accelerated(String source, Class<?> factoryClass) throws ReflectiveOperationException {
            this.source = source;
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Object nativeFactory = factoryClass.getMethod("nativeInstance").invoke(null);
            if (nativeFactory != factoryClass.getMethod("fastestInstance").invoke(null)) {
                throw new UnsupportedOperationException("lz4-java's native library did not load");
            }
            Method fastReset = factoryClass.getMethod("fastResetCompressor", int.class);
            this.create = lookup.unreflect(fastReset).bindTo(nativeFactory);
            // The public base class: the compressor's own class need not be public.
            Class<?> compressorClass =
                    Class.forName(LZ4Compressor.class.getName(), false, factoryClass.getClassLoader());
            this.sameClasses = compressorClass == LZ4Compressor.class;
            this.compressArrays = lookup.unreflect(compressorClass.getMethod(
                    "compress", byte[].class, int.class, int.class, byte[].class, int.class, int.class));
            this.close = lookup.unreflect(AutoCloseable.class.getMethod("close"));
            // One compression, checked against the format: a compressor that cannot run is no compressor.
            LZ4Compressor probe = create(5);
            try {
                byte[] raw = new byte[4096];
                byte[] out = new byte[probe.maxCompressedLength(raw.length)];
                int n = probe.compress(raw, 0, raw.length, out, 0, out.length);
                byte[] back = FACTORY.fastDecompressor().decompress(out, 0, raw.length);
                if (n <= 0 || n >= raw.length || !java.util.Arrays.equals(back, raw)) {
                    throw new IllegalStateException("an accelerated LZ4 compression did not round-trip");
                }
            } finally {
                release(probe);
            }
        }

        /** The class path's lz4-java if it is recent enough, else this project's own copy on its own, else null. */
        static Accelerated find() {
            try {
                return new Accelerated("classpath", LZ4Factory.class);
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                // An lz4-java before 1.10 first on the class path, or no native library for this platform.
            }
            try {
                ClassLoader isolated = isolated();
                return isolated == null
                        ? null
                        : new Accelerated(
                                "isolated " + isolated, Class.forName(LZ4Factory.class.getName(), true, isolated));
            } catch (ReflectiveOperationException | java.io.IOException | LinkageError | RuntimeException e) {
                return null;
            }
        }

        LZ4Compressor create(int acceleration) {
            Object compressor;
            try {
                compressor = create.invoke(acceleration);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("cannot create an LZ4 compressor", t);
            }
            return sameClasses ? (LZ4Compressor) compressor : new Foreign(this, compressor);
        }
    }

    /**
     * An accelerated compressor of the isolated lz4-java, as the class path's {@link LZ4Compressor}: only array
     * compression is used by this project's codecs.
     */
    private static final class Foreign extends LZ4Compressor implements AutoCloseable {
        private final Accelerated lz4;
        private final Object compressor;

        Foreign(Accelerated lz4, Object compressor) {
            this.lz4 = lz4;
            this.compressor = compressor;
        }

        @Override
        public int compress(byte[] src, int srcOff, int srcLen, byte[] dest, int destOff, int maxDestLen) {
            try {
                return (int) lz4.compressArrays.invoke(compressor, src, srcOff, srcLen, dest, destOff, maxDestLen);
            } catch (RuntimeException | Error e) {
                if (e.getClass().getName().equals("net.jpountz.lz4.LZ4Exception")) {
                    // The isolated lz4-java's own exception class: the same failure as the class path's.
                    throw new net.jpountz.lz4.LZ4Exception(e.getMessage());
                }
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("LZ4 compression failed", t);
            }
        }

        @Override
        public int compress(
                java.nio.ByteBuffer src,
                int srcOff,
                int srcLen,
                java.nio.ByteBuffer dest,
                int destOff,
                int maxDestLen) {
            if (src.hasArray() && dest.hasArray()) {
                return compress(
                        src.array(),
                        src.arrayOffset() + srcOff,
                        srcLen,
                        dest.array(),
                        dest.arrayOffset() + destOff,
                        maxDestLen);
            }
            throw new UnsupportedOperationException("direct buffers: use the class path's LZ4 compressor");
        }

        @Override
        public void close() {
            try {
                lz4.close.invoke(compressor);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("cannot release an LZ4 compressor", t);
            }
        }
    }

    /**
     * A class loader for a second, newer lz4-java: the first location of {@code net/jpountz/lz4/LZ4Factory.class} on
     * this class's loader that is not where the loaded {@link LZ4Factory} came from and whose copy has {@code
     * fastResetCompressor}; it loads {@code net.jpountz} classes and resources (the native library) from there before
     * asking its parent. Null when there is none.
     */
    private static ClassLoader isolated() throws java.io.IOException {
        String resource = "net/jpountz/lz4/LZ4Factory.class";
        ClassLoader mine = Lz4Blocks.class.getClassLoader();
        URL loaded = mine.getResource(resource);
        for (URL u : java.util.Collections.list(mine.getResources(resource))) {
            if (u.equals(loaded)) {
                continue;
            }
            URL root = rootOf(u, resource);
            if (root == null) {
                continue;
            }
            ClassLoader candidate = new NetJpountzFirst(root, mine);
            try {
                Class.forName(LZ4Factory.class.getName(), false, candidate).getMethod("fastResetCompressor", int.class);
                return candidate;
            } catch (ReflectiveOperationException | LinkageError e) {
                // An lz4-java as old as the loaded one: look further.
            }
        }
        return null;
    }

    /** The class path entry (directory or jar) that holds {@code resource} at {@code u}. */
    private static URL rootOf(URL u, String resource) throws java.net.MalformedURLException {
        String s = u.toString();
        if (!s.endsWith(resource)) {
            return null;
        }
        String base = s.substring(0, s.length() - resource.length());
        if (base.startsWith("jar:") && base.endsWith("!/")) {
            return new URL(base.substring(4, base.length() - 2));
        }
        return base.startsWith("file:") ? new URL(base) : null;
    }

    /** Loads {@code net.jpountz} classes and resources from its own location first. */
    private static final class NetJpountzFirst extends URLClassLoader {
        private final URL root;

        NetJpountzFirst(URL root, ClassLoader parent) {
            super(new URL[] {root}, parent);
            this.root = root;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("net.jpountz.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            if (name.startsWith("net/jpountz/")) {
                URL own = findResource(name);
                if (own != null) {
                    return own;
                }
            }
            return super.getResource(name);
        }

        @Override
        public String toString() {
            return root.toString();
        }
    }
}
