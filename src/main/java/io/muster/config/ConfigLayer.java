package io.muster.config;

import java.util.Map;

/**
 * One place settings come from, with the name the settings view shows for it ("context parameter",
 * "MicroProfile Config: Domain", …) and the raw key/value pairs it holds.
 */
public record ConfigLayer(String source, Map<String, String> values) {
    /** What a setting given nowhere shows as its source. */
    public static final String DEFAULT = "default";

    public ConfigLayer {
        values = Map.copyOf(values);
    }
}
