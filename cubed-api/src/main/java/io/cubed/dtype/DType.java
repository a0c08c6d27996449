package io.cubed.dtype;

import io.cubed.error.InvalidArgumentException;
import java.util.Locale;

/**
 * The 13 data types of the Python Array API standard.
 *
 * <p>In memory a chunk of each type is one Java primitive array in C order: {@code boolean[]} for {@link #BOOL},
 * {@code byte[]}, {@code short[]}, {@code int[]}, {@code long[]} for the signed and unsigned integers of that width
 * (unsigned values are kept in the same bits), {@code float[]} and {@code double[]} for the floats, and interleaved
 * {@code float[]} / {@code double[]} (real, imaginary, real, …) of twice the element count for the complex types.
 */
public enum DType {
    BOOL("bool", Kind.BOOL, 1),
    INT8("int8", Kind.SIGNED, 1),
    INT16("int16", Kind.SIGNED, 2),
    INT32("int32", Kind.SIGNED, 4),
    INT64("int64", Kind.SIGNED, 8),
    UINT8("uint8", Kind.UNSIGNED, 1),
    UINT16("uint16", Kind.UNSIGNED, 2),
    UINT32("uint32", Kind.UNSIGNED, 4),
    UINT64("uint64", Kind.UNSIGNED, 8),
    FLOAT32("float32", Kind.FLOAT, 4),
    FLOAT64("float64", Kind.FLOAT, 8),
    COMPLEX64("complex64", Kind.COMPLEX, 8),
    COMPLEX128("complex128", Kind.COMPLEX, 16);

    /** The families of data types that the Array API standard distinguishes. */
    public enum Kind {
        BOOL,
        SIGNED,
        UNSIGNED,
        FLOAT,
        COMPLEX
    }

    private final String typeName;
    private final Kind kind;
    private final int itemSizeBytes;

    DType(String typeName, Kind kind, int itemSizeBytes) {
        this.typeName = typeName;
        this.kind = kind;
        this.itemSizeBytes = itemSizeBytes;
    }

    /** The Array API name, e.g. {@code "float64"}. */
    public String typeName() {
        return typeName;
    }

    public Kind kind() {
        return kind;
    }

    /** Size of one element in bytes (16 for complex128). */
    public int itemSizeBytes() {
        return itemSizeBytes;
    }

    public boolean isInteger() {
        return kind == Kind.SIGNED || kind == Kind.UNSIGNED;
    }

    public boolean isFloating() {
        return kind == Kind.FLOAT;
    }

    public boolean isComplex() {
        return kind == Kind.COMPLEX;
    }

    /** Number of primitive slots one element takes in its Java array: 2 for complex types, 1 otherwise. */
    public int slotsPerElement() {
        return kind == Kind.COMPLEX ? 2 : 1;
    }

    /** Size in bytes of one primitive slot of the Java array (half the item size for complex types). */
    public int slotSizeBytes() {
        return itemSizeBytes / slotsPerElement();
    }

    /** Allocates the Java primitive array that holds {@code elements} elements of this type. */
    public Object newArray(int elements) {
        int slots = Math.multiplyExact(elements, slotsPerElement());
        switch (this) {
            case BOOL:
                return new boolean[slots];
            case INT8:
            case UINT8:
                return new byte[slots];
            case INT16:
            case UINT16:
                return new short[slots];
            case INT32:
            case UINT32:
                return new int[slots];
            case INT64:
            case UINT64:
                return new long[slots];
            case FLOAT32:
            case COMPLEX64:
                return new float[slots];
            case FLOAT64:
            case COMPLEX128:
                return new double[slots];
        }
        throw new AssertionError(this);
    }

    /** The Java array class that holds elements of this type, e.g. {@code double[].class}. */
    public Class<?> arrayClass() {
        switch (this) {
            case BOOL:
                return boolean[].class;
            case INT8:
            case UINT8:
                return byte[].class;
            case INT16:
            case UINT16:
                return short[].class;
            case INT32:
            case UINT32:
                return int[].class;
            case INT64:
            case UINT64:
                return long[].class;
            case FLOAT32:
            case COMPLEX64:
                return float[].class;
            case FLOAT64:
            case COMPLEX128:
                return double[].class;
        }
        throw new AssertionError(this);
    }

    /** Parses an Array API type name such as {@code "int32"} (case-insensitive). */
    public static DType fromName(String name) {
        for (DType d : values()) {
            if (d.typeName.equals(name.toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        throw new InvalidArgumentException("unknown data type '" + name + "'; expected one of the Array API types "
                + "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, complex64, "
                + "complex128");
    }

    @Override
    public String toString() {
        return typeName;
    }
}
