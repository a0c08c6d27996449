package io.cubed.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.codec.Codec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

class BenchCodecsTest {
    @Test
    void codecBenchmarkCoversEveryNamedCodecOnce() throws NoSuchFieldException {
        String[] params = CodecBenchmark.class
                .getField("codec")
                .getAnnotation(Param.class)
                .value();
        List<String> expected = new ArrayList<>(BenchCodecs.names());
        expected.remove(BenchCodecs.DEFAULT);
        assertThat(params).containsExactlyElementsOf(expected);
    }

    @Test
    void bloscNamesAreBloscCompressors() {
        assertThat(BenchCodecs.bloscNames()).hasSize(6).contains("blosc-lz4-shuffle-5");
        for (String name : BenchCodecs.bloscNames()) {
            assertThat(BenchCodecs.compressor(name)).isInstanceOf(Compressor.Blosc.class);
        }
        assertThat(BenchCodecs.compressor("blosc-lz4-shuffle-5")).isEqualTo(Compressor.defaultCompressor());
    }

    @Test
    void nonBloscCodecsRoundTripBenchmarkData() {
        byte[] raw = Arrays.copyOf(BenchData.littleEndian(BenchData.field(1)), 1 << 16);
        for (String name : BenchCodecs.names()) {
            if (BenchCodecs.DEFAULT.equals(name) || BenchCodecs.bloscNames().contains(name)) {
                continue;
            }
            Codec codec = BenchCodecs.codec(name);
            assertThat(codec.decode(codec.encode(raw), raw.length)).as(name).isEqualTo(raw);
        }
    }

    @Test
    void copyCodecRejectsWrongSize() {
        assertThatThrownBy(() -> BenchCodecs.codec(BenchCodecs.NONE).decode(new byte[3], 4))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unknownNameIsRejected() {
        assertThatThrownBy(() -> BenchCodecs.compressor("snappy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snappy");
    }

    @Test
    void fieldIsDeterministicAndLooksLikeAField() {
        double[] a = BenchData.field(7);
        assertThat(a).hasSize(BenchData.ELEMENTS).isEqualTo(BenchData.field(7));
        assertThat(BenchData.field(8)).isNotEqualTo(a);
        assertThat(Arrays.stream(a).min().orElseThrow()).isGreaterThan(250);
        assertThat(Arrays.stream(a).max().orElseThrow()).isLessThan(310);
        assertThat(BenchData.littleEndian(a)).hasSize(BenchData.CHUNK_BYTES);
    }
}
