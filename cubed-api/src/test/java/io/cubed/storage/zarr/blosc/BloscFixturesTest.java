package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Decodes frames written by numcodecs (see {@code blosc/generate_fixtures.py}) and compares with the raw inputs. */
class BloscFixturesTest {
    private static final String DIR = "/blosc/fixtures/";

    /** One line of {@code index.tsv}. */
    record Fixture(
            String name, String raw, String cname, int clevel, int shuffle, int blocksize, int typesize, int nbytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Fixture> fixtures() {
        String index = new String(read(DIR + "index.tsv"), StandardCharsets.UTF_8);
        List<Fixture> out = new ArrayList<>();
        for (String line : index.split("\n", -1)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            out.add(new Fixture(
                    f[0],
                    f[1],
                    f[2],
                    Integer.parseInt(f[3]),
                    Integer.parseInt(f[4]),
                    Integer.parseInt(f[5]),
                    Integer.parseInt(f[6]),
                    Integer.parseInt(f[7])));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void decodesNumcodecsFrame(Fixture fixture) {
        byte[] raw = gunzip(read(DIR + fixture.raw() + ".raw.gz"));
        byte[] frame = read(DIR + fixture.name() + ".blosc");
        assertThat(raw).hasSize(fixture.nbytes());

        byte[] decoded = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.NOSHUFFLE, 0, 1).decode(frame, raw.length);

        assertThat(decoded).isEqualTo(raw);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void encoderWritesTheSameHeaderAsNumcodecs(Fixture fixture) {
        byte[] raw = gunzip(read(DIR + fixture.raw() + ".raw.gz"));
        byte[] theirs = read(DIR + fixture.name() + ".blosc");
        BloscCodec codec = new BloscCodec(
                BloscCname.fromJsonName(fixture.cname()),
                fixture.clevel(),
                BloscShuffle.fromCode(fixture.shuffle()),
                fixture.blocksize(),
                fixture.typesize());

        byte[] ours = codec.encode(raw);

        // Same versions, flags (except whether the frame fell back to storing), typesize, nbytes and blocksize.
        int memcpyed = BloscEncoder.FLAG_MEMCPYED;
        assertThat(hex(ours, 2)).as("versions").isEqualTo(hex(theirs, 2));
        assertThat(ours[2] & ~memcpyed).as("flags").isEqualTo(theirs[2] & ~memcpyed);
        assertThat(Arrays.copyOfRange(ours, 3, 12))
                .as("typesize, nbytes, blocksize")
                .isEqualTo(Arrays.copyOfRange(theirs, 3, 12));
        if ((ours[2] & memcpyed) != 0 && (theirs[2] & memcpyed) != 0) {
            assertThat(ours).as("stored frame").isEqualTo(theirs);
        }
        assertThat(codec.decode(ours, raw.length)).isEqualTo(raw);
    }

    @Test
    void fixturesCoverEveryCodecAndShuffle() {
        List<Fixture> all = fixtures();
        for (BloscCname c : BloscCname.values()) {
            for (int s = -1; s <= 2; s++) {
                int shuffle = s;
                if (shuffle == -1 && c != BloscCname.BLOSCLZ && c != BloscCname.LZ4) {
                    continue;
                }
                assertThat(all)
                        .as(c + " " + shuffle)
                        .anyMatch(f -> f.cname().equals(c.jsonName()) && f.shuffle() == shuffle);
            }
        }
    }

    static byte[] read(String resource) {
        try (InputStream in = BloscFixturesTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] gunzip(byte[] gz) {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String hex(byte[] b, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(n, b.length); i++) {
            sb.append(String.format(Locale.ROOT, "%02x", b[i] & 0xFF));
        }
        return sb.toString();
    }
}
