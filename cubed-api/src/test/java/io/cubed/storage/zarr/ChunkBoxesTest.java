package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A chunk handed over box by box as its bytes are decoded: which boxes, and that they rebuild the chunk. */
class ChunkBoxesTest {
    /** A box as received: where it starts in the chunk, its shape and (copied) values. */
    private record Box(int[] offset, int[] shape, double[] values) {
        @Override
        public String toString() {
            return Arrays.toString(offset) + " " + Arrays.toString(shape);
        }
    }

    private static double[] values(Chunk c) {
        double[] v = new double[c.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = c.dtype() == DType.INT32 ? c.ints()[i] : c.doubles()[i];
        }
        return v;
    }

    /** A sink that records every box it gets in {@code boxes}. */
    private static io.cubed.storage.ChunkStore.BoxSink into(List<Box> boxes) {
        return (off, box) -> boxes.add(new Box(off.clone(), box.shape().clone(), values(box)));
    }

    /** Puts the boxes back together into a chunk of {@code shape}, failing on any element covered twice or never. */
    private static double[] rebuild(int[] shape, List<Box> boxes) {
        int n = Chunk.elementCount(shape);
        double[] out = new double[n];
        boolean[] seen = new boolean[n];
        int[] stride = Chunk.strides(shape);
        for (Box b : boxes) {
            int[] s = Chunk.strides(b.shape());
            for (int i = 0; i < b.values().length; i++) {
                int flat = 0;
                int rem = i;
                for (int a = 0; a < shape.length; a++) {
                    flat += (b.offset()[a] + rem / s[a]) * stride[a];
                    rem %= s[a];
                }
                assertThat(seen[flat]).as("element %d covered twice", flat).isFalse();
                seen[flat] = true;
                out[flat] = b.values()[i];
            }
        }
        for (int i = 0; i < n; i++) {
            assertThat(seen[i]).as("element %d never covered", i).isTrue();
        }
        return out;
    }

    @Test
    void runsThatSplitElementsAndRowsRebuildTheChunk() {
        int[] shape = {3, 4, 5};
        Chunk chunk = Chunk.allocate(DType.INT32, shape);
        for (int i = 0; i < chunk.size(); i++) {
            chunk.ints()[i] = 1000 + 7 * i;
        }
        byte[] bytes = ElementBytes.encode(chunk, ByteOrder.LITTLE_ENDIAN, false);
        for (int run : new int[] {1, 3, 5, 20, 37, 80, 240}) {
            List<Box> boxes = new ArrayList<>();
            ChunkBoxes sink = new ChunkBoxes(DType.INT32, ByteOrder.LITTLE_ENDIAN, shape, into(boxes));
            for (int at = 0; at < bytes.length; at += run) {
                sink.accept(at, bytes, at, Math.min(run, bytes.length - at));
            }
            sink.checkComplete();
            assertThat(rebuild(shape, boxes)).as("runs of %d bytes", run).containsExactly(values(chunk));
        }
    }

    @Test
    void eachRunGoesOverAsTheFewestBoxes() {
        int[] shape = {3, 4, 5};
        Chunk chunk = Chunk.allocate(DType.INT32, shape);
        byte[] bytes = ElementBytes.encode(chunk, ByteOrder.LITTLE_ENDIAN, false);
        List<Box> boxes = new ArrayList<>();
        ChunkBoxes sink = new ChunkBoxes(DType.INT32, ByteOrder.LITTLE_ENDIAN, shape, into(boxes));
        // Elements 0-26, then 27-59: 27 = one plane of 20, one row of 5, two elements.
        sink.accept(0, bytes, 0, 27 * 4);
        sink.accept(27 * 4, bytes, 27 * 4, bytes.length - 27 * 4);
        sink.checkComplete();
        assertThat(boxes.stream().map(Box::toString))
                .containsExactly(
                        "[0, 0, 0] [1, 4, 5]",
                        "[1, 0, 0] [1, 1, 5]",
                        "[1, 1, 0] [1, 1, 2]",
                        "[1, 1, 2] [1, 1, 3]",
                        "[1, 2, 0] [1, 2, 5]",
                        "[2, 0, 0] [1, 4, 5]");
    }

    @Test
    void missingBytesAreAnError() {
        ChunkBoxes sink = new ChunkBoxes(DType.INT32, ByteOrder.LITTLE_ENDIAN, new int[] {2, 2}, (off, box) -> {});
        sink.accept(0, new byte[10], 0, 10);
        assertThatThrownBy(sink::checkComplete)
                .isInstanceOf(StorageException.class)
                .hasMessage("the decoded bytes covered 2 of the 4 elements of a chunk of shape [2, 2] and part of one"
                        + " more");
    }

    @Test
    void aBloscChunkGoesOverBlockByBlockAndAnEdgeChunkWhole() {
        // (6, 6) float64 in chunks of (4, 6), Blosc blocks of 128 bytes (16 elements): a chunk is 24 elements.
        ZarrArray z = ZarrArray.create(
                "memory://chunk-boxes-" + UUID.randomUUID() + "/a.zarr",
                ZarrCreateOptions.builder(new long[] {6, 6}, new int[] {4, 6}, DType.FLOAT64)
                        .compressor(new Compressor.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 128))
                        .build());
        Chunk all = Chunk.allocate(DType.FLOAT64, 6, 6);
        for (int i = 0; i < 36; i++) {
            all.doubles()[i] = i * 0.5 - 3;
        }
        Chunk first = Chunk.allocate(DType.FLOAT64, 4, 6);
        Chunk.copyRegion(all, new int[] {0, 0}, first, new int[] {0, 0}, new int[] {4, 6});
        Chunk edge = Chunk.allocate(DType.FLOAT64, 2, 6);
        Chunk.copyRegion(all, new int[] {4, 0}, edge, new int[] {0, 0}, new int[] {2, 6});
        z.writeChunk(first, 0, 0);
        z.writeChunk(edge, 1, 0);
        List<Box> boxes = new ArrayList<>();
        z.readChunkInBoxes(new long[] {0, 0}, into(boxes));
        // Block 0: elements 0-15 = rows 0-1 and four of row 2; block 1: elements 16-23.
        assertThat(boxes.stream().map(Box::toString))
                .containsExactly("[0, 0] [2, 6]", "[2, 0] [1, 4]", "[2, 4] [1, 2]", "[3, 0] [1, 6]");
        assertThat(rebuild(new int[] {4, 6}, boxes)).containsExactly(values(first));
        boxes.clear();
        z.readChunkInBoxes(new long[] {1, 0}, into(boxes));
        assertThat(boxes.stream().map(Box::toString)).containsExactly("[0, 0] [2, 6]");
        assertThat(boxes.get(0).values()).containsExactly(values(edge));
    }

    @Test
    void aRunThatIsOneWholeBoxIsWrittenByTheCodecIntoTheBoxsArray() {
        int[] shape = {3, 4, 5};
        double[] expected = new double[60];
        for (int i = 0; i < 60; i++) {
            expected[i] = i * 1.5 - 7;
        }
        Chunk chunk = Chunk.allocate(DType.FLOAT64, shape);
        System.arraycopy(expected, 0, chunk.doubles(), 0, 60);
        byte[] bytes = ElementBytes.encode(chunk, ByteOrder.LITTLE_ENDIAN, false);
        List<Box> boxes = new ArrayList<>();
        ChunkBoxes sink = new ChunkBoxes(DType.FLOAT64, ByteOrder.LITTLE_ENDIAN, shape, into(boxes));
        // Elements 0-19: one plane, one box; the codec writes them into its array.
        io.cubed.storage.zarr.codec.RawBytesSink.Doubles d = sink.doublesFor(0, 160);
        assertThat(d).isNotNull();
        assertThat(d.array().length).isGreaterThanOrEqualTo(20);
        System.arraycopy(expected, 0, d.array(), d.offset(), 20);
        sink.acceptedAsDoubles(0, 160);
        // Elements 20-46 are a plane, a row and two elements: not one box; they come as bytes.
        assertThat(sink.doublesFor(160, 27 * 8)).isNull();
        sink.accept(160, bytes, 160, 27 * 8 + 3);
        // Part of element 47 is pending: no values until it is complete.
        assertThat(sink.doublesFor(48 * 8, 8)).isNull();
        sink.accept(27 * 8 + 163, bytes, 27 * 8 + 163, 5);
        // Elements 48-49 (the end of a row), then 50-59 (two rows): one box each.
        d = sink.doublesFor(48 * 8, 16);
        assertThat(d).isNotNull();
        System.arraycopy(expected, 48, d.array(), d.offset(), 2);
        sink.acceptedAsDoubles(48 * 8, 16);
        d = sink.doublesFor(50 * 8, 80);
        assertThat(d).isNotNull();
        System.arraycopy(expected, 50, d.array(), d.offset(), 10);
        sink.acceptedAsDoubles(50 * 8, 80);
        sink.checkComplete();
        assertThat(boxes.get(0).toString()).isEqualTo("[0, 0, 0] [1, 4, 5]");
        assertThat(boxes.get(boxes.size() - 1).toString()).isEqualTo("[2, 2, 0] [1, 2, 5]");
        assertThat(rebuild(shape, boxes)).containsExactly(expected);
        assertThatThrownBy(() -> sink.acceptedAsDoubles(0, 8))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not asked for");
        // Other types and byte orders are converted from bytes.
        assertThat(new ChunkBoxes(DType.INT64, ByteOrder.LITTLE_ENDIAN, shape, (o, b) -> {}).doublesFor(0, 160))
                .isNull();
        assertThat(new ChunkBoxes(DType.FLOAT64, ByteOrder.BIG_ENDIAN, shape, (o, b) -> {}).doublesFor(0, 160))
                .isNull();
    }
}
