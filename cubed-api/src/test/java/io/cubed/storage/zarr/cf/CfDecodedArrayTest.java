package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A packed int16 Zarr array (scale 0.5, offset 10, fill value -32767, one chunk never written) read decoded, chunk by
 * chunk and through the array API, against a plain loop over the stored values.
 */
class CfDecodedArrayTest {
    private static final short FILL = -32767;

    @TempDir
    Path tmp;

    /** The stored value at (y, x): the fill value on a diagonal, else a formula. */
    private static short stored(int y, int x) {
        return y == x ? FILL : (short) (y * 100 - x * 7);
    }

    /** The reference decoding of a stored value: NaN for the fill value, else value * 0.5 + 10 in float32. */
    private static float decoded(short v) {
        return v == FILL ? Float.NaN : (float) v * 0.5f + 10f;
    }

    /** 6 x 5 in chunks of 4 x 3; chunk (1, 1) is never written. */
    private String write() {
        String url = tmp.resolve("packed.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {6, 5}, new int[] {4, 3}, DType.INT16)
                        .fillValue(Scalar.ofLong(FILL))
                        .build());
        a.writeAttributes(
                Map.of("_ARRAY_DIMENSIONS", List.of("y", "x"), "scale_factor", 0.5, "add_offset", 10L, "units", "K"));
        for (int cy = 0; cy < 2; cy++) {
            for (int cx = 0; cx < 2; cx++) {
                if (cy == 1 && cx == 1) {
                    continue;
                }
                int[] shape = a.grid().chunkShapeAt(new long[] {cy, cx});
                Chunk c = Chunk.allocate(DType.INT16, shape);
                for (int i = 0; i < shape[0]; i++) {
                    for (int j = 0; j < shape[1]; j++) {
                        c.shorts()[i * shape[1] + j] = stored(cy * 4 + i, cx * 3 + j);
                    }
                }
                a.writeChunk(c, cy, cx);
            }
        }
        return url;
    }

    /** The whole decoded array by the reference loop (the unwritten chunk: the fill value). */
    private static float[] reference() {
        float[] out = new float[30];
        for (int y = 0; y < 6; y++) {
            for (int x = 0; x < 5; x++) {
                out[y * 5 + x] = y >= 4 && x >= 3 ? Float.NaN : decoded(stored(y, x));
            }
        }
        return out;
    }

    @Test
    void readsDecodedChunksAndRegions() throws Exception {
        ZarrArray stored = ZarrArray.open(write());
        ChunkStore d = CfDecodedArray.of(stored, CfDecoding.of(stored, CfOptions.defaults()));
        assertThat(d.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(d.fillValue().doubleValue()).isNaN();
        assertThat(d.readRegion(new long[] {0, 0}, new int[] {6, 5}).floats()).containsExactly(reference());
        Chunk c01 = d.readChunk(0, 1);
        float[] ref = reference();
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 2; j++) {
                assertThat(Float.floatToIntBits(c01.floats()[i * 2 + j]))
                        .isEqualTo(Float.floatToIntBits(ref[i * 5 + 3 + j]));
            }
        }
        assertThat(d.readChunkIfStored(1, 1)).isNull();
        assertThat(d.chunkExists(1, 1)).isFalse();
        assertThatThrownBy(() -> d.writeChunk(c01, 0, 1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("read");
        // Tasks carry it: it serializes with its decoding.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(d);
        }
        ChunkStore back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (ChunkStore) in.readObject();
        }
        assertThat(back.readRegion(new long[] {0, 0}, new int[] {6, 5}).floats())
                .containsExactly(reference());
    }

    @Test
    void theArrayApiReadsDecoded() {
        String url = write();
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("100MB")
                .reservedMem(0)
                .build();
        CubedArray t = Cubed.fromZarr(url, spec, CfOptions.defaults());
        assertThat(t.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(t.dims()).contains(List.of("y", "x"));
        assertThat(t.compute().floats()).containsExactly(reference());
        double sum = 0;
        int n = 0;
        for (float v : reference()) {
            if (!Float.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        assertThat(Statistical.nanmean(t).compute().getDouble(0)).isCloseTo(sum / n, within(1e-4));
        CubedArray raw = Cubed.fromZarr(url, spec, CfOptions.none());
        assertThat(raw.dtype()).isEqualTo(DType.INT16);
        assertThat(raw.compute().shorts()[0]).isEqualTo(FILL);
    }
}
