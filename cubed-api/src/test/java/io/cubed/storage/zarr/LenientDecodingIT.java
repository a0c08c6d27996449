package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.zarr.codec.Codec;
import io.cubed.testing.ExternalTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live check of {@link LenientDecodingTest}'s table: the crafted frames (a valid chunk with zero bytes or garbage after
 * it, cut short, stored twice) are decoded by numcodecs through {@code /usr/bin/python3} and by our codecs, and both
 * accept or refuse each one alike. Blosc frames cut short are left out: c-blosc reads past the buffer there.
 */
class LenientDecodingIT {
    private static final String PYTHON = "/usr/bin/python3";
    private static final String[][] CODECS = {
        {"blosc:lz4:5:1", "numcodecs.Blosc(cname='lz4', clevel=5, shuffle=1)"},
        {"blosc:zstd:3:1", "numcodecs.Blosc(cname='zstd', clevel=3, shuffle=1)"},
        {"blosc:lz4:0:0", "numcodecs.Blosc(cname='lz4', clevel=0, shuffle=0)"},
        {"zlib:1", "numcodecs.Zlib(level=1)"},
        {"gzip:1", "numcodecs.GZip(level=1)"},
        {"zstd:1", "numcodecs.Zstd(level=1)"},
        {"lz4", "numcodecs.LZ4()"},
        {"bz2:1", "numcodecs.BZ2(level=1)"},
    };

    @TempDir
    Path dir;

    private static boolean numcodecsAvailable() {
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import numcodecs").start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void numcodecsAndWeAcceptAndRefuseTheSameFrames() throws Exception {
        ExternalTool.require(
                numcodecsAvailable(), PYTHON + " with numcodecs is not installed (apt-get install python3-numcodecs)");
        Files.write(dir.resolve("data.bin"), LenientDecodingTest.DATA);
        Map<String, Boolean> ours = new LinkedHashMap<>();
        StringBuilder py = new StringBuilder("import numcodecs, sys\nd = sys.argv[1]\n")
                .append("data = open(d + '/data.bin', 'rb').read()\nout = []\n");
        for (int i = 0; i < CODECS.length; i++) {
            Codec c = LenientDecodingTest.codec(CODECS[i][0]);
            byte[] enc = c.encode(LenientDecodingTest.DATA);
            py.append("c = ").append(CODECS[i][1]).append('\n');
            for (Map.Entry<String, byte[]> v : LenientDecodingTest.variants(enc).entrySet()) {
                if (CODECS[i][0].startsWith("blosc") && v.getKey().equals("truncated")) {
                    continue;
                }
                String name = i + "-" + v.getKey();
                Files.write(dir.resolve(name), v.getValue());
                boolean accepted;
                try {
                    accepted = java.util.Arrays.equals(
                            c.decode(v.getValue(), LenientDecodingTest.DATA.length), LenientDecodingTest.DATA);
                } catch (io.cubed.error.StorageException e) {
                    accepted = false;
                }
                ours.put(name, accepted);
                // numcodecs accepts a frame when it decodes to exactly the chunk (zarr-python refuses other sizes).
                py.append("try:\n    ok = bytes(c.decode(open(d + '/")
                        .append(name)
                        .append("', 'rb').read())) == data\n")
                        .append("except Exception:\n    ok = False\n")
                        .append("out.append('")
                        .append(name)
                        .append(" ' + str(ok))\n");
            }
        }
        py.append("print('\\n'.join(out))\n");
        Path script = dir.resolve("decode.py");
        Files.writeString(script, py.toString(), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(PYTHON, script.toString(), dir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        List<String> mismatches = new ArrayList<>();
        int compared = 0;
        for (String line : output.strip().split("\n")) {
            String[] parts = line.split(" ");
            boolean theirs = parts[1].equals("True");
            compared++;
            if (ours.get(parts[0]) != theirs) {
                mismatches.add(parts[0] + ": numcodecs " + (theirs ? "accepts" : "refuses") + ", we "
                        + (ours.get(parts[0]) ? "accept" : "refuse"));
            }
        }
        assertThat(compared).isEqualTo(ours.size());
        assertThat(mismatches).isEmpty();
    }
}
