package io.muster.config;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * What the next start would change: the settings as their sources hold them now, against those read at start.
 * Settings are read once, at start (a redeploy, Tomcat's reload, Payara's disable and enable), so an operator who
 * has just changed one is told here that it is not in effect yet, or that the next start would fail and why.
 *
 * <p>Reading every source costs little but is not free (JNDI, MicroProfile Config), and the settings view is
 * polled: the answer is kept for {@link #KEPT}. Thread-safe: the kept answer is one immutable value, replaced whole.
 */
public final class PendingSettings {
    static final Duration KEPT = Duration.ofSeconds(5);

    /** One setting whose sources now say something else than what is in effect. */
    public record Change(String name, Object inEffect, Object next, String source) {
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("inEffect", inEffect);
            m.put("next", next);
            m.put("source", source);
            return m;
        }
    }

    /** @param failure why the next start would fail with the sources as they are, or null */
    public record Report(List<Change> changes, String failure) {
        public Report {
            changes = List.copyOf(changes);
        }
    }

    private record Kept(Instant at, Report report) {
    }

    private final ServerConfig.KeyReport current;
    private final Supplier<List<ConfigLayer>> sources;
    private final Clock clock;
    private volatile Kept kept;

    /** @param sources reads every layer as the next start would */
    public PendingSettings(ServerConfig.KeyReport current, Supplier<List<ConfigLayer>> sources, Clock clock) {
        this.current = current;
        this.sources = sources;
        this.clock = clock;
    }

    public Report report() {
        Instant now = clock.instant();
        Kept k = kept;
        if (k == null || now.isAfter(k.at().plus(KEPT)) || now.isBefore(k.at())) {
            k = new Kept(now, read());
            kept = k;
        }
        return k.report();
    }

    private Report read() {
        ServerConfig.KeyReport next;
        try {
            next = ConfigLoader.fromLayers(sources.get()).keys();
        } catch (InvalidConfigException e) {
            return new Report(List.of(), e.getMessage());
        } catch (RuntimeException e) {
            return new Report(List.of(), "the settings could not be read: " + e.getMessage());
        }
        return new Report(differences(current, next), null);
    }

    static List<Change> differences(ServerConfig.KeyReport current, ServerConfig.KeyReport next) {
        TreeSet<String> names = new TreeSet<>(current.effective().keySet());
        names.addAll(next.effective().keySet());
        List<Change> changes = new ArrayList<>();
        for (String name : names) {
            Object before = current.effective().get(name);
            Object after = next.effective().get(name);
            if (!Objects.equals(before, after)) {
                changes.add(new Change(name, before, after, next.sourceOf(name)));
            }
        }
        return changes;
    }
}
