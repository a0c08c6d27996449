package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.error.StorageException;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.zarr.blosc.BloscCodec;
import io.cubed.storage.zarr.codec.Codec;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Runs a Zarr v3 codec chain: encodes a chunk (at its full, unclipped shape) to stored bytes and decodes them back,
 * including {@code sharding_indexed} shards whose inner chunks have their own chains (nested sharding included).
 */
final class V3Codecs {
    /** Offset and size of an inner chunk that is not stored (it reads as the fill value). */
    static final long EMPTY = -1L;

    private V3Codecs() {}

    /**
     * Encodes {@code chunk} (of the full chunk shape) with {@code codecs}; {@code fill} decides empty inner chunks. Null
     * when the chain shards and every inner chunk is the fill value: such a shard is not stored.
     */
    static byte[] encode(List<V3Codec> codecs, Chunk chunk, Scalar fill) {
        return encode(codecs, chunk, fill, false);
    }

    /**
     * As {@link #encode(List, Chunk, Scalar)}; with {@code checkpoint}, calls {@link HeapProbe#checkpoint()} once the
     * chunk is encoded (for the chunk writes of an array, not for the inner chunks of a shard or its index).
     */
    static byte[] encode(List<V3Codec> codecs, Chunk chunk, Scalar fill, boolean checkpoint) {
        Chunk c = chunk;
        byte[] raw = null;
        byte[] bytes = null;
        for (V3Codec codec : codecs) {
            if (bytes == null && codec.kind() == V3Codec.Kind.BYTES_TO_BYTES) {
                // An all-fill shard is not stored at all.
                break;
            }
            if (codec instanceof V3Codec.Transpose t) {
                c = ElementBytes.permute(c, t.orderArray());
            } else if (codec instanceof V3Codec.Bytes b) {
                bytes = ElementBytes.encode(c, b.byteOrder(), false);
                raw = bytes;
            } else if (codec instanceof V3Codec.Sharding s) {
                bytes = encodeShard(s, c, fill);
                raw = bytes;
            } else if (codec instanceof V3Codec.Crc32c) {
                bytes = appendCrc(bytes);
            } else {
                bytes = byteCodec(codec).encode(bytes);
            }
        }
        if (checkpoint) {
            // The chunk (and its transposed copy), its bytes (a shard: the encoded shard) and the compressed bytes:
            // the most a write holds, as in ZarrArray.writeChunk.
            HeapProbe.checkpoint();
            Reference.reachabilityFence(chunk);
            Reference.reachabilityFence(c);
            Reference.reachabilityFence(raw);
        }
        return bytes;
    }

    /**
     * Decodes {@code stored} into a C-order chunk of {@code shape} (the full chunk shape); {@code where} (the chunk's URL)
     * goes into errors.
     */
    static Chunk decode(List<V3Codec> codecs, byte[] stored, DType dtype, int[] shape, Scalar fill, String where) {
        return decode(codecs, stored, dtype, shape, fill, where, false);
    }

    /**
     * As {@link #decode(List, byte[], DType, int[], Scalar, String)}; with {@code checkpoint}, calls {@link
     * HeapProbe#checkpoint()} once the bytes are decoded into a chunk (for chunk and inner-chunk reads of an array, not
     * for each inner chunk of a whole shard or for a shard index).
     */
    static Chunk decode(
            List<V3Codec> codecs,
            byte[] stored,
            DType dtype,
            int[] shape,
            Scalar fill,
            String where,
            boolean checkpoint) {
        Chunk inOrder = decodeInOrder(codecs, stored, dtype, shape, where, checkpoint);
        if (inOrder != null) {
            return inOrder;
        }
        // Shapes seen by each array codec: the transposes change them.
        int n = codecs.size();
        int[][] shapes = new int[n + 1][];
        shapes[0] = shape;
        int a2b = -1;
        for (int i = 0; i < n; i++) {
            V3Codec c = codecs.get(i);
            if (c instanceof V3Codec.Transpose t) {
                if (t.order().size() != shape.length) {
                    throw new StorageException("transpose order " + t.order() + " in " + where + " does not match the "
                            + "chunk rank " + shape.length);
                }
                int[] o = t.orderArray();
                int[] s = new int[o.length];
                for (int k = 0; k < o.length; k++) {
                    s[k] = shapes[i][o[k]];
                }
                shapes[i + 1] = s;
            } else {
                shapes[i + 1] = shapes[i];
                if (c.kind() == V3Codec.Kind.ARRAY_TO_BYTES) {
                    a2b = i;
                }
            }
        }
        byte[] bytes = stored;
        for (int i = n - 1; i > a2b; i--) {
            V3Codec c = codecs.get(i);
            if (c instanceof V3Codec.Crc32c) {
                bytes = checkCrc(bytes, where);
            } else {
                int size = sizeBeforeByteCodecs(codecs, i, dtype, shapes[a2b]);
                bytes = byteCodec(c).decode(bytes, size >= 0 ? size : framedSize(c, bytes));
            }
        }
        int[] arrShape = shapes[a2b];
        V3Codec a2bCodec = codecs.get(a2b);
        Chunk c;
        if (a2bCodec instanceof V3Codec.Bytes b) {
            long expected = (long) Chunk.elementCount(arrShape) * dtype.itemSizeBytes();
            if (bytes.length != expected) {
                throw new CorruptDataException("corrupt chunk " + where + ": it decodes to " + bytes.length
                        + " bytes but a " + "chunk of " + Arrays.toString(arrShape) + " " + dtype + " has " + expected);
            }
            c = ElementBytes.decode(bytes, dtype, b.byteOrder(), arrShape, false);
        } else {
            c = decodeShard((V3Codec.Sharding) a2bCodec, bytes, dtype, arrShape, fill, where);
        }
        if (checkpoint) {
            // The stored bytes, the decompressed bytes and the chunk (a shard: the stored shard and the whole decoded
            // shard): the most a read holds at once, as in ZarrArray.decodeChunk.
            HeapProbe.checkpoint();
            Reference.reachabilityFence(stored);
            Reference.reachabilityFence(bytes);
        }
        for (int i = a2b - 1; i >= 0; i--) {
            int[] o = ((V3Codec.Transpose) codecs.get(i)).orderArray();
            int[] inverse = new int[o.length];
            for (int k = 0; k < o.length; k++) {
                inverse[o[k]] = k;
            }
            c = ElementBytes.permute(c, inverse);
        }
        return c;
    }

    /**
     * Size of the bytes entering bytes-to-bytes codec {@code i} on encode, or -1 when it is not known in advance (after
     * a sharding codec).
     */
    private static int sizeBeforeByteCodecs(List<V3Codec> codecs, int i, DType dtype, int[] shape) {
        long size = -1;
        for (int k = 0; k < i; k++) {
            V3Codec c = codecs.get(k);
            if (c instanceof V3Codec.Bytes) {
                size = (long) Chunk.elementCount(shape) * dtype.itemSizeBytes();
            } else if (c instanceof V3Codec.Sharding) {
                size = -1;
            } else if (c instanceof V3Codec.Crc32c) {
                size = size < 0 ? -1 : size + 4;
            } else if (c.kind() == V3Codec.Kind.BYTES_TO_BYTES) {
                size = -1;
            }
        }
        return (int) size;
    }

    /** The decoded size a self-describing compressed frame announces (gzip trailer, zstd frame header, blosc header). */
    private static int framedSize(V3Codec c, byte[] bytes) {
        if (c instanceof V3Codec.Gzip) {
            if (bytes.length < 18) {
                throw new StorageException("corrupt gzip stream: " + bytes.length + " bytes");
            }
            return ByteBuffer.wrap(bytes, bytes.length - 4, 4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .getInt();
        }
        if (c instanceof V3Codec.Zstd) {
            long size = com.github.luben.zstd.Zstd.getFrameContentSize(bytes);
            if (size < 0 || size > Integer.MAX_VALUE) {
                throw new StorageException("zstd frame without a usable content size (" + size + ")");
            }
            return (int) size;
        }
        if (bytes.length < 16) {
            throw new StorageException("corrupt blosc header: " + bytes.length + " bytes");
        }
        return ByteBuffer.wrap(bytes, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /**
     * A chunk of a chain of {@code bytes} then a compressor that {@linkplain Codec#decodesInOrder decodes in order}
     * (zstd, as zarr-python 3 writes by default), decompressed piece by piece straight into its elements: the read holds
     * the stored bytes and the chunk, no array of its raw bytes. Null for other chains.
     */
    private static Chunk decodeInOrder(
            List<V3Codec> codecs, byte[] stored, DType dtype, int[] shape, String where, boolean checkpoint) {
        V3Codec.Bytes b = bytesThenCompressor(codecs);
        if (b == null || shape.length == 0) {
            return null;
        }
        Codec codec = byteCodec(codecs.get(1));
        if (!codec.decodesInOrder()) {
            return null;
        }
        Chunk c = Chunk.allocate(dtype, shape);
        try {
            codec.decode(stored, stored.length, Math.toIntExact(c.nbytes()), ChunkBytes.sinkInto(c, b.byteOrder()));
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + where + ": " + e.getMessage(), e);
        }
        if (checkpoint) {
            // The stored bytes and the chunk: the most this read holds.
            HeapProbe.checkpoint();
            Reference.reachabilityFence(stored);
        }
        return c;
    }

    /**
     * The {@code bytes} codec of a chain that is {@code bytes} then one compressor ({@code gzip}, {@code zstd}, {@code
     * blosc}: not a checksum), whose second codec is then the compressor of the element bytes; null for other chains.
     */
    static V3Codec.Bytes bytesThenCompressor(List<V3Codec> codecs) {
        return codecs.size() == 2
                        && codecs.get(0) instanceof V3Codec.Bytes b
                        && codecs.get(1).kind() == V3Codec.Kind.BYTES_TO_BYTES
                        && !(codecs.get(1) instanceof V3Codec.Crc32c)
                ? b
                : null;
    }

    static Codec byteCodec(V3Codec c) {
        if (c instanceof V3Codec.Gzip g) {
            return new SimpleCodecs.GzipCodec(g.level());
        }
        if (c instanceof V3Codec.Zstd z) {
            return new SimpleCodecs.ZstdCodec(z.level(), z.checksum());
        }
        if (c instanceof V3Codec.Blosc b) {
            return new BloscCodec(b.cname(), b.clevel(), b.shuffle(), b.blocksize(), b.typesize());
        }
        throw new AssertionError(c);
    }

    static byte[] appendCrc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length);
        byte[] out = Arrays.copyOf(bytes, bytes.length + 4);
        ByteBuffer.wrap(out, bytes.length, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        return out;
    }

    static byte[] checkCrc(byte[] bytes, String where) {
        if (bytes.length < 4) {
            throw new CorruptDataException(
                    "corrupt chunk " + where + ": " + bytes.length + " bytes cannot hold a crc32c");
        }
        int n = bytes.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, n);
        int stored = ByteBuffer.wrap(bytes, n, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int) crc.getValue()) {
            throw new CorruptDataException("corrupt chunk " + where + ": crc32c mismatch (stored "
                    + Integer.toHexString(stored) + ", computed " + Long.toHexString(crc.getValue()) + ")");
        }
        return Arrays.copyOf(bytes, n);
    }

    // ---- sharding ----

    /** Inner chunks per shard along each axis; the shard shape must be a multiple of the inner chunk shape. */
    static int[] chunksPerShard(V3Codec.Sharding s, int[] shardShape, String where) {
        int[] inner = s.chunkShapeArray();
        if (inner.length != shardShape.length) {
            throw new StorageException("sharding chunk_shape " + s.chunkShape() + " in " + where + " does not have the "
                    + "rank of the shard shape " + Arrays.toString(shardShape));
        }
        int[] per = new int[inner.length];
        for (int a = 0; a < inner.length; a++) {
            if (shardShape[a] % inner[a] != 0) {
                throw new StorageException("sharding chunk_shape " + s.chunkShape() + " in " + where + " does not "
                        + "divide the shard shape " + Arrays.toString(shardShape));
            }
            per[a] = shardShape[a] / inner[a];
        }
        return per;
    }

    /** Encoded size of the shard index of {@code count} inner chunks. */
    static int indexSize(V3Codec.Sharding s, int count) {
        int size = count * 16;
        for (V3Codec c : s.indexCodecs()) {
            if (c instanceof V3Codec.Crc32c) {
                size += 4;
            }
        }
        return size;
    }

    /** Decodes an encoded shard index into (offset, nbytes) pairs, flat in C order of the inner chunk grid. */
    static long[] decodeIndex(V3Codec.Sharding s, byte[] encoded, int[] perShard, String where) {
        int[] shape = Arrays.copyOf(perShard, perShard.length + 1);
        shape[perShard.length] = 2;
        Chunk index = decode(s.indexCodecs(), encoded, DType.UINT64, shape, Scalar.zero(), where + " (shard index)");
        return index.longs();
    }

    private static Chunk decodeShard(
            V3Codec.Sharding s, byte[] bytes, DType dtype, int[] shardShape, Scalar fill, String where) {
        int[] per = chunksPerShard(s, shardShape, where);
        int count = Chunk.elementCount(per);
        int idxSize = indexSize(s, count);
        if (bytes.length < idxSize) {
            throw new StorageException("corrupt shard " + where + ": " + bytes.length + " bytes cannot hold its "
                    + idxSize + "-byte index");
        }
        int idxStart = s.indexAtEnd() ? bytes.length - idxSize : 0;
        long[] index = decodeIndex(s, Arrays.copyOfRange(bytes, idxStart, idxStart + idxSize), per, where);
        int[] inner = s.chunkShapeArray();
        Chunk shard = Chunk.full(dtype, fill, shardShape);
        int[] pos = new int[per.length];
        boolean measured = false;
        for (int k = 0; k < count; k++) {
            long off = index[2 * k];
            long len = index[2 * k + 1];
            if (!(off == EMPTY && len == EMPTY)) {
                checkRange(off, len, bytes.length, k, where);
                int[] dst = new int[per.length];
                for (int a = 0; a < per.length; a++) {
                    dst[a] = pos[a] * inner[a];
                }
                decodeInner(
                        s.codecs(),
                        bytes,
                        (int) off,
                        (int) len,
                        shard,
                        dst,
                        inner,
                        fill,
                        where + " inner chunk " + Arrays.toString(pos),
                        !measured);
                measured = true;
            }
            next(pos, per);
        }
        return shard;
    }

    /**
     * Decodes an inner chunk of shape {@code inner}, stored with the chain {@code codecs} at {@code bytes[off, off +
     * len)}, straight into the box {@code dst .. dst + inner} of {@code target} (a region read's box, which holds it
     * whole): as each inner chunk of a whole shard is decoded into the shard.
     */
    static void decodeInto(
            List<V3Codec> codecs,
            byte[] bytes,
            int off,
            int len,
            Chunk target,
            int[] dst,
            int[] inner,
            Scalar fill,
            String where,
            boolean checkpoint) {
        decodeInner(codecs, bytes, off, len, target, dst, inner, fill, where, checkpoint);
    }

    /**
     * Decodes the inner chunk stored at {@code bytes[off, off + len)} into its place {@code dst} in {@code shard}. A
     * chain of {@code bytes} alone is converted straight from the shard's bytes, and one of {@code bytes} then a
     * compressor decompressed straight into the shard (the compressed bytes copied out, and, for a compressor that does
     * not decode in order, its decompressed bytes): no decoded inner chunk. Other chains (transposes, checksums, nested
     * shards) decode the inner chunk whole and copy it in. {@link ZarrFormat#v3ShardCopies} counts what each holds; with {@code
     * checkpoint} (the first inner chunk of a shard: the others hold as much) the heap is checkpointed ({@link
     * HeapProbe}) while it is held.
     */
    private static void decodeInner(
            List<V3Codec> codecs,
            byte[] bytes,
            int off,
            int len,
            Chunk shard,
            int[] dst,
            int[] inner,
            Scalar fill,
            String where,
            boolean checkpoint) {
        DType dtype = shard.dtype();
        long innerBytes = (long) Chunk.elementCount(inner) * dtype.itemSizeBytes();
        try {
            if (codecs.size() == 1 && codecs.get(0) instanceof V3Codec.Bytes b) {
                if (len != innerBytes) {
                    throw new CorruptDataException("corrupt chunk " + where + ": it has " + len + " bytes but a chunk"
                            + " of " + Arrays.toString(inner) + " " + dtype + " has " + innerBytes);
                }
                ChunkBytes.sinkIntoRegion(shard, b.byteOrder(), dst, inner).accept(0, bytes, off, len);
                return;
            }
            V3Codec.Bytes b = bytesThenCompressor(codecs);
            if (b != null) {
                byte[] part = Arrays.copyOfRange(bytes, off, off + len);
                byteCodec(codecs.get(1))
                        .decode(
                                part,
                                len,
                                Math.toIntExact(innerBytes),
                                ChunkBytes.sinkIntoRegion(shard, b.byteOrder(), dst, inner));
                if (checkpoint) {
                    HeapProbe.checkpoint();
                    Reference.reachabilityFence(part);
                }
                return;
            }
        } catch (CorruptDataException e) {
            throw e;
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
            throw new CorruptDataException("corrupt chunk " + where + ": " + e.getMessage(), e);
        }
        byte[] part = Arrays.copyOfRange(bytes, off, off + len);
        Chunk c = decode(codecs, part, dtype, inner, fill, where);
        if (checkpoint) {
            HeapProbe.checkpoint();
            Reference.reachabilityFence(part);
        }
        Chunk.copyRegion(c, new int[inner.length], shard, dst, inner);
    }

    static void checkRange(long off, long len, long shardBytes, int k, String where) {
        if (off < 0 || len < 0 || off + len > shardBytes || len > Integer.MAX_VALUE) {
            // The index holds unsigned 64-bit integers: name them as stored, not as negative longs.
            throw new StorageException("corrupt shard " + where + ": index entry " + k + " (offset "
                    + Long.toUnsignedString(off) + ", nbytes " + Long.toUnsignedString(len) + ") lies outside the "
                    + "shard's " + shardBytes + " bytes");
        }
    }

    private static void next(int[] pos, int[] extent) {
        for (int a = pos.length - 1; a >= 0; a--) {
            if (++pos[a] < extent[a]) {
                return;
            }
            pos[a] = 0;
        }
    }

    /**
     * Encodes a shard into one array of its exact size; null when every inner chunk equals the fill value (the shard
     * need not be stored). Holds, besides the shard, one inner chunk at a time with its encoding's temporaries, the
     * encoded inner chunks and the result; {@link #writeShard} streams instead where it can.
     */
    private static byte[] encodeShard(V3Codec.Sharding s, Chunk shard, Scalar fill) {
        int[] per = chunksPerShard(s, shard.shape(), "sharding_indexed");
        int count = Chunk.elementCount(per);
        int idxSize = indexSize(s, count);
        long[] index = new long[2 * count];
        byte[][] parts = new byte[count][];
        long offset = s.indexAtEnd() ? 0 : idxSize;
        InnerChunks inner = new InnerChunks(s, shard, per);
        for (int k = 0; k < count; k++) {
            Chunk c = inner.next(fill);
            if (c == null) {
                index[2 * k] = EMPTY;
                index[2 * k + 1] = EMPTY;
            } else {
                byte[] enc = encode(s.codecs(), c, fill);
                parts[k] = enc;
                index[2 * k] = offset;
                index[2 * k + 1] = enc.length;
                offset += enc.length;
            }
        }
        if (!inner.any) {
            return null;
        }
        byte[] idx = encodeIndex(s, per, index);
        long total = offset + (s.indexAtEnd() ? idx.length : 0);
        if (total > Integer.MAX_VALUE - 8) {
            throw new StorageException("a shard of " + total + " bytes is larger than one array can hold (2 GiB):"
                    + " choose smaller shards");
        }
        byte[] out = new byte[(int) total];
        // The encoded inner chunks and the shard's bytes: the most this encoding holds besides the shard.
        HeapProbe.checkpoint();
        int at = 0;
        if (!s.indexAtEnd()) {
            System.arraycopy(idx, 0, out, 0, idx.length);
            at = idx.length;
        }
        for (int k = 0; k < count; k++) {
            if (parts[k] != null) {
                System.arraycopy(parts[k], 0, out, at, parts[k].length);
                at += parts[k].length;
                parts[k] = null;
            }
        }
        if (s.indexAtEnd()) {
            System.arraycopy(idx, 0, out, at, idx.length);
        }
        return out;
    }

    /**
     * Writes the shard {@code shard}, which must not be all {@code fill} (such a shard is not stored), to {@code out}:
     * each inner chunk that is not all fill, as it is encoded, then the index, which must come at the end ({@link
     * V3Codec.Sharding#indexAtEnd}). Holds, besides the shard, one inner chunk and its encoding's temporaries: a chain
     * of {@code bytes} is written from the inner chunk's elements, and one of {@code bytes} then a compressor that
     * encodes in order (zstd) compressed from them as it goes.
     */
    static void writeShard(V3Codec.Sharding s, Chunk shard, Scalar fill, java.nio.channels.WritableByteChannel out)
            throws java.io.IOException {
        if (!s.indexAtEnd()) {
            throw new IllegalArgumentException("a shard whose index comes first cannot be written as it is encoded");
        }
        int[] per = chunksPerShard(s, shard.shape(), "sharding_indexed");
        int count = Chunk.elementCount(per);
        long[] index = new long[2 * count];
        long[] written = {0};
        java.nio.channels.WritableByteChannel counted = new java.nio.channels.WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) throws java.io.IOException {
                int n = out.write(src);
                written[0] += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return out.isOpen();
            }

            @Override
            public void close() {}
        };
        InnerChunks inner = new InnerChunks(s, shard, per);
        V3Codec.Bytes bytes = s.codecs().size() == 1 && s.codecs().get(0) instanceof V3Codec.Bytes b ? b : null;
        V3Codec.Bytes compressed = bytesThenCompressor(s.codecs());
        boolean measured = false;
        for (int k = 0; k < count; k++) {
            Chunk c = inner.next(fill);
            if (c == null) {
                index[2 * k] = EMPTY;
                index[2 * k + 1] = EMPTY;
                continue;
            }
            long start = written[0];
            if (bytes != null) {
                ChunkBytes.writeInSlices(ChunkBytes.view(c, bytes.byteOrder()), counted);
            } else if (compressed != null && byteCodec(s.codecs().get(1)).encodesInOrder()) {
                byteCodec(s.codecs().get(1)).encode(ChunkBytes.view(c, compressed.byteOrder()), counted);
            } else {
                writeFully(counted, encode(s.codecs(), c, fill));
            }
            index[2 * k] = start;
            index[2 * k + 1] = written[0] - start;
            if (!measured) {
                // The shard and one inner chunk: what this write holds (the others hold as much).
                HeapProbe.checkpoint();
                measured = true;
            }
        }
        writeFully(out, encodeIndex(s, per, index));
    }

    private static void writeFully(java.nio.channels.WritableByteChannel out, byte[] bytes) throws java.io.IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    /** The encoded index of a shard of {@code per} inner chunks from its (offset, nbytes) pairs. */
    private static byte[] encodeIndex(V3Codec.Sharding s, int[] per, long[] index) {
        int[] idxShape = Arrays.copyOf(per, per.length + 1);
        idxShape[per.length] = 2;
        return encode(s.indexCodecs(), Chunk.wrap(DType.UINT64, idxShape, index), Scalar.zero());
    }

    /**
     * The inner chunks of a shard in C order of its inner grid, each copied into one array used for all of them (an
     * inner chunk is encoded before the next is taken).
     */
    private static final class InnerChunks {
        private final Chunk shard;
        private final int[] per;
        private final int[] shape;
        private final int[] pos;
        private final Chunk c;
        boolean any;

        InnerChunks(V3Codec.Sharding s, Chunk shard, int[] per) {
            this.shard = shard;
            this.per = per;
            this.shape = s.chunkShapeArray();
            this.pos = new int[per.length];
            this.c = Chunk.allocate(shard.dtype(), shape);
        }

        /** The next inner chunk, or null when all its elements are {@code fill} (an empty entry of the index). */
        Chunk next(Scalar fill) {
            int[] src = new int[per.length];
            for (int a = 0; a < per.length; a++) {
                src[a] = pos[a] * shape[a];
            }
            V3Codecs.next(pos, per);
            Chunk.copyRegion(shard, src, c, new int[shape.length], shape);
            if (c.isAll(fill)) {
                return null;
            }
            any = true;
            return c;
        }
    }
}
