package io.cubed.chunk;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hands the large arrays a task holds for the whole task (the output chunks of a rechunk region: {@link
 * Chunk#allocateForTaskToOverwrite}) and the codec buffers it uses chunk after chunk (stored, decompressed and encoded bytes) to
 * the next task of the same operation, instead of leaving them to the garbage collector.
 *
 * <p>Why: arrays that live for a whole task survive young collections, are promoted, and stay in the old generation
 * as garbage until a concurrent cycle finds them: the heap grew past the tasks' working set, and the resident memory
 * of the process showed the collector's slack rather than the bound the plan promises (W3, a rechunk, grew to the
 * whole 2.3 GB heap). Codec buffers are chunk-sized and needed once per chunk: handed back ({@link #giveBack}) as
 * soon as a chunk is decoded or written, one buffer serves every chunk of a task; so are the output chunk of a fused
 * elementwise chain computed in tiles (one per chunk a task writes: W1's 8 MiB sums) and the block and box buffers of
 * chunks read block by block. What is not recycled: arrays that die young, such as decoded input chunks, kernel
 * outputs and broadcast temporaries. The collector frees those for
 * nothing, and keeping one alive across tasks makes it copy the array from generation to generation (measured: W5,
 * whose fused tasks compute five chunk-sized temporaries per chunk, took 15-20 % longer and grew 70 % larger with every
 * chunk allocation recycled).
 *
 * <p>How: a task runs inside a {@link #open scope} on its thread. Every array taken from this class while the scope is
 * open is recorded with a weak reference; when the scope closes (the task is over, so none of its arrays is in use
 * any more: tasks keep nothing past their end, and stores copy what they keep), the arrays still in memory become the
 * free list of the scope's pool, up to the scope's byte budget, and the next scope of the same operation, on whichever
 * thread it opens, takes that pool and from it by exact type and length. A pool belongs to no thread: a scope takes an
 * idle pool of its own operation if there is one, else the idle pool used least recently (whose list it drops), else
 * a new one, and gives it back when it closes. There are therefore never more pools than scopes were ever open at
 * once, which is the number of tasks the executor runs at a time, whatever number of threads they run on: Spark's
 * executors run tasks on a cached pool of more threads than task slots (four threads for {@code local[2]}), and a
 * list per thread would have kept one operation's budget per thread, beyond what the plan counts, and missed whenever
 * a Spark task landed on another thread than the last one of its operation. The weak references let a task's
 * short-lived arrays be collected during the task as before. A scope of another operation starts with an empty list,
 * and a task whose arrays differ from the last one's drops kept arrays as it allocates new ones, so a pool holds at
 * most one operation's budget: the operation's projected task memory without the reserve, which the plan already
 * counts per concurrent task. Idle pools are dropped when the in-process executor's computation ends ({@link
 * #releaseIdle}) and after {@value #IDLE_SECONDS} s without use (a Spark executor between computations).
 *
 * <p>Outside a scope (planning, the driver, readers of Spark SQL) every call allocates a new array, so arrays that
 * escape, such as a result handed to the caller, are never recycled. Arrays from {@link #zeroed} are zeros; the
 * others are for callers that overwrite every element, and hold whatever the last task left in them.
 */
public final class ArrayRecycler {
    /** The pool of the scope open on this thread, if any. */
    private static final ThreadLocal<Pool> CURRENT = new ThreadLocal<>();

    /** Pools of no open scope, the most recently closed first. Guarded by itself. */
    private static final ArrayDeque<Pool> IDLE = new ArrayDeque<>();

    /** Seconds after which an idle pool's arrays are dropped. */
    static final long IDLE_SECONDS = 30;

    /** Drops the pools idle for {@value #IDLE_SECONDS} s; started with the first pool. */
    private static volatile java.util.concurrent.ScheduledExecutorService trimmer;

    /**
     * With {@code -Dcubed.recycler.poison=true} (the tests set it), a recycled array handed out for overwriting is
     * first filled with garbage (NaN, 0x5A bytes, true), so that code which reads what it was meant to overwrite, or
     * keeps an array past its task, shows wrong values instead of passing by luck.
     */
    private static final boolean POISON = Boolean.getBoolean("cubed.recycler.poison");

    private static final LongAdder REUSED = new LongAdder();

    /** Arrays shorter than this many bytes are not kept ({@code -Dcubed.recycler.minBytes}; default 64 kB). */
    static final long MIN_BYTES = Long.getLong("cubed.recycler.minBytes", 64 << 10);

    private ArrayRecycler() {}

    /** An open scope; closing it recycles what was taken in it. Not shared between threads. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    private static final Scope NOTHING = () -> {};

    /**
     * Opens a scope on the current thread for a task of operation {@code owner}, whose arrays are kept for the next
     * task of the same operation up to {@code budgetBytes} (0: nothing is kept, every array is new). A scope opened
     * inside another does nothing: the outer one recycles.
     */
    public static Scope open(String owner, long budgetBytes) {
        Objects.requireNonNull(owner, "owner");
        if (CURRENT.get() != null) {
            return NOTHING;
        }
        Pool pool = takeIdle(owner);
        pool.begin(owner, Math.max(0, budgetBytes));
        CURRENT.set(pool);
        return () -> close(pool);
    }

    /** An idle pool of {@code owner}, else the least recently used idle pool, else a new one. */
    private static Pool takeIdle(String owner) {
        synchronized (IDLE) {
            for (java.util.Iterator<Pool> it = IDLE.iterator(); it.hasNext(); ) {
                Pool p = it.next();
                if (owner.equals(p.owner)) {
                    it.remove();
                    return p;
                }
            }
            Pool p = IDLE.pollLast();
            if (p != null) {
                return p;
            }
        }
        startTrimmer();
        return new Pool();
    }

    private static void close(Pool pool) {
        pool.end();
        CURRENT.remove();
        pool.idleSince = System.nanoTime();
        synchronized (IDLE) {
            IDLE.addFirst(pool);
        }
    }

    private static void startTrimmer() {
        if (trimmer != null) {
            return;
        }
        synchronized (IDLE) {
            if (trimmer == null) {
                var t = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread thread = new Thread(r, "cubed-recycler-trim");
                    thread.setDaemon(true);
                    return thread;
                });
                t.scheduleWithFixedDelay(
                        () -> dropIdle(java.util.concurrent.TimeUnit.SECONDS.toNanos(IDLE_SECONDS)),
                        IDLE_SECONDS,
                        IDLE_SECONDS,
                        java.util.concurrent.TimeUnit.SECONDS);
                trimmer = t;
            }
        }
    }

    /** Drops the idle pools unused for at least {@code nanos}, with the arrays they keep. */
    private static void dropIdle(long nanos) {
        long now = System.nanoTime();
        synchronized (IDLE) {
            IDLE.removeIf(p -> now - p.idleSince >= nanos);
        }
    }

    /**
     * Hands {@code array} back before the task ends, for the task's own next request of the same type and length: for
     * buffers whose use ends within one call (a chunk's stored, decompressed or encoded bytes), of which a task may
     * need one per chunk it reads or writes. The caller must not touch the array again. Arrays this task did not take
     * from the recycler (or {@code null}) are ignored, so a store's own array is never recycled.
     */
    public static void giveBack(Object array) {
        if (array != null) {
            Pool pool = CURRENT.get();
            if (pool != null) {
                pool.giveBack(array);
            }
        }
    }

    /**
     * Drops every idle pool with the arrays it keeps: at the end of an in-process computation (its tasks are over),
     * and before a task that is measured alone (it must allocate what it uses, not take what an earlier task left).
     * Pools of open scopes are not touched.
     */
    public static void releaseIdle() {
        dropIdle(0);
    }

    /** Bytes of arrays handed out again in this JVM since it started (for tests and diagnostics). */
    public static long reusedBytes() {
        return REUSED.sum();
    }

    /**
     * Bytes kept for the next tasks: by the idle pools, and by the current thread's open scope for its own next
     * requests (for tests and diagnostics).
     */
    public static long keptBytes() {
        long kept = 0;
        Pool current = CURRENT.get();
        if (current != null) {
            kept += current.freeBytes;
        }
        synchronized (IDLE) {
            for (Pool p : IDLE) {
                kept += p.freeBytes;
            }
        }
        return kept;
    }

    /** A {@code byte[n]} to be overwritten entirely. */
    public static byte[] bytes(int n) {
        return (byte[]) take(byte[].class, n);
    }

    /**
     * A {@code byte[]} of {@code min} to {@code max} bytes, whose first {@code min} bytes are to be overwritten (the
     * rest holds garbage): a kept one of a length in that range, or else a new one of {@code max} bytes, so that the
     * values of varying lengths a task reads one after another (compressed chunks) can share one array.
     */
    public static byte[] bytesWithin(int min, int max) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("no byte array length between " + min + " and " + max);
        }
        Pool pool = CURRENT.get();
        if (pool == null) {
            return new byte[min];
        }
        pool.lastWasReused = false;
        byte[] kept = pool.takeWithin(min, max);
        return kept != null ? kept : (byte[]) pool.take(byte[].class, max);
    }

    /** A primitive array of {@code type} (such as {@code double[].class}) and length {@code n}, to be overwritten. */
    static Object array(Class<?> type, int n) {
        return take(type, n);
    }

    /** A primitive array of {@code type} and length {@code n}, all elements zero (false). */
    public static Object zeroed(Class<?> type, int n) {
        Pool pool = CURRENT.get();
        Object a = take(type, n);
        if (pool != null && pool.lastWasReused) {
            clear(a);
        }
        return a;
    }

    private static Object take(Class<?> type, int n) {
        if (n < 0) {
            throw new NegativeArraySizeException(Integer.toString(n));
        }
        Pool pool = CURRENT.get();
        if (pool == null) {
            return java.lang.reflect.Array.newInstance(type.getComponentType(), n);
        }
        pool.lastWasReused = false;
        return pool.take(type, n);
    }

    private static void poison(Object a) {
        if (a instanceof double[]) {
            Arrays.fill((double[]) a, Double.NaN);
        } else if (a instanceof float[]) {
            Arrays.fill((float[]) a, Float.NaN);
        } else if (a instanceof long[]) {
            Arrays.fill((long[]) a, 0x5A5A5A5A5A5A5A5AL);
        } else if (a instanceof int[]) {
            Arrays.fill((int[]) a, 0x5A5A5A5A);
        } else if (a instanceof short[]) {
            Arrays.fill((short[]) a, (short) 0x5A5A);
        } else if (a instanceof byte[]) {
            Arrays.fill((byte[]) a, (byte) 0x5A);
        } else if (a instanceof boolean[]) {
            Arrays.fill((boolean[]) a, true);
        } else if (a instanceof char[]) {
            Arrays.fill((char[]) a, (char) 0x5A5A);
        }
    }

    private static void clear(Object a) {
        if (a instanceof double[]) {
            Arrays.fill((double[]) a, 0.0);
        } else if (a instanceof float[]) {
            Arrays.fill((float[]) a, 0.0f);
        } else if (a instanceof long[]) {
            Arrays.fill((long[]) a, 0L);
        } else if (a instanceof int[]) {
            Arrays.fill((int[]) a, 0);
        } else if (a instanceof short[]) {
            Arrays.fill((short[]) a, (short) 0);
        } else if (a instanceof byte[]) {
            Arrays.fill((byte[]) a, (byte) 0);
        } else if (a instanceof boolean[]) {
            Arrays.fill((boolean[]) a, false);
        } else if (a instanceof char[]) {
            Arrays.fill((char[]) a, '\0');
        } else {
            throw new IllegalArgumentException("not a primitive array: " + a.getClass());
        }
    }

    /** Bytes of a primitive array's elements. */
    static long sizeOf(Object a) {
        return (long) java.lang.reflect.Array.getLength(a) * elementBytes(a.getClass());
    }

    /** Bytes per element of a primitive array type. */
    static int elementBytes(Class<?> arrayType) {
        Class<?> c = arrayType.getComponentType();
        return c == double.class || c == long.class
                ? 8
                : c == float.class || c == int.class ? 4 : c == short.class || c == char.class ? 2 : 1;
    }

    /**
     * A primitive array type and length: the key of the free list. equals and hashCode written out: the record's
     * generated ones spin about 30 method-handle classes at their first call, in every task's first allocation.
     */
    private record Key(Class<?> type, int length) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.type == type && k.length == length;
        }

        @Override
        public int hashCode() {
            return type.hashCode() * 31 + length;
        }
    }

    /**
     * The arrays kept from the last task that used this pool, and the state of the task using it now, if any; used by
     * one scope (so one thread) at a time, handed between threads through {@link #IDLE}.
     */
    private static final class Pool {
        private final Map<Key, ArrayDeque<Object>> free = new HashMap<>();
        private final List<WeakReference<Object>> taken = new ArrayList<>();
        private long freeBytes;
        private long freshBytes;
        private String owner;
        private long budget;
        private boolean lastWasReused;
        private long idleSince;

        void begin(String newOwner, long newBudget) {
            if (!newOwner.equals(owner) || newBudget == 0) {
                free.clear();
                freeBytes = 0;
            }
            owner = newOwner;
            budget = newBudget;
            freshBytes = 0;
        }

        Object take(Class<?> type, int n) {
            Object a = null;
            if (n > 0 && (long) n * elementBytes(type) >= MIN_BYTES) {
                ArrayDeque<Object> q = free.get(new Key(type, n));
                a = q == null ? null : q.poll();
            }
            if (a != null) {
                long size = sizeOf(a);
                freeBytes -= size;
                REUSED.add(size);
                lastWasReused = true;
                if (POISON) {
                    poison(a);
                }
            } else {
                a = java.lang.reflect.Array.newInstance(type.getComponentType(), n);
                if (sizeOf(a) >= MIN_BYTES) {
                    freshBytes += sizeOf(a);
                    evictBeyondBudget();
                }
            }
            if (budget > 0 && n > 0 && sizeOf(a) >= MIN_BYTES) {
                taken.add(new WeakReference<>(a));
            }
            return a;
        }

        /** A kept {@code byte[]} of {@code min} to {@code max} bytes (the shortest), or null. */
        byte[] takeWithin(int min, int max) {
            if ((long) max < MIN_BYTES) {
                return null;
            }
            Key best = null;
            for (Map.Entry<Key, ArrayDeque<Object>> e : free.entrySet()) {
                Key k = e.getKey();
                if (k.type() == byte[].class
                        && k.length() >= min
                        && k.length() <= max
                        && !e.getValue().isEmpty()
                        && (best == null || k.length() < best.length())) {
                    best = k;
                }
            }
            return best == null ? null : (byte[]) take(byte[].class, best.length());
        }

        void giveBack(Object a) {
            boolean ours = false;
            for (WeakReference<Object> r : taken) {
                if (r.get() == a) {
                    ours = true;
                    break;
                }
            }
            if (!ours) {
                return;
            }
            Key key = new Key(a.getClass(), java.lang.reflect.Array.getLength(a));
            ArrayDeque<Object> q = free.computeIfAbsent(key, k -> new ArrayDeque<>());
            for (Object o : q) {
                if (o == a) {
                    return; // handed back twice: once is enough
                }
            }
            long size = sizeOf(a);
            if (freeBytes + size <= budget) {
                q.add(a);
                freeBytes += size;
            }
        }

        /**
         * A miss means this task's arrays differ from the last one's (another shape at an edge, another stage): the
         * kept arrays it has not taken are dropped as far as needed for kept plus newly allocated to stay within the
         * budget, so that the thread never holds a stale list on top of what the task allocates.
         */
        private void evictBeyondBudget() {
            var it = free.values().iterator();
            while (freeBytes > 0 && freeBytes + freshBytes > budget && it.hasNext()) {
                ArrayDeque<Object> q = it.next();
                while (!q.isEmpty() && freeBytes + freshBytes > budget) {
                    freeBytes -= sizeOf(q.poll());
                }
                if (q.isEmpty()) {
                    it.remove();
                }
            }
        }

        void end() {
            // What the task did not take back from the last list is not what this operation's tasks use: dropped.
            free.clear();
            freeBytes = 0;
            // An array handed back and taken again is recorded twice: kept once.
            java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (WeakReference<Object> r : taken) {
                Object a = r.get();
                if (a == null || !seen.add(a)) {
                    continue;
                }
                long size = sizeOf(a);
                if (freeBytes + size > budget) {
                    continue;
                }
                free.computeIfAbsent(
                                new Key(a.getClass(), java.lang.reflect.Array.getLength(a)), k -> new ArrayDeque<>())
                        .add(a);
                freeBytes += size;
            }
            taken.clear();
        }
    }
}
