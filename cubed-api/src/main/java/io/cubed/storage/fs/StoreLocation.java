package io.cubed.storage.fs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a store URL points, in one spelling, so that two URLs can be compared: the same place, one inside the other,
 * or apart, each read as {@link Locations} says (after the scheme and authority, the characters literally). A local
 * path or {@code file:} URI becomes an absolute path with symbolic links resolved (as far as the path exists) and
 * {@code .}, {@code ..}, repeated and trailing slashes removed; an object-store or Hadoop URL keeps its scheme (lower
 * case, with {@code s3}/{@code s3a}/{@code s3n}, {@code abfs}/{@code abfss} and {@code wasb}/{@code wasbs} taken as
 * one), its authority (bucket, container or name node) and its normalised path.
 *
 * <p>Comparisons lean towards "the same": a Hadoop URL without an authority ({@code hdfs:///data}) may name the default
 * file system of any authority, so it overlaps every URL of its scheme with the same path. A false "overlap" costs the
 * user a clearer path; a false "apart" could cost them their data.
 */
public final class StoreLocation {
    /** How a location lies relative to another one. */
    public enum Relation {
        /** The same place. */
        SAME,
        /** Strictly inside the other location. */
        INSIDE,
        /** Strictly contains the other location. */
        CONTAINS,
        /** Neither contains the other. */
        APART
    }

    private final String url;
    private final String scheme;
    private final String shownScheme;
    private final String authority;
    private final List<String> segments;
    private final int hash;

    private StoreLocation(String url, String scheme, String authority, List<String> segments) {
        this.url = url;
        this.shownScheme = scheme.toLowerCase(Locale.ROOT);
        this.scheme = family(shownScheme);
        this.authority = authority;
        this.segments = List.copyOf(segments);
        this.hash = Objects.hash(scheme, authority, this.segments);
    }

    /** The location of {@code url}, a local path or a URI with a scheme; nothing is created or read but links. */
    public static StoreLocation of(String url) {
        Stores.requireLocation(url);
        String scheme = Stores.schemeOf(url);
        if (scheme == null || scheme.equals("file")) {
            return local(url, Locations.localPath(url));
        }
        if (scheme.equals("memory")) {
            String rest = url.substring(url.indexOf(':') + 1);
            while (rest.startsWith("/")) {
                rest = rest.substring(1);
            }
            List<String> parts = normalise(rest, url);
            String name = parts.isEmpty() ? "" : parts.get(0);
            return new StoreLocation(url, "memory", name, parts.isEmpty() ? parts : parts.subList(1, parts.size()));
        }
        // As the stores read it: S3's client and Hadoop's Path take the text after the authority as the key or path,
        // literally (a space, '[', '#', '%41' are characters of the name, not URI syntax to decode or refuse).
        String rest = url.substring(url.indexOf(':') + 1);
        String authority = "";
        if (rest.startsWith("//")) {
            rest = rest.substring(2);
            int slash = rest.indexOf('/');
            authority = slash < 0 ? rest : rest.substring(0, slash);
            rest = slash < 0 ? "" : rest.substring(slash);
        }
        return new StoreLocation(url, scheme, authority, normalise(rest, url));
    }

    /** The absolute path of {@code path} with links resolved in its longest existing ancestor. */
    private static StoreLocation local(String url, Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        List<String> rest = new ArrayList<>();
        while (existing != null && !Files.exists(existing)) {
            Path name = existing.getFileName();
            if (name != null) {
                rest.add(0, name.toString());
            }
            existing = existing.getParent();
        }
        Path real = absolute;
        if (existing != null) {
            try {
                real = existing.toRealPath();
                for (String r : rest) {
                    real = real.resolve(r);
                }
            } catch (IOException e) {
                // Unreadable ancestor: compare the path as written, made absolute.
                real = absolute;
            }
        }
        List<String> parts = new ArrayList<>();
        for (Path p : real) {
            parts.add(p.toString());
        }
        Path root = real.getRoot();
        return new StoreLocation(url, "file", root == null ? "" : root.toString(), parts);
    }

    /** One name for the schemes that reach the same stores. */
    private static String family(String scheme) {
        return switch (scheme) {
            case "s3", "s3a", "s3n" -> "s3";
            case "abfs", "abfss" -> "abfs";
            case "wasb", "wasbs" -> "wasb";
            default -> scheme;
        };
    }

    /** The segments of {@code path} as {@link StoreKeys#normalizedPath} reads it. */
    private static List<String> normalise(String path, String url) {
        String p = StoreKeys.normalizedPath(path, url);
        return p.isEmpty() ? List.of() : List.of(p.split("/"));
    }

    /**
     * This location as one URL: the scheme as given (lower case), the authority and the normalised path for an
     * object-store or Hadoop URL ({@code s3a://bucket/x} for {@code s3a://bucket//x/}); for a local path, the
     * {@code file:} URL of its resolved absolute path as {@link Locations#fileUrl} writes it (not percent-encoded).
     */
    public String canonicalUrl() {
        if (scheme.equals("file")) {
            return Locations.fileUrl(Path.of(authority, segments.toArray(new String[0])));
        }
        return shownScheme + "://" + authority + (segments.isEmpty() ? "" : "/" + String.join("/", segments));
    }

    /** The URL this location was made from, as given. */
    public String url() {
        return url;
    }

    /** How this location lies relative to {@code other}. */
    public Relation relationTo(StoreLocation other) {
        if (!scheme.equals(other.scheme) || !sameAuthority(other)) {
            return Relation.APART;
        }
        int n = Math.min(segments.size(), other.segments.size());
        if (!segments.subList(0, n).equals(other.segments.subList(0, n))) {
            return Relation.APART;
        }
        if (segments.size() == other.segments.size()) {
            return Relation.SAME;
        }
        return segments.size() > other.segments.size() ? Relation.INSIDE : Relation.CONTAINS;
    }

    /** True unless the two locations are {@link Relation#APART}. */
    public boolean overlaps(StoreLocation other) {
        return relationTo(other) != Relation.APART;
    }

    private boolean sameAuthority(StoreLocation other) {
        if (scheme.equals("file") || scheme.equals("memory")) {
            return authority.equals(other.authority);
        }
        // Host names and buckets are case-insensitive; an absent authority may be the default file system.
        return authority.isEmpty() || other.authority.isEmpty() || authority.equalsIgnoreCase(other.authority);
    }

    /**
     * Refuses to write {@code destination} when it is {@code source}, lies inside it or contains it: {@code what}
     * names the operation, e.g. {@code "copy"}. The message names both locations as given and, when they differ, as
     * resolved.
     */
    public static void requireApart(String what, String source, String destination) {
        StoreLocation s = of(source);
        StoreLocation d = of(destination);
        Relation r = d.relationTo(s);
        if (r == Relation.APART) {
            return;
        }
        String how =
                switch (r) {
                    case SAME -> "is the source";
                    case INSIDE -> "lies inside the source";
                    default -> "contains the source";
                };
        throw new InvalidArgumentException(what + ": the destination " + d.describe() + " " + how + " " + s.describe()
                + "; writing it would destroy or corrupt the source: choose a destination outside it");
    }

    /** The URL as given, followed by the resolved location when that reads differently. */
    String describe() {
        String resolved = toString();
        String given = url.endsWith("/") && url.length() > 1 ? url.substring(0, url.length() - 1) : url;
        return given.equals(resolved) ? given : given + " (" + resolved + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreLocation l
                && scheme.equals(l.scheme)
                && authority.equals(l.authority)
                && segments.equals(l.segments);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The resolved location: an absolute path for local stores, {@code scheme://authority/path} otherwise. */
    @Override
    public String toString() {
        if (scheme.equals("file")) {
            String sep = java.io.File.separator;
            String root = authority.isEmpty() ? "" : authority;
            return root + String.join(sep, segments);
        }
        return shownScheme + "://" + authority + "/" + String.join("/", segments);
    }

    /** The path segments, for tests. */
    List<String> segments() {
        return segments;
    }
}
