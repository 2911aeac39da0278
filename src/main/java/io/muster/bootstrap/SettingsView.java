package io.muster.bootstrap;

import io.muster.config.PendingSettings;
import io.muster.config.ServerConfig;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The settings a node runs with, as operators are told them: every setting in effect as the loader read it (each
 * key is spelled there only), where each came from, what the operator wrote that Muster does not use, and what the
 * next start would read differently. Logged once at start, and shown on the status document.
 *
 * <p>Thread safety: immutable but for the pending settings, set once after start (volatile) and read by request
 * threads.
 */
final class SettingsView {
    private static final Logger LOG = Logger.getLogger(RegistryServer.class.getName());
    private final ServerConfig.KeyReport keys;
    /** What the next start would read differently (see {@link #watch}), or null. */
    private volatile PendingSettings pending;

    SettingsView(ServerConfig.KeyReport keys) {
        this.keys = keys;
    }

    /** Lets the view tell what the next start would read, from the same sources as this start. */
    void watch(PendingSettings pending) {
        this.pending = pending;
    }

    /** What the start logs: keys it does not know or that have no effect, and where each setting came from. */
    void log() {
        keys.unknown().forEach(k -> LOG.warning("Muster: unknown setting " + k.key() + ": " + k.note()));
        keys.noEffect().forEach(k -> LOG.info("Muster: setting " + k.key() + " has " + k.note()));
        keys.shadowed().forEach(k -> LOG.info("Muster: setting " + k.key() + " " + k.note()));
        keys.sources().forEach((k, from) -> LOG.info("Muster: " + k + "=" + keys.effective().get(k)
                + " (from " + from + ")"));
    }

    Map<String, Object> document() {
        Map<String, Object> m = new LinkedHashMap<>(keys.effective());
        // what the operator wrote that Muster does not use, shown beside the settings it does
        m.put("unknownKeys", notes(keys.unknown()));
        m.put("keysWithoutEffect", notes(keys.noEffect()));
        m.put("shadowedKeys", notes(keys.shadowed()));
        Map<String, String> sources = new LinkedHashMap<>();
        keys.effective().keySet().forEach(k -> sources.put(k, keys.sourceOf(k)));
        m.put("sources", sources);
        PendingSettings next = pending;
        if (next != null) {
            PendingSettings.Report report = next.report();
            m.put("nextStart", report.failure() == null
                    ? Map.of("changes", report.changes().stream().map(PendingSettings.Change::json).toList())
                    : Map.of("changes", List.of(), "failure", report.failure()));
        }
        return m;
    }

    private static List<Map<String, String>> notes(List<ServerConfig.KeyNote> notes) {
        return notes.stream().map(k -> Map.of("key", k.key(), "note", k.note())).toList();
    }
}
