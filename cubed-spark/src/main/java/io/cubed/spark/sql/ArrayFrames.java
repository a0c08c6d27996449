package io.cubed.spark.sql;

import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.cf.CfDecodedArray;
import io.cubed.storage.zarr.cf.CfDecoding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Lazy arrays as Spark DataFrames, without writing them first: {@code toDataFrame(spark, Map.of("anomaly", a))} gives a
 * DataFrame with one column per dimension (named by the arrays' {@link CubedArray#dims()}, else {@code dim_0, ...};
 * values from {@code coordinates} when given, else the index) and one per array. Every stage before the arrays' last
 * operations runs now, on the spec's executor, into the work directory; the last operations run inside the
 * DataFrame's tasks, each computing the chunks it emits ({@code parallelize(chunks).mapPartitions}, no shuffle), so a
 * filter on a dimension computes only the chunks it keeps. The DataFrame is the {@code zarr} data source over computed
 * chunks: pruning, column pruning and partition options work as for stored arrays.
 *
 * <p>The intermediates of the stages run now stay in the work directory while the DataFrame may be read: they are
 * deleted when the Spark application ends, or by {@link #release}.
 */
public final class ArrayFrames {
    /** The option of the {@code zarr} data source naming a dataset registered here. */
    static final String DATASET_OPTION = "cubed.dataset";

    private static final Map<String, Registered> REGISTRY = new ConcurrentHashMap<>();

    private record Registered(ZarrDataset dataset, Computation computation) {}

    private ArrayFrames() {}

    /** {@code arrays} (column name to array, in order; all of one shape) as a DataFrame, dimension columns first. */
    public static Dataset<Row> toDataFrame(SparkSession spark, Map<String, CubedArray> arrays) {
        return toDataFrame(spark, arrays, Map.of());
    }

    /** One array as a DataFrame with the column {@code name}. */
    public static Dataset<Row> toDataFrame(SparkSession spark, String name, CubedArray array) {
        return toDataFrame(spark, Map.of(name, array), Map.of());
    }

    /**
     * {@code arrays} as a DataFrame whose dimension columns hold the values of {@code coordinates} (dimension name to a
     * 1-d array of its length, computed now on the driver: keep them small) instead of the index.
     */
    public static Dataset<Row> toDataFrame(
            SparkSession spark, Map<String, CubedArray> arrays, Map<String, CubedArray> coordinates) {
        if (arrays.isEmpty()) {
            throw new InvalidArgumentException("toDataFrame: no arrays; give at least one column name and array");
        }
        List<String> names = new ArrayList<>(arrays.keySet());
        List<CubedArray> in = new ArrayList<>(arrays.values());
        CubedArray first = in.get(0);
        List<String> dims = first.dims().orElse(null);
        for (int i = 0; i < in.size(); i++) {
            CubedArray a = in.get(i);
            if (!Arrays.equals(a.shape(), first.shape())) {
                throw new InvalidArgumentException("toDataFrame: column '" + names.get(i) + "' (" + a.name()
                        + ") has shape " + Arrays.toString(a.shape()) + " but column '" + names.get(0) + "' has "
                        + Arrays.toString(first.shape()) + "; the columns of one DataFrame need one shape");
            }
            if (dims == null) {
                dims = a.dims().orElse(null);
            } else if (a.dims().isPresent() && !a.dims().get().equals(dims)) {
                throw new InvalidArgumentException("toDataFrame: column '" + names.get(i) + "' names its dimensions "
                        + a.dims().get() + " but another column names them " + dims);
            }
            // One partition grid: every array in the first one's chunks (no-op when they already are).
            in.set(i, Manipulation.rechunk(a, first.chunkShape()));
        }
        if (dims == null) {
            dims = new ArrayList<>();
            for (int d = 0; d < first.ndim(); d++) {
                dims.add("dim_" + d);
            }
        }
        for (String n : names) {
            if (dims.contains(n)) {
                throw new InvalidArgumentException(
                        "toDataFrame: column '" + n + "' has the name of a dimension; columns need distinct names");
            }
        }
        for (String c : coordinates.keySet()) {
            if (!dims.contains(c)) {
                throw new InvalidArgumentException(
                        "toDataFrame: coordinates for '" + c + "', which is not a dimension of " + dims);
            }
        }
        Spec spec = first.spec();
        List<ArrayNode> nodes = new ArrayList<>();
        for (CubedArray a : in) {
            if (!a.spec().equals(spec)) {
                throw new InvalidArgumentException("toDataFrame: the arrays have different specs; build them with one");
            }
            nodes.add(a.node());
        }
        Computation c = Computation.prepare(spec, nodes, Map.of());
        c.deferTargets();
        boolean ok = false;
        String id = UUID.randomUUID().toString();
        try {
            c.run(List.of());
            List<ZarrDataset.Variable> variables = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                ChunkStore store = c.store(nodes.get(i));
                SqlTypes.of(
                        store.dtype(),
                        "column '" + names.get(i) + "' (" + in.get(i).name() + ")");
                // Computed arrays hold values, not CF encodings: nothing to decode.
                variables.add(
                        new ZarrDataset.Variable(names.get(i), store, CfDecoding.identity(store.url(), store.dtype())));
            }
            List<ZarrDataset.Dimension> dimensions = new ArrayList<>();
            long[] shape = first.shape();
            for (int d = 0; d < dims.size(); d++) {
                CubedArray coord = coordinates.get(dims.get(d));
                Chunk values = null;
                if (coord != null) {
                    if (coord.ndim() != 1 || coord.shape()[0] != shape[d]) {
                        throw new InvalidArgumentException("toDataFrame: the coordinates of '" + dims.get(d)
                                + "' have shape " + Arrays.toString(coord.shape()) + ", not [" + shape[d] + "]");
                    }
                    SqlTypes.of(coord.dtype(), "the coordinates of '" + dims.get(d) + "'");
                    values = coord.compute();
                }
                dimensions.add(new ZarrDataset.Dimension(
                        dims.get(d),
                        shape[d],
                        values,
                        values == null ? null : "coordinates " + dims.get(d),
                        values == null ? null : decodingOf(coord, "coordinates " + dims.get(d), values)));
            }
            ZarrDataset dataset = ZarrDataset.of(
                    "cubed:" + first.name(),
                    dimensions,
                    variables,
                    c.store(nodes.get(0)).grid(),
                    c.storedIntermediates(),
                    spec.storeOptions());
            REGISTRY.put(id, new Registered(dataset, c));
            ok = true;
        } finally {
            if (!ok) {
                c.cleanup(false);
            }
        }
        Cleanup.register(spark);
        return spark.read()
                .format(ZarrDataSource.SHORT_NAME)
                .option(DATASET_OPTION, id)
                .load();
    }

    /**
     * How the computed {@code values} of a coordinate array show in SQL: as the values of a stored array read CF-decoded
     * ({@code Cubed.fromZarr(url, spec, CfOptions)}: decoded times as {@code timestamp_ntz}, as the {@code zarr}
     * source shows them), else as they are.
     */
    private static CfDecoding decodingOf(CubedArray coord, String what, Chunk values) {
        if (coord.node().source() instanceof CfDecodedArray d && d.dtype() == values.dtype()) {
            return d.decoding();
        }
        return CfDecoding.identity(what, values.dtype());
    }

    /**
     * Deletes the intermediates behind a DataFrame of {@link #toDataFrame} (it cannot be read afterwards); a no-op for
     * other DataFrames.
     */
    public static void release(Dataset<Row> frame) {
        for (org.apache.spark.sql.catalyst.plans.logical.LogicalPlan leaf :
                scala.collection.JavaConverters.seqAsJavaList(
                        frame.queryExecution().analyzed().collectLeaves())) {
            if (leaf instanceof org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation r
                    && r.table() instanceof ZarrTable t
                    && t.registered() != null) {
                Registered reg = REGISTRY.remove(t.registered());
                if (reg != null) {
                    reg.computation().cleanup();
                }
            }
        }
    }

    /** The dataset registered under {@code id}, for the data source. */
    static ZarrDataset dataset(String id) {
        Registered r = REGISTRY.get(id);
        if (r == null) {
            throw new InvalidArgumentException("zarr data source: no computed arrays registered as " + id
                    + " in this driver (released, or from another application)");
        }
        return r.dataset();
    }

    /** Deletes every registered computation's intermediates when the application ends. */
    private static final class Cleanup extends SparkListener {
        private static final Map<Object, Boolean> REGISTERED =
                java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

        static void register(SparkSession spark) {
            if (REGISTERED.putIfAbsent(spark.sparkContext(), Boolean.TRUE) == null) {
                spark.sparkContext().addSparkListener(new Cleanup());
            }
        }

        @Override
        public void onApplicationEnd(SparkListenerApplicationEnd end) {
            for (String key : List.copyOf(REGISTRY.keySet())) {
                Registered r = REGISTRY.remove(key);
                if (r != null) {
                    try {
                        r.computation().cleanup();
                    } catch (RuntimeException e) {
                        // The work directory may be gone with the application's storage; nothing left to do.
                    }
                }
            }
        }
    }
}
