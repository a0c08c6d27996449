package io.cubed.storage.zarr;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small JSON reader and writer for Zarr metadata, so that the format layer needs no JSON library (and cannot clash
 * with the Jackson versions of Spark and Hadoop).
 *
 * <p>Values map to {@code Map<String, Object>} (key order kept), {@code List<Object>}, {@code String}, {@code Boolean},
 * {@code null}, and numbers: {@code Long} for integers that fit, {@code BigInteger} for larger ones, {@code Double}
 * otherwise. Python's bare {@code NaN}, {@code Infinity} and {@code -Infinity} are accepted. The writer indents by 4
 * and sorts object keys, as zarr-python does.
 */
public final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Thrown for malformed JSON; the message gives the character offset. */
    public static final class JsonException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        JsonException(String message) {
            super(message);
        }
    }

    /** Parses UTF-8 JSON bytes. */
    public static Object parse(byte[] utf8) {
        return parse(new String(utf8, StandardCharsets.UTF_8));
    }

    /** Parses one JSON value; trailing non-space text is an error. */
    public static Object parse(String text) {
        Json p = new Json(text);
        p.skipSpace();
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    private JsonException error(String what) {
        return new JsonException(what + " at character " + pos);
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                break;
            }
        }
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of JSON");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                literal("true");
                return Boolean.TRUE;
            case 'f':
                literal("false");
                return Boolean.FALSE;
            case 'n':
                literal("null");
                return null;
            case 'N':
                literal("NaN");
                return Double.NaN;
            case 'I':
                literal("Infinity");
                return Double.POSITIVE_INFINITY;
            default:
                if (c == '-' && text.startsWith("-Infinity", pos)) {
                    pos += "-Infinity".length();
                    return Double.NEGATIVE_INFINITY;
                }
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private void literal(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("expected '" + word + "'");
        }
        pos += word.length();
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = string();
            skipSpace();
            if (peek() != ':') {
                throw error("expected ':'");
            }
            pos++;
            skipSpace();
            map.put(key, value());
            skipSpace();
            char c = peek();
            pos++;
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value());
            skipSpace();
            char c = peek();
            pos++;
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                pos--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of JSON");
        }
        return text.charAt(pos);
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            char c = peek();
            pos++;
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = peek();
            pos++;
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    sb.append(e);
                    break;
                case 'b':
                    sb.append('\b');
                    break;
                case 'f':
                    sb.append('\f');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                case 't':
                    sb.append('\t');
                    break;
                case 'u':
                    if (pos + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                    break;
                default:
                    throw error("bad escape '\\" + e + "'");
            }
        }
    }

    private Object number() {
        int start = pos;
        boolean integral = true;
        if (peek() == '-') {
            pos++;
        }
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c >= '0' && c <= '9') {
                pos++;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integral = false;
                pos++;
            } else {
                break;
            }
        }
        String s = text.substring(start, pos);
        try {
            if (integral) {
                BigInteger big = new BigInteger(s);
                return big.bitLength() < 64 ? (Object) big.longValue() : big;
            }
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("bad number '" + s + "'");
        }
    }

    /** Writes {@code value} as indented JSON with sorted object keys, ASCII only, ending with a newline. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int depth) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String) {
            quote(sb, (String) v);
        } else if (v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                sb.append("NaN");
            } else if (Double.isInfinite(d)) {
                sb.append(d > 0 ? "Infinity" : "-Infinity");
            } else {
                sb.append(Double.toString(d).replace("E", "e"));
            }
        } else if (v instanceof BigDecimal) {
            sb.append(((BigDecimal) v).toString());
        } else if (v instanceof Number) {
            sb.append(v);
        } else if (v instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) v;
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            TreeMap<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sorted.put(String.valueOf(e.getKey()), e.getValue());
            }
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                indent(sb, depth + 1);
                quote(sb, e.getKey());
                sb.append(": ");
                write(sb, e.getValue(), depth + 1);
                sb.append(++i < sorted.size() ? ",\n" : "\n");
            }
            indent(sb, depth);
            sb.append('}');
        } else if (v instanceof List) {
            List<?> l = (List<?>) v;
            if (l.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append("[\n");
            for (int i = 0; i < l.size(); i++) {
                indent(sb, depth + 1);
                write(sb, l.get(i), depth + 1);
                sb.append(i + 1 < l.size() ? ",\n" : "\n");
            }
            indent(sb, depth);
            sb.append(']');
        } else {
            throw new IllegalArgumentException("cannot write a " + v.getClass().getName() + " as JSON");
        }
    }

    private static void indent(StringBuilder sb, int depth) {
        for (int i = 0; i < depth * 4; i++) {
            sb.append(' ');
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c > 0x7e) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }
}
