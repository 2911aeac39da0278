package io.muster.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample settings file, which README says lists every setting with its default: every setting the loader
 * reads is there (a commented-out line counts), spelled as documented, with the default the loader uses.
 */
class SampleSettingsFileTest {
    private static final Path SAMPLE = Path.of("server-config/eureka-server.properties");
    /** {@code key=value}, or {@code #key=value}: a setting shown at its default but left commented out. */
    private static final Pattern SETTING = Pattern.compile("^#?\\s*(eureka\\.[^=\\s]+)\\s*=\\s*(.*?)\\s*$");

    /** The documented spelling: {@code eureka.X} for instance, client and dashboard settings, else eureka.server.X. */
    private static String spelled(String name) {
        boolean eurekaDot = name.startsWith("instance.") || name.startsWith("client.")
                || name.startsWith("dashboard.");
        return (eurekaDot ? "eureka." : "eureka.server.") + name;
    }

    /** Every value the file gives each key, in order. */
    private static Map<String, List<String>> sampleSettings() throws IOException {
        Map<String, List<String>> settings = new LinkedHashMap<>();
        for (String line : Files.readAllLines(SAMPLE)) {
            Matcher m = SETTING.matcher(line);
            if (m.matches()) {
                settings.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(2));
            }
        }
        return settings;
    }

    @Test
    void theSampleFileNamesEverySettingWithTheDefaultTheLoaderUses() throws IOException {
        Map<String, Object> defaults = ConfigLoader.load(List.of()).keys().effective();
        assertThat(defaults).as("the loader reports its settings").hasSizeGreaterThan(50);
        Map<String, List<String>> sample = sampleSettings();

        List<String> missing = new ArrayList<>();
        List<String> wrongDefault = new ArrayList<>();
        defaults.forEach((name, value) -> {
            String key = spelled(name);
            List<String> given = sample.get(key);
            if (given == null) {
                missing.add(key + "=" + value);
            } else if (given.stream().anyMatch(v -> !v.equals(String.valueOf(value)))) {
                wrongDefault.add(key + ": the file says " + given + ", the default is " + value);
            }
        });
        assertThat(missing).as("settings the sample file does not list").isEmpty();
        assertThat(wrongDefault).as("settings the sample file lists with another value than the default").isEmpty();
    }

    @Test
    void theSampleFileAsItIsLoadsWithoutAnUnknownKeyAndChangesNoDefault() throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(SAMPLE)) {
            p.load(in);
        }
        Map<String, String> layer = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> layer.put(k, p.getProperty(k)));
        ServerConfig.KeyReport keys = ConfigLoader.load(List.of(layer)).keys();

        assertThat(keys.unknown()).isEmpty();
        assertThat(keys.noEffect()).isEmpty();
        assertThat(keys.effective()).isEqualTo(ConfigLoader.load(List.of()).keys().effective());
    }
}
