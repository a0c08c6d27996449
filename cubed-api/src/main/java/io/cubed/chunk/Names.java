package io.cubed.chunk;

/** Spelling of the standard's names in Java. */
final class Names {
    private Names() {}

    /** {@code "floor_divide"} as {@code "floorDivide"}: each underscore dropped and the letter after it capitalised. */
    static String camelCase(String pythonName) {
        StringBuilder s = new StringBuilder(pythonName.length());
        boolean upper = false;
        for (int i = 0; i < pythonName.length(); i++) {
            char c = pythonName.charAt(i);
            if (c == '_') {
                upper = true;
            } else {
                s.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return s.toString();
    }
}
