package io.cubed.storage;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.regex.Pattern;

/**
 * An I/O failure in words, for messages users read: "permission denied (/data/x.zarr/.zarray)", not
 * "java.nio.file.AccessDeniedException: /data/x.zarr/.zarray". The exception itself stays the message's cause.
 */
public final class IoErrors {
    private IoErrors() {}

    /** A Java type's name leading a message, as {@code Throwable.toString()} and wrapping exceptions put it. */
    private static final Pattern TYPE_PREFIX =
            Pattern.compile("^(?:[a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)(?:: |$)");

    /** What went wrong in {@code e} (or the first of its causes whose kind is known), without Java type names. */
    public static String describe(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String known = known(c);
            if (known != null) {
                return known;
            }
        }
        String m = e.getMessage();
        if (m == null || m.isBlank()) {
            return e.getCause() != null && e.getCause() != e
                    ? describe(e.getCause())
                    : e.getClass().getSimpleName();
        }
        String stripped = m;
        for (String s = TYPE_PREFIX.matcher(stripped).replaceFirst(""); !s.equals(stripped); ) {
            stripped = s;
            s = TYPE_PREFIX.matcher(stripped).replaceFirst("");
        }
        return stripped.isBlank() ? e.getClass().getSimpleName() : stripped;
    }

    private static String known(Throwable c) {
        if (c instanceof AccessDeniedException f) {
            return "permission denied" + where(f);
        }
        if (c instanceof FileAlreadyExistsException f) {
            return "a file is already there" + where(f);
        }
        if (c instanceof NoSuchFileException f) {
            return "no such file or directory" + where(f);
        }
        if (c instanceof NotDirectoryException f) {
            return "a file is where a directory is needed" + where(f);
        }
        if (c instanceof DirectoryNotEmptyException f) {
            return "directory not empty" + where(f);
        }
        if (c instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + where(f);
        }
        if (c instanceof ConnectException || c instanceof UnknownHostException || c instanceof SocketTimeoutException) {
            String m = c.getMessage();
            String what = c instanceof UnknownHostException
                    ? "unknown host"
                    : c instanceof ConnectException ? "cannot connect" : "timed out";
            return m == null || m.isBlank() ? what : (c instanceof UnknownHostException ? what + " " : "") + m;
        }
        return null;
    }

    /** The file or files of {@code f}, in brackets. */
    private static String where(FileSystemException f) {
        if (f.getFile() == null) {
            return "";
        }
        return " (" + f.getFile() + (f.getOtherFile() == null ? "" : ", " + f.getOtherFile()) + ")";
    }
}
