package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A chunk's raw bytes given run by run ({@link ChunkBytes#view}) are the bytes {@link ElementBytes#encode} writes, and
 * runs given to {@link ChunkBytes#sinkInto} rebuild the chunk {@link ElementBytes#decode} reads, for every data type,
 * both byte orders and runs that start and end anywhere, inside elements too.
 */
class ChunkBytesTest {
    /** A chunk of {@code dtype} whose every byte is pseudo-random (booleans: 0 or 1). */
    private static Chunk randomChunk(DType dtype, int[] shape, SplittableRandom r) {
        int n = 1;
        for (int s : shape) {
            n *= s;
        }
        byte[] raw = new byte[n * dtype.itemSizeBytes()];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = dtype == DType.BOOL ? (byte) r.nextInt(2) : (byte) r.nextInt(256);
        }
        return ElementBytes.decode(raw, dtype, ByteOrder.LITTLE_ENDIAN, shape, false);
    }

    /** Cuts {@code [0, size)} into runs of random lengths from 0 to {@code maxRun} bytes. */
    private static List<int[]> runs(int size, int maxRun, SplittableRandom r) {
        List<int[]> runs = new ArrayList<>();
        int at = 0;
        while (at < size) {
            int len = Math.min(size - at, r.nextInt(maxRun + 1));
            runs.add(new int[] {at, len});
            at += len;
        }
        return runs;
    }

    @Test
    void runsOfTheViewAreTheEncodedBytes() {
        SplittableRandom r = new SplittableRandom(7);
        for (DType dtype : DType.values()) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                for (int trial = 0; trial < 20; trial++) {
                    int[] shape = {1 + r.nextInt(7), 1 + r.nextInt(9)};
                    Chunk c = randomChunk(dtype, shape, r);
                    byte[] expected = ElementBytes.encode(c, order, false);
                    RawBytes view = ChunkBytes.view(c, order);
                    assertThat(view.size()).isEqualTo(expected.length);
                    byte[] got = new byte[expected.length + 5];
                    for (int[] run : runs(expected.length, 3 * dtype.itemSizeBytes() + 2, r)) {
                        view.copyTo(run[0], got, run[0] + 5, run[1]);
                    }
                    for (int i = 0; i < expected.length; i++) {
                        assertThat(got[i + 5])
                                .as("%s %s byte %d", dtype, order, i)
                                .isEqualTo(expected[i]);
                    }
                }
            }
        }
    }

    @Test
    void runsGivenToTheSinkRebuildTheChunkInOrderAndOutOfOrderBetweenElements() {
        SplittableRandom r = new SplittableRandom(11);
        for (DType dtype : DType.values()) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                for (int trial = 0; trial < 20; trial++) {
                    int[] shape = {1 + r.nextInt(7), 1 + r.nextInt(9)};
                    Chunk source = randomChunk(dtype, shape, r);
                    byte[] raw = ElementBytes.encode(source, order, false);
                    Chunk expected = ElementBytes.decode(raw, dtype, order, shape, false);
                    Chunk got = Chunk.allocate(dtype, shape);
                    RawBytesSink sink = ChunkBytes.sinkInto(got, order);
                    List<int[]> runs = runs(raw.length, 3 * dtype.itemSizeBytes() + 2, r);
                    if (trial % 2 == 1) {
                        // Whole-element runs in any order (a codec whose blocks are whole elements may do that).
                        runs = runs(raw.length / dtype.itemSizeBytes(), 4, r).stream()
                                .map(e -> new int[] {e[0] * dtype.itemSizeBytes(), e[1] * dtype.itemSizeBytes()})
                                .collect(java.util.stream.Collectors.toCollection(ArrayList::new));
                        Collections.shuffle(runs, new java.util.Random(trial));
                    }
                    for (int[] run : runs) {
                        byte[] padded = new byte[run[1] + 3];
                        System.arraycopy(raw, run[0], padded, 3, run[1]);
                        sink.accept(run[0], padded, 3, run[1]);
                    }
                    assertThat(got.contentEquals(expected))
                            .as("%s %s %s", dtype, order, java.util.Arrays.toString(shape))
                            .isTrue();
                }
            }
        }
    }

    @Test
    void bloscDecodesBlockByBlockIntoChunksAndEncodesFromThemWhateverItsBlocksAndElementSize() {
        SplittableRandom r = new SplittableRandom(3);
        int[] shape = {37, 41};
        for (DType dtype : new DType[] {DType.FLOAT64, DType.INT32, DType.INT16, DType.COMPLEX128, DType.BOOL}) {
            Chunk source = randomChunk(dtype, shape, r);
            byte[] raw = ElementBytes.encode(source, ByteOrder.LITTLE_ENDIAN, false);
            // Frames as other writers make them: element sizes that are not the dtype's (blocks that end inside an
            // element), forced odd block sizes, every filter.
            for (int typesize : new int[] {1, 3, dtype.itemSizeBytes()}) {
                for (int blocksize : new int[] {0, 1000, 4096 + 7}) {
                    for (io.cubed.storage.zarr.blosc.BloscShuffle shuffle :
                            io.cubed.storage.zarr.blosc.BloscShuffle.values()) {
                        io.cubed.storage.zarr.blosc.BloscCodec codec = new io.cubed.storage.zarr.blosc.BloscCodec(
                                io.cubed.storage.zarr.blosc.BloscCname.LZ4, 5, shuffle, blocksize, typesize);
                        String what = dtype + " typesize " + typesize + " blocksize " + blocksize + " " + shuffle;
                        byte[] frame = codec.encode(raw);
                        Chunk got = Chunk.allocate(dtype, shape);
                        codec.decode(frame, raw.length, ChunkBytes.sinkInto(got, ByteOrder.LITTLE_ENDIAN));
                        assertThat(got.contentEquals(source)).as(what).isTrue();
                        // Encoding from the chunk's view gives the frame encoding its bytes gives.
                        io.cubed.storage.zarr.codec.Codec.Encoded e =
                                codec.encode(ChunkBytes.view(source, ByteOrder.LITTLE_ENDIAN));
                        assertThat(java.util.Arrays.copyOf(e.buffer(), e.length()))
                                .as(what)
                                .isEqualTo(frame);
                    }
                }
            }
        }
    }

    @Test
    void aFloat64ChunkOffersItsOwnArrayForWholeLittleEndianValues() {
        Chunk chunk = Chunk.allocate(DType.FLOAT64, 4, 5);
        RawBytesSink sink = ChunkBytes.sinkInto(chunk, ByteOrder.LITTLE_ENDIAN);
        RawBytesSink.Doubles d = sink.doublesFor(16, 64);
        assertThat(d).isNotNull();
        assertThat(d.array()).isSameAs(chunk.doubles());
        assertThat(d.offset()).isEqualTo(2);
        // A codec writes the values there and says so; they are the chunk's.
        for (int i = 0; i < 8; i++) {
            d.array()[d.offset() + i] = 0.25 * i;
        }
        sink.acceptedAsDoubles(16, 64);
        assertThat(chunk.doubles()[9]).isEqualTo(1.75);
        // Not for runs inside a value, past the chunk, or while part of a value waits for its last bytes.
        assertThat(sink.doublesFor(4, 64)).isNull();
        assertThat(sink.doublesFor(8, 12)).isNull();
        assertThat(sink.doublesFor(96, 80)).isNull();
        sink.accept(0, new byte[3], 0, 3);
        assertThat(sink.doublesFor(80, 8)).isNull();
        // Nor where the bytes are converted: big-endian values, other types.
        assertThat(ChunkBytes.sinkInto(chunk, ByteOrder.BIG_ENDIAN).doublesFor(0, 8))
                .isNull();
        assertThat(ChunkBytes.sinkInto(Chunk.allocate(DType.INT64, 4, 5), ByteOrder.LITTLE_ENDIAN)
                        .doublesFor(0, 8))
                .isNull();
        // complex128 is two float64 values per element, written as they are.
        Chunk complex = Chunk.allocate(DType.COMPLEX128, 2, 2);
        RawBytesSink.Doubles c =
                ChunkBytes.sinkInto(complex, ByteOrder.LITTLE_ENDIAN).doublesFor(16, 32);
        assertThat(c).isNotNull();
        assertThat(c.offset()).isEqualTo(2);
    }

    @Test
    void aFloat64ChunksViewOffersItsOwnArrayForWholeLittleEndianValues() {
        Chunk chunk = Chunk.allocate(DType.FLOAT64, 4, 5);
        RawBytes view = ChunkBytes.view(chunk, ByteOrder.LITTLE_ENDIAN);
        RawBytesSink.Doubles d = view.doublesAt(24, 80);
        assertThat(d).isNotNull();
        assertThat(d.array()).isSameAs(chunk.doubles());
        assertThat(d.offset()).isEqualTo(3);
        assertThat(view.doublesAt(4, 8)).isNull();
        assertThat(view.doublesAt(0, 12)).isNull();
        assertThat(view.doublesAt(80, 88)).isNull();
        assertThat(ChunkBytes.view(chunk, ByteOrder.BIG_ENDIAN).doublesAt(0, 8)).isNull();
        assertThat(ChunkBytes.view(Chunk.allocate(DType.INT64, 4, 5), ByteOrder.LITTLE_ENDIAN)
                        .doublesAt(0, 8))
                .isNull();
    }
}
