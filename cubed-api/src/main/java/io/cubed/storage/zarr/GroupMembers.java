package io.cubed.storage.zarr;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names of a group's members, as groups of both versions find them: among the names a caller gives or a listing
 * of the group's children, those that can name a member; among a group's keys (listed, or consolidated), the children
 * that hold a given metadata document.
 */
final class GroupMembers {
    private GroupMembers() {}

    /**
     * The names among {@code names} that may name a member, in their order: keys of one part, neither {@code .} nor
     * {@code ..}, and not one of the {@code documents} the group itself holds.
     */
    static List<String> candidates(Collection<String> names, Set<String> documents) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (!n.isEmpty() && !n.contains("/") && !n.equals(".") && !n.equals("..") && !documents.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }

    /** The names, sorted, of the children whose {@code document} is among the group's {@code keys} ({@code name/document}). */
    static List<String> withDocument(Iterable<String> keys, String document) {
        TreeSet<String> names = new TreeSet<>();
        for (String key : keys) {
            String[] parts = key.split("/");
            if (parts.length == 2 && parts[1].equals(document)) {
                names.add(parts[0]);
            }
        }
        return new ArrayList<>(names);
    }
}
