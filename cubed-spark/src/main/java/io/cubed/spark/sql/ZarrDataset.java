package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.DimensionNames;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrNode;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.cf.CfDecoding;
import io.cubed.storage.zarr.cf.CfOptions;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A Zarr array or group seen as a table, resolved on the driver: its dimensions (named by the xarray convention, with
 * the values of their coordinate arrays), its data variables (arrays sharing those dimensions) and the grid that
 * partitions and pruning follow. Every check of the input happens here, at analysis time, with the path and the
 * problem in the message.
 */
final class ZarrDataset implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A dimension: its name, length, and coordinate values decoded by {@code cf} (null: the column holds the index,
     * and {@code cf} is null too).
     */
    record Dimension(String name, long size, Chunk coordinate, String coordinateUrl, CfDecoding cf)
            implements Serializable {
        DataType sqlType() {
            return coordinate == null ? DataTypes.LongType : SqlTypes.of(cf, coordinateUrl);
        }

        /** Which coordinate values show as NULL. */
        SqlTypes.Nulls nulls(boolean nanAsNull) {
            return coordinate == null ? SqlTypes.Nulls.NONE : SqlTypes.Nulls.of(cf, nanAsNull);
        }

        /** True when a coordinate value shows as NULL. */
        boolean hasNulls(boolean nanAsNull) {
            SqlTypes.Nulls nulls = nulls(nanAsNull);
            if (nulls != SqlTypes.Nulls.NONE) {
                for (int i = 0; i < coordinate.size(); i++) {
                    if (nulls.isNull(coordinate, i)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** A data variable: a column name, the array it reads, and how its values decode. */
    record Variable(String name, ChunkStore array, CfDecoding cf) implements Serializable {
        DataType sqlType() {
            return SqlTypes.of(cf, array.url());
        }
    }

    private final String url;
    private final List<Dimension> dims;
    private final List<Variable> variables;
    private final ChunkGrid unitGrid;

    private final List<String> requiredArrays;
    private final StoreOptions storeOptions;
    private final boolean nanAsNull;

    private ZarrDataset(
            String url, List<Dimension> dims, List<Variable> variables, ChunkGrid unitGrid, boolean nanAsNull) {
        this(url, dims, variables, unitGrid, List.of(), StoreOptions.empty(), nanAsNull);
    }

    private ZarrDataset(
            String url,
            List<Dimension> dims,
            List<Variable> variables,
            ChunkGrid unitGrid,
            List<String> requiredArrays,
            StoreOptions storeOptions,
            boolean nanAsNull) {
        this.url = url;
        this.dims = List.copyOf(dims);
        this.variables = List.copyOf(variables);
        this.unitGrid = unitGrid;
        this.requiredArrays = List.copyOf(requiredArrays);
        this.storeOptions = storeOptions;
        this.nanAsNull = nanAsNull;
    }

    /**
     * Fails when an array the variables are computed from is gone (the intermediates of {@link ArrayFrames}, deleted by
     * {@link ArrayFrames#release}): its chunks would otherwise read as fill values.
     */
    void requireInputs(String where) {
        for (String a : requiredArrays) {
            if (!Zarr.arrayExists(a, storeOptions)) {
                throw new StorageException("zarr data source: " + where + " is computed from " + a + ", which no longer"
                        + " exists (the DataFrame was released, or its work directory deleted); call"
                        + " ArrayFrames.toDataFrame again");
            }
        }
    }

    /** A dataset of arrays already open (computed ones included), for {@link ArrayFrames}; NaN shows as NULL. */
    static ZarrDataset of(
            String url,
            List<Dimension> dims,
            List<Variable> variables,
            ChunkGrid unitGrid,
            List<String> requiredArrays,
            StoreOptions storeOptions) {
        return new ZarrDataset(url, dims, variables, unitGrid, requiredArrays, storeOptions, true);
    }

    /** True when NaN of floating columns shows as NULL. */
    boolean nanAsNull() {
        return nanAsNull;
    }

    String url() {
        return url;
    }

    List<Dimension> dims() {
        return dims;
    }

    List<Variable> variables() {
        return variables;
    }

    /**
     * The grid of the smallest independently readable pieces of the first variable (inner chunks of a sharded array,
     * chunks otherwise): the unit of pruning and of partitions.
     */
    ChunkGrid unitGrid() {
        return unitGrid;
    }

    /**
     * Dimension columns first, then one column per variable; a column is nullable when a value may show as NULL (a
     * variable's NaN or missing time, a coordinate holding one), and carries the array's descriptive CF attributes
     * ({@code units}, {@code long_name}, …) as metadata.
     */
    StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (Dimension d : dims) {
            Metadata m = d.cf() == null ? Metadata.empty() : SqlTypes.metadata(d.cf());
            fields.add(new StructField(d.name(), d.sqlType(), d.hasNulls(nanAsNull), m));
        }
        for (Variable v : variables) {
            boolean nullable = SqlTypes.Nulls.of(v.cf(), nanAsNull) != SqlTypes.Nulls.NONE;
            fields.add(new StructField(v.name(), v.sqlType(), nullable, SqlTypes.metadata(v.cf())));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    /**
     * Opens the array or group at {@code url}. {@code wanted} lists the variables to read (null: every array of a group
     * that is not a coordinate). On an object store this costs a few round trips, whatever the number of arrays: the
     * node's documents together ({@link ZarrNode#read}), a group's consolidated metadata or one listing and its
     * members' documents together, then the coordinates' chunks together.
     */
    static ZarrDataset open(String url, List<String> wanted, StoreOptions options, CfOptions cf, boolean nanAsNull) {
        ZarrNode node;
        try {
            node = ZarrNode.read(url, options);
        } catch (RuntimeException e) {
            throw new StorageException("zarr data source: cannot read " + url + ": " + e.getMessage(), e);
        }
        switch (node.type()) {
            case ARRAY:
                return openArray(url, node.array(), wanted, options, cf, nanAsNull);
            case GROUP:
                return openGroup(url, node.arrays(), wanted, cf, nanAsNull);
            default:
                throw new StorageException("zarr data source: no Zarr array or group at " + url + " (neither " + url
                        + "/.zarray, " + url + "/.zgroup nor " + url + "/zarr.json exists)");
        }
    }

    private static ZarrDataset openArray(
            String url, ChunkStore array, List<String> wanted, StoreOptions options, CfOptions cf, boolean nanAsNull) {
        String name = lastSegment(url);
        if (wanted != null && !(wanted.size() == 1 && wanted.get(0).equals(name))) {
            throw new InvalidArgumentException("zarr data source: " + url + " is one array, read as the column '"
                    + name + "'; the option variables=" + String.join(",", wanted)
                    + " only applies to groups (load the group that holds the arrays instead)");
        }
        List<String> names = dimensionNames(array);
        // Coordinates of an array inside an xarray-style group are its siblings named after its dimensions.
        Map<String, ChunkStore> siblings = new LinkedHashMap<>();
        String parent = parentOf(url);
        if (parent != null) {
            try {
                ZarrNode group = ZarrNode.read(parent, options);
                if (group.type() == Zarr.NodeType.GROUP) {
                    List<String> others = new ArrayList<>(names);
                    others.remove(name);
                    siblings.putAll(group.arrays(others));
                }
            } catch (RuntimeException e) {
                // A parent that cannot be read (no permission above the array, say) just has no coordinates for us.
            }
        }
        List<Variable> variables = List.of(variable(name, array, cf));
        List<Dimension> dims = dimensions(url, variables, names, siblings, cf);
        return new ZarrDataset(url, dims, variables, unitGridOf(array), nanAsNull);
    }

    /** The variable {@code name} reading {@code array}, with its decoding (checked to have an SQL type). */
    private static Variable variable(String name, ChunkStore array, CfOptions cf) {
        CfDecoding decoding = CfDecoding.of(array, cf);
        SqlTypes.of(decoding, array.url());
        return new Variable(name, array, decoding);
    }

    private static ZarrDataset openGroup(
            String url, Map<String, ChunkStore> arrays, List<String> wanted, CfOptions cf, boolean nanAsNull) {
        Map<String, ChunkStore> coordinates = new LinkedHashMap<>();
        Map<String, ChunkStore> data = new LinkedHashMap<>();
        for (Map.Entry<String, ChunkStore> e : arrays.entrySet()) {
            List<String> dn = dimensionNames(e.getValue());
            if (dn.size() == 1 && dn.get(0).equals(e.getKey())) {
                coordinates.put(e.getKey(), e.getValue());
            } else {
                data.put(e.getKey(), e.getValue());
            }
        }
        List<Variable> chosen = new ArrayList<>();
        if (wanted == null) {
            for (Map.Entry<String, ChunkStore> e : defaultVariables(data).entrySet()) {
                chosen.add(variable(e.getKey(), e.getValue(), cf));
            }
            if (chosen.isEmpty()) {
                throw new InvalidArgumentException("zarr data source: the group " + url + " has no data variables"
                        + (coordinates.isEmpty()
                                ? " (it holds no arrays)"
                                : " (only the coordinate arrays " + coordinates.keySet() + ")"));
            }
        } else {
            for (String n : wanted) {
                if (data.containsKey(n)) {
                    chosen.add(variable(n, data.get(n), cf));
                } else if (coordinates.containsKey(n)) {
                    throw new InvalidArgumentException("zarr data source: '" + n + "' in " + url
                            + " is a coordinate array: it is the dimension column '" + n + "', not a variable");
                } else {
                    throw new InvalidArgumentException("zarr data source: no variable '" + n + "' in " + url
                            + "; its variables are " + data.keySet());
                }
            }
        }
        Variable first = chosen.get(0);
        List<String> names = dimensionNames(first.array());
        for (Variable v : chosen) {
            List<String> vn = dimensionNames(v.array());
            if (!vn.equals(names)
                    || !Arrays.equals(
                            v.array().grid().shape(), first.array().grid().shape())) {
                StringBuilder all = new StringBuilder();
                for (Variable w : chosen) {
                    all.append(all.length() == 0 ? "" : ", ")
                            .append(w.name())
                            .append(' ')
                            .append(dimensionNames(w.array()))
                            .append(" shape ")
                            .append(Arrays.toString(w.array().grid().shape()));
                }
                throw new InvalidArgumentException("zarr data source: the variables of " + url + " do not share "
                        + "dimensions and shape, so they cannot be columns of one table: " + all
                        + "; choose variables of one shape with the option variables=NAME,NAME");
            }
        }
        return new ZarrDataset(
                url, dimensions(url, chosen, names, coordinates, cf), chosen, unitGridOf(first.array()), nanAsNull);
    }

    /**
     * The variables a group's table has when none are asked for: its data variables, but of the non-dimension
     * coordinates (those a data variable names in its CF {@code coordinates} attribute, as xarray writes a scalar
     * {@code height} or 2-d {@code lat}/{@code lon}) only those with the data's dimensions and shape: the others would
     * need broadcasting into the table's rows, and are read as tables of their own ({@code variables=NAME}).
     */
    static Map<String, ChunkStore> defaultVariables(Map<String, ChunkStore> data) {
        java.util.Set<String> coordinates = new java.util.HashSet<>();
        for (ChunkStore a : data.values()) {
            Object c = io.cubed.storage.zarr.Attributes.of(a).get("coordinates");
            if (c instanceof String names) {
                coordinates.addAll(Arrays.asList(names.trim().split("\\s+")));
            }
        }
        ChunkStore reference = null;
        for (Map.Entry<String, ChunkStore> e : data.entrySet()) {
            if (!coordinates.contains(e.getKey())) {
                reference = e.getValue();
                break;
            }
        }
        if (reference == null) {
            return data; // Nothing but coordinates: they are the data.
        }
        Map<String, ChunkStore> chosen = new LinkedHashMap<>();
        for (Map.Entry<String, ChunkStore> e : data.entrySet()) {
            ChunkStore a = e.getValue();
            if (!coordinates.contains(e.getKey())
                    || (dimensionNames(a).equals(dimensionNames(reference))
                            && Arrays.equals(a.grid().shape(), reference.grid().shape()))) {
                chosen.put(e.getKey(), a);
            }
        }
        return chosen;
    }

    private static List<Dimension> dimensions(
            String url,
            List<Variable> variables,
            List<String> names,
            Map<String, ChunkStore> coordinates,
            CfOptions cf) {
        long[] shape = variables.get(0).array().grid().shape();
        Map<String, ChunkStore> used = new LinkedHashMap<>();
        for (int a = 0; a < names.size(); a++) {
            String d = names.get(a);
            for (Variable v : variables) {
                if (v.name().equals(d)) {
                    throw new InvalidArgumentException("zarr data source: in " + url + ", '" + d
                            + "' names both a dimension and a variable; columns need distinct names");
                }
            }
            ChunkStore c = coordinates.get(d);
            if (c != null) {
                if (c.grid().ndim() != 1 || c.grid().shape()[0] != shape[a]) {
                    throw new InvalidArgumentException("zarr data source: the coordinate array " + c.url()
                            + " has shape " + Arrays.toString(c.grid().shape()) + " but dimension '" + d + "' of "
                            + variables.get(0).array().url() + " has length " + shape[a]);
                }
                SqlTypes.of(c.dtype(), "the coordinate array " + c.url());
                if (shape[a] > Integer.MAX_VALUE - 8) {
                    throw new InvalidArgumentException("zarr data source: the coordinate array " + c.url() + " has "
                            + shape[a] + " values, more than a coordinate read on the driver may hold");
                }
                used.put(d, c);
            }
        }
        Map<String, Chunk> values = CoordinateReads.readWhole(used);
        List<Dimension> dims = new ArrayList<>();
        for (int a = 0; a < names.size(); a++) {
            String d = names.get(a);
            ChunkStore c = used.get(d);
            if (c == null) {
                dims.add(new Dimension(d, shape[a], null, null, null));
                continue;
            }
            Chunk raw = values.get(d);
            CfDecoding decoding = CfDecoding.ofCoordinate(c, cf, raw);
            SqlTypes.of(decoding, "the coordinate array " + c.url());
            dims.add(new Dimension(d, shape[a], decoding.decode(raw), c.url(), decoding));
        }
        return dims;
    }

    /**
     * The dimension names of {@code array}: {@code dimension_names} of Zarr v3 or the {@code _ARRAY_DIMENSIONS}
     * attribute (xarray's convention), else {@code dim_0, dim_1, ...}.
     */
    static List<String> dimensionNames(ChunkStore array) {
        List<String> names;
        try {
            names = DimensionNames.read(array);
        } catch (RuntimeException e) {
            throw new InvalidArgumentException("zarr data source: " + e.getMessage(), e);
        }
        if (names != null) {
            return names;
        }
        List<String> out = new ArrayList<>();
        for (int a = 0; a < array.grid().ndim(); a++) {
            out.add("dim_" + a);
        }
        return out;
    }

    private static ChunkGrid unitGridOf(ChunkStore array) {
        return array instanceof ZarrV3Array v3 ? v3.innerGrid() : array.grid();
    }

    /** {@code t2m} for {@code s3a://b/ds.zarr/t2m/}; a {@code .zarr} suffix is dropped ({@code a.zarr} gives a). */
    static String lastSegment(String url) {
        String u = url;
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        String last = u.substring(u.lastIndexOf('/') + 1);
        if (last.endsWith(".zarr") && last.length() > ".zarr".length()) {
            last = last.substring(0, last.length() - ".zarr".length());
        }
        return last.isEmpty() ? "value" : last;
    }

    /** The URL one level up, or null at a root. */
    static String parentOf(String url) {
        String u = url;
        while (u.endsWith("/")) {
            u = u.substring(0, u.length() - 1);
        }
        int slash = u.lastIndexOf('/');
        if (slash <= 0
                || u.substring(0, slash).endsWith(":")
                || u.substring(0, slash).endsWith(":/")) {
            return null;
        }
        String p = u.substring(0, slash);
        return p.endsWith("/") || p.isEmpty() ? null : p;
    }

    /** Index of the dimension called {@code name}, or -1. */
    int dimIndex(String name) {
        for (int i = 0; i < dims.size(); i++) {
            if (dims.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The variable called {@code name}, or null. */
    Variable variable(String name) {
        for (Variable v : variables) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }
}
