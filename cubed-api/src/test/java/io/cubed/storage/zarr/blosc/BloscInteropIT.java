package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.testing.ExternalTool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live interoperability with numcodecs (c-blosc 1.x) through {@code /usr/bin/python3}: frames encoded here decode
 * there, and frames numcodecs encodes from the same inputs decode here, over codecs, shuffles, element sizes, block
 * sizes, levels and inputs. Skipped, with the reason, when numcodecs cannot be imported.
 */
class BloscInteropIT {
    private static final String PYTHON = "/usr/bin/python3";
    private static final int[] TYPESIZES = {1, 2, 4, 8, 16, 3};

    @BeforeAll
    static void requireNumcodecs() throws InterruptedException {
        boolean available;
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import numcodecs, numpy")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            available = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            available = false;
        }
        ExternalTool.require(
                available, PYTHON + " cannot import numcodecs and numpy; interop with numcodecs not tested");
    }

    /** One case: encoding parameters and the raw input; {@code pyEncodes} if numcodecs can encode it too. */
    static final class Case {
        private final String id;
        private final BloscCname cname;
        private final int clevel;
        private final BloscShuffle shuffle;
        private final int blocksize;
        private final int typesize;
        private final byte[] raw;

        Case(String id, BloscCname cname, int clevel, BloscShuffle shuffle, int blocksize, int typesize, byte[] raw) {
            this.id = id;
            this.cname = cname;
            this.clevel = clevel;
            this.shuffle = shuffle;
            this.blocksize = blocksize;
            this.typesize = typesize;
            this.raw = raw;
        }

        String id() {
            return id;
        }

        BloscCname cname() {
            return cname;
        }

        int clevel() {
            return clevel;
        }

        BloscShuffle shuffle() {
            return shuffle;
        }

        int blocksize() {
            return blocksize;
        }

        int typesize() {
            return typesize;
        }

        byte[] raw() {
            return raw;
        }

        boolean pyEncodes() {
            return raw.length % typesize == 0 && raw.length > 0;
        }
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (BloscCname cname : BloscCname.values()) {
            for (BloscShuffle shuffle : BloscShuffle.values()) {
                for (int typesize : TYPESIZES) {
                    for (int blocksize : new int[] {0, 256}) {
                        int clevel = 1 + (out.size() % 9);
                        String p = cname.jsonName() + "_" + shuffle + "_t" + typesize + "_b" + blocksize;
                        out.add(new Case(
                                p + "_smooth",
                                cname,
                                clevel,
                                shuffle,
                                blocksize,
                                typesize,
                                BloscTestData.smooth(2503 * typesize, out.size())));
                        out.add(new Case(
                                p + "_steps",
                                cname,
                                5,
                                shuffle,
                                blocksize,
                                typesize,
                                BloscTestData.steps(997 * typesize, out.size())));
                        out.add(new Case(
                                p + "_random",
                                cname,
                                5,
                                shuffle,
                                blocksize,
                                typesize,
                                BloscTestData.random(397 * typesize, out.size())));
                        out.add(new Case(
                                p + "_tiny",
                                cname,
                                5,
                                shuffle,
                                blocksize,
                                typesize,
                                BloscTestData.random(3 * typesize, out.size())));
                        // Not a whole number of elements: numcodecs can decode it but not encode it.
                        out.add(new Case(
                                p + "_odd",
                                cname,
                                5,
                                shuffle,
                                blocksize,
                                typesize,
                                BloscTestData.steps(1001 * typesize + 1, out.size())));
                    }
                }
            }
            for (int clevel : new int[] {0, 5, 9}) {
                for (BloscShuffle shuffle : new BloscShuffle[] {BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
                    out.add(new Case(
                            cname.jsonName() + "_" + shuffle + "_big_c" + clevel,
                            cname,
                            clevel,
                            shuffle,
                            0,
                            8,
                            BloscTestData.smooth(300_000, clevel)));
                }
            }
        }
        return out;
    }

    @Test
    void framesCrossBetweenJavaAndNumcodecs(@TempDir Path dir) throws Exception {
        List<Case> cases = cases();
        StringBuilder manifest = new StringBuilder();
        for (Case c : cases) {
            BloscCodec codec = new BloscCodec(c.cname(), c.clevel(), c.shuffle(), c.blocksize(), c.typesize());
            Files.write(dir.resolve(c.id() + ".raw"), c.raw());
            Files.write(dir.resolve(c.id() + ".java.blosc"), codec.encode(c.raw()));
            manifest.append(String.join(
                            "\t",
                            c.id(),
                            c.cname().jsonName(),
                            Integer.toString(c.clevel()),
                            Integer.toString(c.shuffle().code()),
                            Integer.toString(c.blocksize()),
                            Integer.toString(c.typesize()),
                            Integer.toString(c.raw().length),
                            c.pyEncodes() ? "1" : "0"))
                    .append('\n');
        }
        Files.writeString(dir.resolve("manifest.tsv"), manifest);
        Path script = dir.resolve("interop.py");
        try (InputStream in = BloscInteropIT.class.getResourceAsStream("/blosc/interop.py")) {
            Files.write(script, in.readAllBytes());
        }

        Process p = new ProcessBuilder(PYTHON, script.toString(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("python finished").isTrue();
        assertThat(p.exitValue()).as("python exit code; output:\n" + output).isZero();

        Map<String, String> results = new HashMap<>();
        for (String line : output.split("\n", -1)) {
            if (!line.isBlank()) {
                String[] f = line.split("\t", 2);
                results.put(f[0], f[1]);
            }
        }
        List<String> failures = new ArrayList<>();
        int pyEncoded = 0;
        for (Case c : cases) {
            String r = results.get(c.id());
            if (!"OK".equals(r)) {
                failures.add(c.id() + ": numcodecs decoding the Java frame: " + r);
                continue;
            }
            if (!c.pyEncodes()) {
                continue;
            }
            pyEncoded++;
            byte[] theirs = Files.readAllBytes(dir.resolve(c.id() + ".py.blosc"));
            try {
                byte[] decoded =
                        new BloscCodec(BloscCname.ZSTD, 1, BloscShuffle.NOSHUFFLE, 0, 1).decode(theirs, c.raw().length);
                if (!Arrays.equals(decoded, c.raw())) {
                    failures.add(c.id() + ": Java decoding the numcodecs frame gave different bytes");
                }
            } catch (RuntimeException e) {
                failures.add(c.id() + ": Java decoding the numcodecs frame: " + e);
            }
            byte[] ours = Files.readAllBytes(dir.resolve(c.id() + ".java.blosc"));
            int memcpyed = BloscEncoder.FLAG_MEMCPYED;
            if ((ours[2] & ~memcpyed) != (theirs[2] & ~memcpyed)
                    || !Arrays.equals(Arrays.copyOfRange(ours, 3, 12), Arrays.copyOfRange(theirs, 3, 12))) {
                failures.add(c.id() + ": header differs from numcodecs: " + BloscFixturesTest.hex(ours, 12) + " vs "
                        + BloscFixturesTest.hex(theirs, 12));
            }
        }
        assertThat(failures)
                .as("%d cases, %d also encoded by numcodecs", cases.size(), pyEncoded)
                .isEmpty();
    }
}
