package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.error.StorageException;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A Zarr v2 {@code dtype} string (a NumPy type string such as {@code "<f8"}, {@code ">i4"} or {@code "|b1"}): one of the
 * 13 Array API types in a byte order. Other NumPy types (datetimes, strings, structured, float16) are refused.
 */
public final class ZarrDataType {
    private final DType dtype;
    private final ByteOrder order;

    private ZarrDataType(DType dtype, ByteOrder order) {
        this.dtype = dtype;
        this.order = order;
    }

    /** The little-endian form of {@code dtype}, which Cubed writes. */
    public static ZarrDataType littleEndian(DType dtype) {
        return new ZarrDataType(dtype, ByteOrder.LITTLE_ENDIAN);
    }

    /** Parses a type string; {@code where} (the metadata URL) goes into the error for unsupported types. */
    public static ZarrDataType parse(Object json, String where) {
        if (!(json instanceof String)) {
            throw new StorageException("unsupported dtype " + json + " in " + where + ": structured and other "
                    + "non-scalar dtypes are not Array API types");
        }
        String s = (String) json;
        if (s.length() < 3) {
            throw unsupported(s, where);
        }
        char endian = s.charAt(0);
        char kind = s.charAt(1);
        int size;
        try {
            size = Integer.parseInt(s.substring(2));
        } catch (NumberFormatException e) {
            throw unsupported(s, where);
        }
        DType dt = dtypeOf(kind, size);
        if (dt == null) {
            throw unsupported(s, where);
        }
        ByteOrder order;
        switch (endian) {
            case '<':
            case '|':
                order = ByteOrder.LITTLE_ENDIAN;
                break;
            case '>':
                order = ByteOrder.BIG_ENDIAN;
                break;
            case '=':
                order = ByteOrder.nativeOrder();
                break;
            default:
                throw unsupported(s, where);
        }
        if (endian == '|' && size != 1) {
            throw unsupported(s, where);
        }
        return new ZarrDataType(dt, order);
    }

    private static DType dtypeOf(char kind, int size) {
        switch (kind) {
            case 'b':
                return size == 1 ? DType.BOOL : null;
            case 'i':
                return size == 1
                        ? DType.INT8
                        : size == 2 ? DType.INT16 : size == 4 ? DType.INT32 : size == 8 ? DType.INT64 : null;
            case 'u':
                return size == 1
                        ? DType.UINT8
                        : size == 2 ? DType.UINT16 : size == 4 ? DType.UINT32 : size == 8 ? DType.UINT64 : null;
            case 'f':
                return size == 4 ? DType.FLOAT32 : size == 8 ? DType.FLOAT64 : null;
            case 'c':
                return size == 8 ? DType.COMPLEX64 : size == 16 ? DType.COMPLEX128 : null;
            default:
                return null;
        }
    }

    private static StorageException unsupported(String s, String where) {
        return new StorageException("unsupported dtype '" + s + "' in " + where + ": Cubed reads the Array API types "
                + "bool, int8-64, uint8-64, float32/64 and complex64/128 (e.g. '<f8', '>i4', '|b1'); datetimes, "
                + "strings, objects, float16 and structured types are not supported");
    }

    public DType dtype() {
        return dtype;
    }

    public ByteOrder order() {
        return order;
    }

    /** The type string, e.g. {@code "<f8"}; one-byte types use {@code '|'} as NumPy does. */
    public String toJson() {
        String kind;
        switch (dtype.kind()) {
            case BOOL:
                kind = "b";
                break;
            case SIGNED:
                kind = "i";
                break;
            case UNSIGNED:
                kind = "u";
                break;
            case FLOAT:
                kind = "f";
                break;
            default:
                kind = "c";
        }
        char endian = dtype.itemSizeBytes() == 1 ? '|' : order == ByteOrder.BIG_ENDIAN ? '>' : '<';
        return endian + kind + dtype.itemSizeBytes();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ZarrDataType && ((ZarrDataType) o).dtype == dtype && ((ZarrDataType) o).order == order;
    }

    @Override
    public int hashCode() {
        return Objects.hash(dtype, order);
    }

    @Override
    public String toString() {
        return toJson();
    }
}
