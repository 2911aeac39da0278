package io.muster.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The raw settings of every layer, normalized, and the typed lookups over them. Each lookup records what it read:
 * the value in effect under the setting's documented name, the layer it came from, and the names consulted (the
 * candidates for "did you mean"); a bad value is kept as a problem, so that one exception names them all.
 * Keys match Eureka's spellings with either prefix ({@code eureka.server.X} or {@code eureka.X}),
 * case-insensitively and ignoring dashes. Used by one loader, on one thread.
 */
final class RawSettings {
    static final List<String> PREFIXES = List.of("eureka.server.", "eureka.");

    final Map<String, String> values = new HashMap<>();   // normalized setting name -> raw value
    final Map<String, String> origins = new HashMap<>();  // normalized setting name -> key as written
    final Map<String, String> sourceOf = new HashMap<>(); // normalized setting name -> its layer's name
    /** Keys whose value a later layer replaced: said at start and on the settings view, never silently. */
    final List<ServerConfig.KeyNote> shadowed = new ArrayList<>();
    /** Where each setting in effect came from, by the same names as {@link #effective}; absent: its default. */
    final Map<String, String> effectiveSource = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    /** Display spellings of every setting this loader looked up: the candidates for "did you mean". */
    final Set<String> consulted = new LinkedHashSet<>();
    /** Typed settings in effect, by their first (documented) name, in the order read. */
    final Map<String, Object> effective = new LinkedHashMap<>();
    String springApplicationName;
    String strict;

    void put(String source, String key, String value) {
        if (key == null || value == null) {
            return;
        }
        String k = key.toLowerCase(Locale.ROOT).replace("-", "");
        if (k.equals("spring.application.name")) {
            springApplicationName = value.trim();
            return;
        }
        if (k.equals("muster.config.strict")) {
            strict = value.trim();
            return;
        }
        for (String prefix : PREFIXES) {
            if (k.startsWith(prefix)) {
                String name = k.substring(prefix.length());
                String before = values.put(name, value.trim());
                String beforeSource = sourceOf.put(name, source);
                if (before != null && !before.equals(value.trim()) && !source.equals(beforeSource)) {
                    // no values here: a shadowed key may be a URL with credentials
                    shadowed.add(new ServerConfig.KeyNote(key, "set in " + source + ", which overrides what "
                            + beforeSource + " gives for " + origins.get(name)));
                }
                origins.put(name, key);
                return;
            }
        }
    }

    /** The source of the first of {@code names} that is set, recorded under the first (documented) name. */
    void noteSource(String... names) {
        for (String name : names) {
            String source = sourceOf.get(name.toLowerCase(Locale.ROOT));
            if (source != null) {
                effectiveSource.put(names[0], source);
                return;
            }
        }
    }

    String raw(String name) {
        consulted.add(name);
        return values.get(name.toLowerCase(Locale.ROOT));
    }

    static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * Every zone's service URLs, the client's own zone first as Eureka does: Spring's
     * {@code eureka.client.serviceUrl.<zone>} and Netflix's {@code eureka.serviceUrl.<zone>}.
     */
    List<String> serviceUrls() {
        List<String> urls = new ArrayList<>();
        consulted.add("client.serviceUrl.defaultZone");
        for (String first : List.of("client.serviceurl.defaultzone", "serviceurl.default")) {
            urls.addAll(list(values.getOrDefault(first, "")));
        }
        values.keySet().stream().sorted()
                .filter(k -> (k.startsWith("client.serviceurl.") || k.startsWith("serviceurl."))
                        && !k.equals("client.serviceurl.defaultzone") && !k.equals("serviceurl.default"))
                .forEach(k -> urls.addAll(list(values.get(k))));
        return urls.stream().distinct().toList();
    }

    void checkUrl(String key, String url) {
        try {
            java.net.URI uri = java.net.URI.create(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            // credentials may be in the URL: name the key, not the value
            problems.add(key + " has a value that is not an http(s) URL with a host");
        }
    }

    static String blankToNull(String... candidates) {
        for (String c : candidates) {
            if (c != null && !c.isBlank()) {
                return c.trim();
            }
        }
        return null;
    }

    static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** The value of the first name given, else the fallback; recorded as in effect under the first name. */
    <T> T get(T fallback, Function<String, T> parse, String[] names, String expected) {
        T value = parsed(fallback, parse, names, expected);
        effective.put(names[0], value instanceof Duration d ? d.toMillis() : value);
        noteSource(names);
        return value;
    }

    <T> T parsed(T fallback, Function<String, T> parse, String[] names, String expected) {
        consulted.addAll(List.of(names));
        for (String name : names) {
            String key = name.toLowerCase(Locale.ROOT);
            String raw = values.get(key);
            if (raw != null) {
                try {
                    return parse.apply(raw);
                } catch (RuntimeException e) {
                    problems.add(origins.get(key) + "=" + raw + " (expected " + expected + ")");
                    return fallback;
                }
            }
        }
        return fallback;
    }

    boolean bool(boolean fallback, String... names) {
        return get(fallback, raw -> switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException();
        }, names, "true or false");
    }

    int integer(int fallback, int min, String... names) {
        return get(fallback, raw -> {
            int v = Integer.parseInt(raw);
            if (v < min) {
                throw new IllegalArgumentException();
            }
            return v;
        }, names, "an integer >= " + min);
    }

    Duration millis(long fallback, long min, String... names) {
        return get(Duration.ofMillis(fallback), raw -> {
            long v = Long.parseLong(raw);
            if (v < min) {
                throw new IllegalArgumentException();
            }
            return Duration.ofMillis(v);
        }, names, "milliseconds >= " + min);
    }

    double number(double fallback, double min, double max, String... names) {
        return get(fallback, raw -> {
            double v = Double.parseDouble(raw);
            if (!(v >= min && v <= max)) {
                throw new IllegalArgumentException();
            }
            return v;
        }, names, "a number from " + min + " to " + max);
    }
}
