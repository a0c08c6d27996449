package io.cubed.error;

/**
 * Stored data that cannot be decoded (a corrupt chunk, a checksum mismatch, a chunk of the wrong size): reading it again
 * gives the same bytes, so the task that met it fails at once instead of being retried; the message names the chunk.
 */
public class CorruptDataException extends StorageException {
    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message) {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }

    private static final String PREFIX = "corrupt chunk ";

    /**
     * The chunk this exception names, as its message does ({@code corrupt chunk <array URL>/<key>: ...}, the form of
     * every Cubed reader's), or null when the message names none.
     */
    public String chunk() {
        String m = getMessage();
        if (m == null || !m.startsWith(PREFIX)) {
            return null;
        }
        int end = m.indexOf(": ", PREFIX.length());
        return end < 0 ? null : m.substring(PREFIX.length(), end);
    }

    /** The corrupt-data exception in {@code t}'s cause chain, or null: a failure that retrying cannot mend. */
    public static CorruptDataException in(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof CorruptDataException) {
                return (CorruptDataException) c;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
