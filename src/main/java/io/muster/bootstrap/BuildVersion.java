package io.muster.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * This build's version, from {@code muster-version.properties} (written by Maven's resource filtering); the WAR's
 * manifest says the same but is not on the class path in every container.
 */
final class BuildVersion {
    static final String RESOURCE = "/muster-version.properties";
    static final String UNKNOWN = "unknown";

    private BuildVersion() {
    }

    static String read() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            return in == null ? UNKNOWN : from(in);
        } catch (IOException e) {
            return UNKNOWN;
        }
    }

    /** The {@code version} property, or {@value #UNKNOWN} when missing or left unfiltered (built outside Maven). */
    static String from(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").trim();
        return v.isEmpty() || v.contains("${") ? UNKNOWN : v;
    }
}
