package io.cubed.jobs.sql;

import java.io.PrintWriter;
import java.util.List;

/**
 * A result as a text table, as Spark's {@code show()} draws one: a border, the column names, the rows with each cell
 * right-aligned in its column's width, a border; {@code NULL} for a null cell. Cells are the values as Spark casts
 * them to strings, never cut short.
 */
final class TextTable {
    private TextTable() {}

    /** Prints {@code header} and {@code rows} (each as long as the header) to {@code out}. */
    static void print(PrintWriter out, List<String> header, List<String[]> rows) {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = Math.max(1, header.get(c).length());
        }
        for (String[] row : rows) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], cell(row[c]).length());
            }
        }
        StringBuilder border = new StringBuilder("+");
        for (int w : width) {
            border.append("-".repeat(w)).append('+');
        }
        out.println(border);
        out.println(line(header.toArray(new String[0]), width));
        out.println(border);
        for (String[] row : rows) {
            out.println(line(row, width));
        }
        out.println(border);
    }

    /** The line saying how many rows there are: all of them, or {@code shown} of {@code total}. */
    static String count(long shown, long total) {
        if (shown == total) {
            return "(" + total + (total == 1 ? " row)" : " rows)");
        }
        return "(" + shown + " of " + total + " rows shown; --limit N shows more)";
    }

    private static String line(String[] cells, int[] width) {
        StringBuilder s = new StringBuilder("|");
        for (int c = 0; c < width.length; c++) {
            String v = cell(cells[c]);
            s.append(" ".repeat(width[c] - v.length())).append(v).append('|');
        }
        return s.toString();
    }

    private static String cell(String value) {
        return value == null ? "NULL" : value;
    }
}
