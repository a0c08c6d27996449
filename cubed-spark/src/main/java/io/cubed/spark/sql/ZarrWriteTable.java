package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The table Spark asks for before {@code df.write.format("zarr")} writes: it has no write capability, so Spark writes
 * through {@link ZarrDataSource#createRelation} ({@link ZarrWriter}); read (with the write option {@code dims}), it
 * fails saying so.
 */
final class ZarrWriteTable implements SupportsRead {
    private final String path;

    ZarrWriteTable(String path) {
        this.path = path;
    }

    @Override
    public String name() {
        return "zarr write " + path;
    }

    @Override
    public StructType schema() {
        return new StructType();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        throw new InvalidArgumentException("zarr data source: the option dims is for writing"
                + " (df.write.format(\"zarr\").option(\"dims\", ...)); leave it out to read " + path);
    }
}
