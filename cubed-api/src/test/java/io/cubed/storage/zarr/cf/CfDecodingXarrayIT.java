package io.cubed.storage.zarr.cf;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Zarr;
import io.cubed.testing.PythonTool;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoding rules against live xarray: {@code cf-decoding/cases.py} writes arrays with CF attributes through
 * zarr-python and prints what xarray decodes each to; every array read here decoded has xarray's dtype and, value
 * for value, its numbers (float32 bit for bit), its missing values, its times and its durations. Arrays whose cftime dates are not
 * all Gregorian ones stay numeric here and equal xarray's values decoded without times. The interpreter is {@code
 * -Dcubed.test.python} (default {@code /usr/bin/python3}); skipped without xarray, failed in CI.
 */
class CfDecodingXarrayIT {

    /** Cases read as coordinates (every value known), by the name cases.py gives them. */
    private static final Set<String> COORDINATES = Set.of(
            "time_360_coordinate", "time_360_coordinate_feb30", "time_julian_coordinate", "duration_hours_coordinate");

    /** Cases whose times stay numeric: a 360-day or all-leap data variable, a coordinate holding February 30. */
    private static final Set<String> NUMERIC_TIMES =
            Set.of("time_360_variable", "time_all_leap_variable", "time_360_coordinate_feb30");

    private static final DateTimeFormatter LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void everyCaseDecodesAsXarrayDecodesIt() throws Exception {
        PythonTool.requireModules("xarray", "zarr");
        Path script = Path.of(getClass().getResource("/cf-decoding/cases.py").toURI());
        Map<String, Object> cases = PythonTool.runForJson(script, 120, tmp.toString());
        assertThat(cases).hasSizeGreaterThan(20);
        for (Map.Entry<String, Object> e : cases.entrySet()) {
            check(e.getKey(), (Map<String, Object>) e.getValue());
        }
    }

    @SuppressWarnings("unchecked")
    private void check(String name, Map<String, Object> want) {
        ChunkStore stored = Zarr.open(tmp.resolve(name + ".zarr").resolve("v").toString(), StoreOptions.empty());
        Chunk raw =
                stored.readRegion(new long[] {0}, new int[] {(int) stored.grid().shape()[0]});
        CfDecoding d = COORDINATES.contains(name)
                ? CfDecoding.ofCoordinate(stored, CfOptions.defaults(), raw)
                : CfDecoding.of(stored, CfOptions.defaults());
        Chunk got = CfDecodedArray.of(stored, d).readRegion(new long[] {0}, new int[] {raw.size()});
        String dtype = (String) want.get("dtype");
        List<Object> values = (List<Object>) want.get("values");
        if (NUMERIC_TIMES.contains(name)) {
            assertThat(dtype).as(name).isEqualTo("object");
            assertThat(d.isTime()).as(name).isFalse();
            assertThat(d.keptTimeUnits()).as(name).isNotNull();
            assertNumbers(name, got, (List<Object>) want.get("numeric"));
        } else if (dtype.startsWith("timedelta64")) {
            // Durations: microseconds, xarray's nanoseconds rounded to the nearest (half up).
            assertThat(d.isDuration()).as(name).isTrue();
            assertThat(got.dtype()).as(name).isEqualTo(io.cubed.dtype.DType.INT64);
            for (int i = 0; i < values.size(); i++) {
                assertThat(got.longs()[i]).as("%s[%d]", name, i).isEqualTo(nearestMicros(values.get(i)));
            }
        } else if (dtype.startsWith("datetime64") || dtype.equals("object")) {
            assertThat(d.isTime()).as(name).isTrue();
            for (int i = 0; i < values.size(); i++) {
                long m = got.longs()[i];
                Object w = values.get(i);
                if (w == null) {
                    assertThat(m).as("%s[%d]", name, i).isEqualTo(CfTimeUnits.NAT);
                } else if (w instanceof String label) {
                    assertThat(label(m)).as("%s[%d]", name, i).isEqualTo(label);
                } else {
                    // datetime64 nanoseconds, to the nearest microsecond (half up).
                    assertThat(m).as("%s[%d]", name, i).isEqualTo(nearestMicros(w));
                }
            }
        } else {
            assertThat(got.dtype().typeName()).as(name).isEqualTo(dtype);
            assertNumbers(name, got, values);
        }
    }

    /** xarray's nanoseconds {@code w} (null: NaT) as the library shows them: the nearest microsecond, ties up. */
    private static long nearestMicros(Object w) {
        if (w == null) {
            return CfTimeUnits.NAT;
        }
        long ns = ((Number) w).longValue();
        return Math.floorDiv(ns, 1000L) + (Math.floorMod(ns, 1000L) >= 500 ? 1 : 0);
    }

    private static String label(long micros) {
        return LocalDateTime.ofEpochSecond(
                        Math.floorDiv(micros, 1_000_000L),
                        (int) Math.floorMod(micros, 1_000_000L) * 1000,
                        ZoneOffset.UTC)
                .format(LABEL);
    }

    private static void assertNumbers(String name, Chunk got, List<Object> want) {
        assertThat(got.size()).as(name).isEqualTo(want.size());
        for (int i = 0; i < want.size(); i++) {
            Object w = want.get(i);
            String where = name + "[" + i + "]";
            switch (got.dtype()) {
                case FLOAT32 -> {
                    if (w == null) {
                        assertThat(Float.isNaN(got.floats()[i])).as(where).isTrue();
                    } else {
                        assertThat(Float.floatToIntBits(got.floats()[i]))
                                .as(where)
                                .isEqualTo(Float.floatToIntBits((float) ((Number) w).doubleValue()));
                    }
                }
                case FLOAT64 -> {
                    if (w == null) {
                        assertThat(Double.isNaN(got.doubles()[i])).as(where).isTrue();
                    } else {
                        assertThat(got.doubles()[i]).as(where).isEqualTo(((Number) w).doubleValue());
                    }
                }
                case BOOL -> assertThat(got.booleans()[i]).as(where).isEqualTo(w);
                default -> assertThat(got.getLong(i)).as(where).isEqualTo(((Number) w).longValue());
            }
        }
    }
}
