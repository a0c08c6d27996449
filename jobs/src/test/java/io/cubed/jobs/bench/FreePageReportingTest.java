package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Free page reporting read from a tree laid out as {@code /sys/bus/virtio/devices}. */
class FreePageReportingTest {
    /** The features of the Firecracker VM's balloon: bits 1 (stats), 2 (deflate on OOM), 5 (reporting), 7. */
    private static final String REPORTING = "0110010100000000000000000000000000000000000000000000000000000000";

    /** The same without bit 5. */
    private static final String NOT_REPORTING = "0110000100000000000000000000000000000000000000000000000000000000";

    private static void device(Path devices, String name, String id, String features) throws IOException {
        Path d = Files.createDirectories(devices.resolve(name));
        Files.writeString(d.resolve("device"), id + "\n");
        Files.writeString(d.resolve("features"), features + "\n");
    }

    @Test
    void aBalloonThatReportsFreePagesIsFoundAmongOtherDevices(@TempDir Path devices) throws IOException {
        device(devices, "virtio1", "0x0002", REPORTING); // a block device: its bit 5 means something else
        assertThat(FreePageReporting.active(devices)).isFalse();
        device(devices, "virtio0", "0x0005", REPORTING);
        assertThat(FreePageReporting.active(devices)).isTrue();
    }

    @Test
    void aBalloonWithoutReportingOrNoDevicesAtAllIsNot(@TempDir Path devices) throws IOException {
        assertThat(FreePageReporting.active(devices.resolve("absent"))).isFalse();
        assertThat(FreePageReporting.active(devices)).isFalse();
        device(devices, "virtio0", "0x0005", NOT_REPORTING);
        assertThat(FreePageReporting.active(devices)).isFalse();
    }

    @Test
    void unreadableOrMalformedEntriesCountAsNoReporting(@TempDir Path devices) throws IOException {
        device(devices, "virtio0", "balloon", REPORTING); // not a hex ID
        device(devices, "virtio1", "0x0005", "0110"); // features shorter than bit 5
        Files.createDirectories(devices.resolve("virtio2")); // no files at all
        assertThat(FreePageReporting.active(devices)).isFalse();
    }
}
