package io.cubed;

import io.cubed.array.Chunking;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.RegroupedChunkStore;
import io.cubed.storage.VirtualArray;
import io.cubed.storage.zarr.DimensionNames;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.cf.CfDecodedArray;
import io.cubed.storage.zarr.cf.CfDecoding;
import io.cubed.storage.zarr.cf.CfOptions;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The entry point: arrays from Zarr and from Java data, and computing or storing several arrays in one computation.
 * Array API functions live in {@code io.cubed.array} ({@code Creation}, {@code Elementwise}, {@code Blockwise}, …).
 */
public final class Cubed {
    /**
     * Largest array {@link #asarray} takes with {@code spec}, in bytes: half of what a task may use ({@code allowedMem −
     * reservedMem}), since the data travels inside every task that reads it, where it is held beside the chunk taken
     * from it, and counts whole in those tasks' projected memory. Bigger data belongs in Zarr ({@link #fromArray} writes
     * it there).
     */
    public static long asarrayLimitBytes(Spec spec) {
        return spec.inTaskDataLimitBytes();
    }

    private Cubed() {}

    /**
     * The Zarr array at {@code url} (a path or URI), v2 or v3 (detected), in its stored chunks: the shards of a sharded
     * v3 array.
     */
    public static CubedArray fromZarr(String url, Spec spec) {
        return fromZarr(Zarr.open(url, spec.storeOptions()), spec);
    }

    /**
     * The Zarr array {@code stored} that the caller has opened ({@link Zarr#open}), in its stored chunks, as {@link
     * #fromZarr(String, Spec)}: for a caller that also reads its metadata or attributes, with one read of them (one
     * round trip on an object store, not two). Refused when it is marked incomplete, unless the spec's store options
     * allow reading such arrays.
     */
    public static CubedArray fromZarr(ChunkStore stored, Spec spec) {
        IncompleteMark.requireComplete(stored, spec.storeOptions());
        return CubedArray.of(ArrayNode.source(stored), spec);
    }

    /**
     * The Zarr array at {@code url} with its values CF-decoded as xarray decodes them ({@link CfDecoding}): fill
     * values and missing values as NaN in a float32 or float64 array, {@code scale_factor} and {@code add_offset}
     * applied, times ("hours since 1900-01-01") as int64 microseconds since 1970-01-01T00:00 with missing times
     * {@code Long.MIN_VALUE} (numpy's {@code NaT}). {@code CfOptions.none()} reads the values as stored, as {@link
     * #fromZarr(String, Spec)} does. The array keeps its stored chunks and dimension names.
     */
    public static CubedArray fromZarr(String url, Spec spec, CfOptions cf) {
        ChunkStore stored = Zarr.open(url, spec.storeOptions());
        IncompleteMark.requireComplete(stored, spec.storeOptions());
        ChunkStore decoded = CfDecodedArray.of(stored, CfDecoding.of(stored, cf));
        CubedArray a = CubedArray.of(ArrayNode.source(decoded), spec);
        List<String> dims = DimensionNames.read(stored);
        return dims == null || decoded == stored ? a : a.withDims(dims);
    }

    /**
     * The Zarr array at {@code url} read in other chunks, each a whole number of stored chunks per axis ({@code -1}:
     * the whole axis), or of inner chunks for a sharded Zarr v3 array; tasks assemble them from the stored chunks, or
     * from inner chunks read with ranged reads (never a whole shard when the chunks are smaller than the shards).
     */
    public static CubedArray fromZarr(String url, Spec spec, int... chunks) {
        ChunkStore stored = Zarr.open(url, spec.storeOptions());
        IncompleteMark.requireComplete(stored, spec.storeOptions());
        ChunkGrid wanted = Chunking.grid(stored.grid().shape(), chunks, url);
        ChunkStore view = RegroupedChunkStore.of(stored, wanted.chunkShape());
        return CubedArray.of(ArrayNode.source(view), spec);
    }

    /**
     * A small array from Java data (at most {@link #asarrayLimitBytes} bytes), carried inside the tasks that read it;
     * {@code data} is copied. Without {@code chunks} the whole array is one chunk. Larger data: {@link #fromArray} or
     * {@link #fromZarr}.
     */
    public static CubedArray asarray(Chunk data, Spec spec, int... chunks) {
        long limit = asarrayLimitBytes(spec);
        if (data.nbytes() > limit) {
            throw new InvalidArgumentException("asarray takes at most " + io.cubed.memory.MemorySize.format(limit)
                    + " (" + limit + " bytes: half of allowedMem " + spec.allowedMem() + " minus reservedMem "
                    + spec.reservedMem() + ", since every task reading it holds it whole), but the "
                    + data.dtype() + " data of shape " + Arrays.toString(data.shape()) + " has " + data.nbytes()
                    + " bytes; use Cubed.fromArray (writes it to the work directory) or Cubed.fromZarr");
        }
        int[] wanted = chunks;
        if (wanted.length == 0 && data.ndim() > 0) {
            wanted = data.shape().clone();
            for (int a = 0; a < wanted.length; a++) {
                wanted[a] = Math.max(1, wanted[a]);
            }
        }
        ChunkGrid grid = Chunking.grid(longs(data.shape()), wanted, "asarray");
        Chunk copy = Chunk.allocate(data.dtype(), data.shape());
        Chunk.copyRegion(data, new int[data.ndim()], copy, new int[data.ndim()], data.shape());
        return CubedArray.of(ArrayNode.source(VirtualArray.inMemory(copy, grid)), spec);
    }

    /** {@link #asarray(Chunk, Spec, int...)} with the default spec ({@link Spec#defaults()}). */
    public static CubedArray asarray(Chunk data) {
        return asarray(data, Spec.defaults());
    }

    /**
     * An array from Java data of any size: writes it now, chunk by chunk, to a Zarr array in the spec's work directory
     * and returns that array.
     */
    public static CubedArray fromArray(Chunk data, Spec spec, int... chunks) {
        ChunkGrid grid = Chunking.grid(longs(data.shape()), chunks, "fromArray");
        String w = spec.workDir();
        String url = (w.endsWith("/") ? w : w + "/") + "cubed-input-" + UUID.randomUUID() + ".zarr";
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(grid.shape(), grid.chunkShape(), data.dtype())
                        .build(),
                spec.storeOptions());
        for (long i = 0; i < grid.numChunks(); i++) {
            long[] coords = grid.chunkCoordsOf(i);
            long[] off = grid.chunkOffset(coords);
            int[] shape = grid.chunkShapeAt(coords);
            Chunk c = Chunk.allocate(data.dtype(), shape);
            int[] src = new int[off.length];
            for (int a = 0; a < off.length; a++) {
                src[a] = (int) off[a];
            }
            Chunk.copyRegion(data, src, c, new int[shape.length], shape);
            z.writeChunk(c, coords);
        }
        return CubedArray.of(ArrayNode.source(z), spec);
    }

    /**
     * Uniform random float64 numbers in {@code [0, 1)}: element {@code i} (flat C-order index) depends only on
     * {@code seed} and {@code i}, so the values are the same for any chunking, executor or retry (see
     * {@code io.cubed.storage.RandomArray}). A virtual array: generated inside the tasks that read it.
     */
    public static CubedArray random(long[] shape, int[] chunks, long seed, Spec spec) {
        return io.cubed.array.Creation.random(shape, chunks, seed, spec);
    }

    /** Random integers uniform in {@code [low, high)} of {@code dtype}, reproducible as {@link #random}. */
    public static CubedArray randomIntegers(
            long[] shape, int[] chunks, long low, long high, DType dtype, long seed, Spec spec) {
        return io.cubed.array.Creation.randomIntegers(shape, chunks, low, high, dtype, seed, spec);
    }

    /** Computes {@code arrays} in one computation and returns each in memory. */
    public static List<Chunk> compute(List<CubedArray> arrays, Callback... callbacks) {
        return io.cubed.array.Execution.compute(arrays, List.of(callbacks));
    }

    /** As {@link #compute(List, Callback...)}, with per-computation options (fusion). */
    public static List<Chunk> compute(
            List<CubedArray> arrays, io.cubed.array.ComputeOptions options, Callback... callbacks) {
        return io.cubed.array.Execution.compute(arrays, options, List.of(callbacks));
    }

    /** As {@link #store(List, List, Callback...)}, with per-computation options (fusion). */
    public static void store(
            List<CubedArray> arrays, List<String> urls, io.cubed.array.ComputeOptions options, Callback... callbacks) {
        io.cubed.array.Execution.store(arrays, urls, options, List.of(callbacks));
    }

    /** Computes {@code arrays} into new Zarr arrays at {@code urls} (one each) in one computation. */
    public static void store(List<CubedArray> arrays, List<String> urls, Callback... callbacks) {
        io.cubed.array.Execution.store(arrays, urls, List.of(callbacks));
    }

    private static long[] longs(int[] a) {
        long[] l = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            l[i] = a[i];
        }
        return l;
    }
}
