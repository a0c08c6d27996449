package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.Elementwise;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.cf.CfOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A uint64 fill value of 2^63 or more, as zarr-python writes it (2^64 - 1 in JSON), is that unsigned value: shown as
 * such, converted to float as such, and masked by CF decoding (xarray's decode_cf gives NaN where it is stored).
 */
class UnsignedFillValueTest {
    @TempDir
    Path tmp;

    @Test
    void aUint64FillAbove2To63IsTheUnsignedValue() {
        String url = tmp.resolve("u.zarr").toString();
        Stores.open(url)
                .put(
                        ".zarray",
                        ("{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\": \"<u8\", \"compressor\": null,"
                                        + " \"fill_value\": 18446744073709551615, \"order\": \"C\", \"filters\": null}")
                                .getBytes(StandardCharsets.UTF_8));
        ZarrArray a = ZarrArray.open(url);
        assertThat(a.metadata().fillValue().toString()).isEqualTo("18446744073709551615");
        a.writeChunk(Chunk.wrap(DType.UINT64, new int[] {2}, new long[] {1, 2}), 0);
        // Chunk 1 is never written: it reads as the fill value.
        Spec spec = Spec.builder().workDir(tmp.resolve("work").toString()).build();
        assertThat(Cubed.fromZarr(url, spec).compute().longs()).containsExactly(1, 2, -1, -1);
        assertThat(Elementwise.astype(Cubed.fromZarr(url, spec), DType.FLOAT64)
                        .compute()
                        .doubles())
                .containsExactly(1, 2, 0x1p64, 0x1p64);
        assertThat(Cubed.fromZarr(url, spec, CfOptions.defaults()).compute().doubles())
                .containsExactly(1, 2, Double.NaN, Double.NaN);
        // Written back, the fill value is the same unsigned integer.
        assertThat(new String(Stores.open(url).get(".zarray"), StandardCharsets.UTF_8))
                .contains("18446744073709551615");
        assertThat(
                        ZarrFormat.of(a)
                                                .create(
                                                        tmp.resolve("copy.zarr").toString(),
                                                        a.grid(),
                                                        DType.UINT64,
                                                        false,
                                                        StoreOptions.empty())
                                        instanceof ZarrArray z
                                ? new String(Stores.open(z.url()).get(".zarray"), StandardCharsets.UTF_8)
                                : "")
                .contains("\"fill_value\": 18446744073709551615");
    }
}
