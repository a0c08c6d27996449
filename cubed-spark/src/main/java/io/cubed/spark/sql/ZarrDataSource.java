package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import io.cubed.spark.SparkStoreOptions;
import io.cubed.storage.StoreOptions;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The Spark SQL data source {@code zarr}: {@code spark.read.format("zarr").load(uri)} reads a Zarr array or group
 * (v2 or v3, sharded included, on any Hadoop file system) as a table with one column per dimension and one per data
 * variable. Filters on dimension columns prune chunks before they are read and only the variables a query uses are
 * read; each Spark task reads its chunks itself, so there is no shuffle. Options: see {@link ZarrReadOptions}.
 *
 * <p>{@code df.write.format("zarr").option("dims", ...).save(uri)} writes a DataFrame as a Zarr group through Spark's
 * V1 write path ({@link CreatableRelationProvider}), which lets the writer distribute the work itself, without an
 * exchange: see {@link ZarrWriter}. The option {@code dims} marks a write: Spark asks for the table before writing, and gets one
 * that is not read ({@link ZarrWriteOptions#isWrite}).
 */
public final class ZarrDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider {
    /** The short name: {@code spark.read.format("zarr")}. */
    public static final String SHORT_NAME = "zarr";

    @Override
    public String shortName() {
        return SHORT_NAME;
    }

    /**
     * The dataset {@link #inferSchema} opened and the options it was opened with, for the {@link #getTable} call that
     * follows it: Spark makes one provider per {@code load()} and calls both, and the metadata is read once.
     */
    private ZarrDataset inferred;

    private Map<String, String> inferredFrom;

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        if (ZarrWriteOptions.isWrite(options)) {
            return new StructType();
        }
        ZarrDataset dataset = open(options(options), options);
        inferred = dataset;
        inferredFrom = Map.copyOf(options.asCaseSensitiveMap());
        return dataset.schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        if (ZarrWriteOptions.isWrite(properties)) {
            return new ZarrWriteTable(ZarrWriteOptions.get(properties, "path"));
        }
        ZarrReadOptions options = options(properties);
        ZarrDataset dataset =
                inferred != null && inferredFrom.equals(properties) ? inferred : open(options, properties);
        inferred = null;
        inferredFrom = null;
        if (schema != null && !schema.equals(dataset.schema())) {
            throw new InvalidArgumentException("zarr data source: the schema given for " + options.path() + " ("
                    + schema.simpleString() + ") is not the one its metadata gives ("
                    + dataset.schema().simpleString()
                    + "); leave out .schema(...)");
        }
        return new ZarrTable(dataset, options, ZarrReadOptions.registeredId(properties));
    }

    private static ZarrDataset open(ZarrReadOptions options, Map<String, String> properties) {
        String registered = ZarrReadOptions.registeredId(properties);
        if (registered != null) {
            return ArrayFrames.dataset(registered);
        }
        return ZarrDataset.open(
                options.path(), options.variables(), options.storeOptions(), options.cf(), options.nanAsNull());
    }

    private static ZarrReadOptions options(Map<String, String> properties) {
        SparkSession session = SparkSession.active();
        StoreOptions store = SparkStoreOptions.from(JavaSparkContext.fromSparkContext(session.sparkContext()));
        long maxBytes = session.sessionState().conf().filesMaxPartitionBytes();
        return ZarrReadOptions.parse(properties, store, maxBytes);
    }

    @Override
    public BaseRelation createRelation(
            SQLContext sqlContext,
            SaveMode mode,
            scala.collection.immutable.Map<String, String> parameters,
            Dataset<Row> data) {
        ZarrWriter.write(
                sqlContext.sparkSession(), mode, scala.collection.JavaConverters.mapAsJavaMap(parameters), data);
        StructType schema = data.schema();
        return new BaseRelation() {
            @Override
            public SQLContext sqlContext() {
                return sqlContext;
            }

            @Override
            public StructType schema() {
                return schema;
            }
        };
    }
}
