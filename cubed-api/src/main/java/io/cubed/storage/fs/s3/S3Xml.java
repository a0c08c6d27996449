package io.cubed.storage.fs.s3;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** The few S3 XML documents the client reads and writes: errors, object listings and bulk deletes. */
final class S3Xml {
    private static final XMLInputFactory FACTORY = newFactory();

    private S3Xml() {}

    private static XMLInputFactory newFactory() {
        // The JDK's own parser: a service lookup would scan every jar of the class path (and find Hadoop's Woodstox).
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        // Responses never need a DTD or external entities: refuse them.
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        return f;
    }

    /** An S3 error document's code, message and, for a request to the wrong region, the bucket's region. */
    record Error(String code, String message, String region) {}

    /**
     * One page of a ListObjectsV2 result: the keys and sizes, the common prefixes of a listing with a delimiter (empty
     * without one), and the token of the next page (null: the last).
     */
    record ListPage(List<String> keys, List<Long> sizes, List<String> prefixes, String nextToken) {}

    /** The error in {@code body}, or an error with null fields when the body is empty or not an S3 error. */
    static Error error(byte[] body) {
        if (body == null || body.length == 0) {
            return new Error(null, null, null);
        }
        String code = null;
        String message = null;
        String region = null;
        try {
            XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
            int depth = 0;
            while (r.hasNext()) {
                int ev = r.next();
                if (ev == XMLStreamConstants.START_ELEMENT) {
                    depth++;
                    if (depth == 2) {
                        switch (r.getLocalName()) {
                            case "Code" -> code = r.getElementText();
                            case "Message" -> message = r.getElementText();
                            case "Region" -> region = r.getElementText();
                            default -> {
                                continue;
                            }
                        }
                        depth--;
                    }
                } else if (ev == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                }
            }
        } catch (XMLStreamException | RuntimeException e) {
            // Not XML (a proxy's HTML page, say): the status alone describes the failure.
        }
        return new Error(code, message, region);
    }

    /** A ListObjectsV2 result page. */
    static ListPage listPage(byte[] body) throws XMLStreamException {
        List<String> keys = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String next = null;
        boolean truncated = false;
        XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
        String key = null;
        long size = -1;
        boolean inContents = false;
        boolean inPrefixes = false;
        while (r.hasNext()) {
            int ev = r.next();
            if (ev == XMLStreamConstants.START_ELEMENT) {
                String name = r.getLocalName();
                switch (name) {
                    case "Contents" -> {
                        inContents = true;
                        key = null;
                        size = -1;
                    }
                    case "CommonPrefixes" -> inPrefixes = true;
                    case "Prefix" -> {
                        if (inPrefixes) {
                            prefixes.add(r.getElementText());
                        }
                    }
                    case "Key" -> {
                        if (inContents) {
                            key = r.getElementText();
                        }
                    }
                    case "Size" -> {
                        if (inContents) {
                            size = Long.parseLong(r.getElementText().trim());
                        }
                    }
                    case "IsTruncated" -> truncated =
                            Boolean.parseBoolean(r.getElementText().trim());
                    case "NextContinuationToken" -> next = r.getElementText();
                    default -> {}
                }
            } else if (ev == XMLStreamConstants.END_ELEMENT && r.getLocalName().equals("CommonPrefixes")) {
                inPrefixes = false;
            } else if (ev == XMLStreamConstants.END_ELEMENT && r.getLocalName().equals("Contents")) {
                inContents = false;
                if (key == null) {
                    throw new XMLStreamException("a listed object without a key");
                }
                keys.add(key);
                sizes.add(size);
            }
        }
        if (truncated && (next == null || next.isEmpty())) {
            throw new XMLStreamException("a truncated listing without a continuation token");
        }
        return new ListPage(keys, sizes, prefixes, truncated ? next : null);
    }

    /** The body of a DeleteObjects request for {@code keys} (at most 1000), quiet: only failures are reported. */
    static byte[] deleteRequest(List<String> keys) {
        StringBuilder sb = new StringBuilder(64 + keys.size() * 64)
                .append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>");
        for (String k : keys) {
            sb.append("<Object><Key>").append(escape(k)).append("</Key></Object>");
        }
        return sb.append("</Delete>").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The keys a DeleteObjects response reports as not deleted, each with its error code and message. */
    static List<String> deleteFailures(byte[] body) throws XMLStreamException {
        List<String> failures = new ArrayList<>();
        XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
        boolean inError = false;
        String key = null;
        String code = null;
        String message = null;
        while (r.hasNext()) {
            int ev = r.next();
            if (ev == XMLStreamConstants.START_ELEMENT) {
                switch (r.getLocalName()) {
                    case "Error" -> {
                        inError = true;
                        key = null;
                        code = null;
                        message = null;
                    }
                    case "Key" -> key = inError ? r.getElementText() : key;
                    case "Code" -> code = inError ? r.getElementText() : code;
                    case "Message" -> message = inError ? r.getElementText() : message;
                    default -> {}
                }
            } else if (ev == XMLStreamConstants.END_ELEMENT && r.getLocalName().equals("Error") && inError) {
                inError = false;
                failures.add(key + " (" + code + (message == null ? "" : ": " + message) + ")");
            }
        }
        return failures;
    }

    /** {@code s} with XML's special characters escaped, and characters XML 1.0 cannot hold refused. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&apos;");
                case '\r' -> sb.append("&#13;");
                case '\n' -> sb.append("&#10;");
                case '\t' -> sb.append("&#9;");
                default -> {
                    if (c < 0x20) {
                        throw new IllegalArgumentException(
                                "key '" + s + "' holds the control character " + (int) c + ", which XML cannot carry");
                    }
                    sb.append(c);
                }
            }
        }
        return sb.toString();
    }
}
