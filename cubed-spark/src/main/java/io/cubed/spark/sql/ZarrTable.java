package io.cubed.spark.sql;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A Zarr array or group as a readable table. */
final class ZarrTable implements SupportsRead {
    private final ZarrDataset dataset;
    private final ZarrReadOptions options;
    private final String registered;

    ZarrTable(ZarrDataset dataset, ZarrReadOptions options, String registered) {
        this.dataset = dataset;
        this.options = options;
        this.registered = registered;
    }

    /** The URL of the array or group read (a write checks it is not the one it replaces). */
    String url() {
        return dataset.url();
    }

    /** The array or group read, as resolved on the driver (a write takes its coordinates from it). */
    ZarrDataset dataset() {
        return dataset;
    }

    /** The id of the computed arrays behind this table ({@link ArrayFrames}), or null. */
    String registered() {
        return registered;
    }

    @Override
    public String name() {
        return "zarr " + dataset.url();
    }

    @Override
    public StructType schema() {
        return dataset.schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap ignored) {
        if (registered != null) {
            ArrayFrames.dataset(registered); // fails clearly once released
        }
        return new ZarrScanBuilder(dataset, options);
    }
}
