package io.cubed.jobs.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this machine is a Linux guest that hands the memory it frees back to its host: a virtio memory balloon whose
 * driver negotiated free page reporting. Memory freed for a second or two is then taken back by the host, and touching
 * it again faults in the host: on the Firecracker VMs the bench figures come from, writing 1.1 GB of new files took
 * 0.24-0.30 s right after deleting as many and 1.6-2.9 s a few seconds later, so rounds that write gigabytes swing with
 * when the host takes pages back, and a new process (each Dask run) pays for all its memory (docs/benchmarks.md, "Side
 * by side with Dask"). The report says so, so that its worst rounds are read as the machine's noise.
 */
final class FreePageReporting {
    /** Where Linux lists virtio devices. */
    static final Path VIRTIO_DEVICES = Path.of("/sys/bus/virtio/devices");

    /** The virtio device ID of a memory balloon. */
    static final int VIRTIO_ID_BALLOON = 5;

    /** The balloon's feature bit for free page reporting ({@code VIRTIO_BALLOON_F_REPORTING}). */
    static final int VIRTIO_BALLOON_F_REPORTING = 5;

    private FreePageReporting() {}

    /** Whether free page reporting is on here; false where there is no such device or it cannot be read. */
    static boolean active() {
        return active(VIRTIO_DEVICES);
    }

    /**
     * Whether a device under {@code devices} (laid out as {@code /sys/bus/virtio/devices}: a directory per device with
     * its {@code device} ID in hex and its negotiated {@code features}, one character per bit, bit 0 first) is a
     * balloon with free page reporting.
     */
    static boolean active(Path devices) {
        if (!Files.isDirectory(devices)) {
            return false;
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(devices)) {
            for (Path d : all) {
                if (isBalloon(d) && hasFeature(d, VIRTIO_BALLOON_F_REPORTING)) {
                    return true;
                }
            }
        } catch (IOException | SecurityException e) {
            return false;
        }
        return false;
    }

    private static boolean isBalloon(Path device) {
        try {
            String id = Files.readString(device.resolve("device")).trim();
            return Integer.decode(id) == VIRTIO_ID_BALLOON;
        } catch (IOException | NumberFormatException | SecurityException e) {
            return false;
        }
    }

    private static boolean hasFeature(Path device, int bit) {
        try {
            String bits = Files.readString(device.resolve("features")).trim();
            return bits.length() > bit && bits.charAt(bit) == '1';
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
