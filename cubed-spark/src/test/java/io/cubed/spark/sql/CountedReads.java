package io.cubed.spark.sql;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Pruning proved by the files a query opens: a Zarr table read through {@link CountingFileSystem} under a test's id,
 * and the chunk keys of one variable among the paths it opened.
 */
final class CountedReads {
    private CountedReads() {}

    /** The table {@code spark.read.format("zarr")} loads from the local {@code path}, its opens recorded under {@code id}. */
    static Dataset<Row> load(SparkSession session, String id, String path) {
        return session.read()
                .format("zarr")
                .option("fs.counting.impl", CountingFileSystem.class.getName())
                .load("counting://" + id + path);
    }

    /**
     * The chunk keys of the array {@code variable} of the group whose directory is called {@code group} (such as {@code
     * "climate.zarr"}) among the {@code opened} paths; its metadata documents are left out.
     */
    static Set<String> chunkReads(List<String> opened, String group, String variable) {
        Set<String> keys = new TreeSet<>();
        String marker = "/" + group + "/" + variable + "/";
        for (String p : opened) {
            int at = p.indexOf(marker);
            if (at >= 0 && !p.substring(at + marker.length()).startsWith(".")) {
                keys.add(p.substring(at + marker.length()));
            }
        }
        return keys;
    }
}
