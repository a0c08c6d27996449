package io.cubed.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every {@code Class.method(} in the Java column of docs/numpy.md names a public method of that class. */
class NumpyTableTest {
    @Test
    void everyJavaMethodOfTheTableExists() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("../docs/numpy.md"));
        Pattern call = Pattern.compile("\\b([A-Z][A-Za-z]+)\\.([a-z][A-Za-z]*)\\(");
        List<String> checked = new ArrayList<>();
        for (String line : lines) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            String java = cells[2];
            Matcher m = call.matcher(java);
            while (m.find()) {
                String cls = m.group(1);
                String method = m.group(2);
                if (cls.equals("List") || cls.equals("Index") && method.equals("of")) {
                    continue;
                }
                Class<?> c = classOf(cls);
                boolean found = false;
                for (Method x : c.getMethods()) {
                    found |= x.getName().equals(method) && Modifier.isPublic(x.getModifiers());
                }
                assertThat(found)
                        .as("%s.%s in docs/numpy.md: %s", cls, method, line)
                        .isTrue();
                checked.add(cls + "." + method);
            }
        }
        assertThat(checked).hasSizeGreaterThan(40);
    }

    private static Class<?> classOf(String simple) throws ClassNotFoundException {
        for (String pkg : List.of("io.cubed.array.", "io.cubed.", "io.cubed.dtype.", "io.cubed.chunk.")) {
            try {
                return Class.forName(pkg + simple);
            } catch (ClassNotFoundException e) {
                // next package
            }
        }
        throw new ClassNotFoundException(simple + " (named in docs/numpy.md)");
    }
}
