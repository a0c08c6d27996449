package io.cubed.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.SpecConfig;
import io.cubed.memory.MemorySize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's configuration table lists every setting of {@link SpecConfig} with its real names and defaults. */
class ConfigurationDocTest {
    @Test
    void theReadmeTableMatchesTheSettings() throws Exception {
        List<String[]> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of("../README.md"))) {
            if (line.startsWith("| key | option | environment | Spark conf | default | meaning |")) {
                inTable = true;
            } else if (inTable && line.startsWith("|---")) {
                continue;
            } else if (inTable && line.startsWith("| ")) {
                String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = cells[i].replace("`", "").trim();
                }
                rows.add(cells);
            } else if (inTable) {
                break;
            }
        }
        assertThat(rows).hasSameSizeAs(SpecConfig.KEYS);
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            SpecConfig.Key key = SpecConfig.KEYS.get(i);
            assertThat(row[0]).isEqualTo(key.name());
            assertThat(row[2]).as(key.name()).isEqualTo(key.envName());
            assertThat(row[3]).as(key.name()).isEqualTo(key.sparkName());
            String documentedDefault = row[4].equals("cores") ? "<cores>" : row[4];
            if (key.kind() == SpecConfig.Kind.MEMORY) {
                assertThat(MemorySize.parse(documentedDefault))
                        .as(key.name())
                        .isEqualTo(MemorySize.parse(key.defaultValue()));
            } else {
                assertThat(documentedDefault).as(key.name()).isEqualTo(key.defaultValue());
            }
            if (!row[1].equals("–")) {
                assertThat(row[1]).as(key.name()).startsWith(key.optionName());
            }
        }
    }
}
