package io.cubed.storage.fs;

import io.cubed.error.InvalidArgumentException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * How Cubed reads a location string, the one rule for every entry point ({@code Cubed.fromZarr}/{@code toZarr}, the
 * {@code cubed} command line, plan files, the work directory, Spark SQL's {@code load(path)}): as Hadoop's {@code new
 * Path(String)} reads it, which is also how Spark's own sources and zarr-python (through fsspec) read it. After the
 * scheme and the authority, the text is the path itself, character for character: a space, {@code %41}, {@code %20},
 * {@code #}, {@code ?}, {@code é} are characters of a directory or file name, never URI escapes, fragments or queries
 * ({@code file:///data/a%20b} is the directory {@code a%20b}, and {@code file:///data/a b} the directory {@code a b}).
 * Repeated slashes are one, a trailing slash is dropped, and {@code .} and {@code ..} are applied.
 *
 * <p>Locations Cubed writes itself (a local store's {@link io.cubed.storage.Store#uri}, a resume plan's canonical
 * URLs, messages) are written in the same form, {@link #fileUrl}: {@code file://} followed by the absolute path as it
 * is, so that every location Cubed shows can be given back to it and names the same place.
 */
public final class Locations {
    private Locations() {}

    /** True when {@code location} is a plain path or a {@code file:} URL, a place on this machine's file system. */
    public static boolean isLocal(String location) {
        String scheme = Stores.schemeOf(Stores.requireLocation(location));
        return scheme == null || scheme.equals("file");
    }

    /**
     * The local path that {@code location}, a plain path or a {@code file:} URL, names: the path as written, or for a
     * {@code file:} URL the text after {@code file:} and an empty authority ({@code file:/data/x}, {@code
     * file:///data/x}), taken literally. A {@code file:} URL with a host, or without an absolute path, is refused naming
     * the location.
     */
    public static Path localPath(String location) {
        Stores.requireLocation(location);
        String scheme = Stores.schemeOf(location);
        if (scheme == null) {
            return path(location, location);
        }
        if (!scheme.equals("file")) {
            throw new InvalidArgumentException(
                    "'" + location + "' is not a local path or file: URL (its scheme is " + scheme + ":)");
        }
        String rest = location.substring(location.indexOf(':') + 1);
        if (rest.startsWith("//") && rest.length() > 2) {
            int slash = rest.indexOf('/', 2);
            String authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            if (!authority.isEmpty()) {
                throw new InvalidArgumentException("file: URL '" + location + "' names the host '" + authority
                        + "': a file: URL names a path on this machine, file:///data/x or file:/data/x");
            }
            rest = rest.substring(slash);
        }
        if (!rest.startsWith("/")) {
            throw new InvalidArgumentException("file: URL '" + location + "' has "
                    + (rest.isEmpty() ? "no path" : "the relative path '" + rest + "'")
                    + ": a file: URL needs an absolute path, file:///data/x or file:/data/x (or give the path alone)");
        }
        return path(rest, location);
    }

    private static Path path(String text, String location) {
        try {
            return Path.of(text).normalize();
        } catch (InvalidPathException e) {
            throw new InvalidArgumentException(
                    "'" + location + "' is not a local path: " + e.getReason() + " at index " + e.getIndex(), e);
        }
    }

    /**
     * The {@code file:} URL of {@code path} in the form {@link #localPath} reads back: {@code file://} followed by the
     * absolute, normalised path as it is (no percent-encoding), without a trailing slash ({@code file:///} for the
     * root).
     */
    public static String fileUrl(Path path) {
        String p = path.toAbsolutePath().normalize().toString().replace(java.io.File.separatorChar, '/');
        return "file://" + (p.startsWith("/") ? p : "/" + p);
    }
}
