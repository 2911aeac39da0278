package io.muster.regions;

import io.muster.model.Applications;
import io.muster.model.AppsHashCode;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One remote region's registry, copied as Netflix's {@code RemoteRegionRegistry} copies it: a full fetch first,
 * then deltas; a delta whose hash differs from that of the copy it was applied to means the copy drifted, and a
 * full fetch replaces it. A failed fetch keeps the last copy (and its age shows on the dashboard).
 *
 * <p>Thread safety: {@link #refresh()} is called by one thread at a time (synchronized anyway); readers see one
 * immutable {@link State}, so a copy and the delta that produced it are always read together.
 */
public final class RemoteRegion {
    private static final Logger LOG = Logger.getLogger(RemoteRegion.class.getName());

    /** How a region's registry is read; an interface so the fetch rules are tested against any server. */
    public interface Source {
        Applications full() throws IOException;

        Applications delta() throws IOException;
    }

    /**
     * @param copy      the region's registry as last fetched
     * @param lastDelta what the last fetch brought (after a full fetch, the full copy, as in Eureka): what a
     *                  delta with this region includes
     */
    record State(Applications copy, Applications lastDelta, Instant fetchedAt) {
    }

    private final String name;
    private final String displayUrl;
    private final Source source;
    private final Clock clock;
    private final boolean deltaDisabled;
    private volatile State state;
    private volatile String lastError;
    private final LongAdder fullFetches = new LongAdder();
    private final LongAdder deltaFetches = new LongAdder();
    private final LongAdder deltaMismatches = new LongAdder();
    private final LongAdder failures = new LongAdder();

    /** @param displayUrl the URL without credentials */
    public RemoteRegion(String name, String displayUrl, Source source, Clock clock, boolean deltaDisabled) {
        this.name = name;
        this.displayUrl = displayUrl;
        this.source = source;
        this.clock = clock;
        this.deltaDisabled = deltaDisabled;
    }

    /** Fetches once; true when what the region holds (or its last delta) changed, so merged views are stale. */
    public synchronized boolean refresh() {
        State before = state;
        try {
            State after = before == null || deltaDisabled ? full() : delta(before);
            state = after;
            lastError = null;
            return before == null || !after.copy().equals(before.copy())
                    || !after.lastDelta().equals(before.lastDelta());
        } catch (IOException | RuntimeException e) {
            failures.increment();
            lastError = e.toString();
            LOG.log(Level.FINE, "Muster: remote region " + name + " not fetched", e);
            return false;
        }
    }

    private State full() throws IOException {
        Applications apps = source.full();
        fullFetches.increment();
        // the hash is recomputed: the copy is what this node serves, whatever the remote put in the field
        Applications copy = DeltaMerge.apply(apps, new Applications(apps.version(), "", java.util.List.of()));
        return new State(copy, copy, clock.instant());
    }

    private State delta(State before) throws IOException {
        Applications delta;
        try {
            delta = source.delta();
        } catch (IOException e) {
            // a remote with deltas disabled answers 403, as Eureka does: its full registry still serves
            return full();
        }
        deltaFetches.increment();
        Applications merged = DeltaMerge.apply(before.copy(), delta);
        if (!merged.appsHashCode().equals(delta.appsHashCode())) {
            deltaMismatches.increment();
            LOG.fine(() -> "Muster: remote region " + name + " delta hash " + delta.appsHashCode()
                    + " differs from the copy's " + merged.appsHashCode() + "; fetching the full registry");
            return full();
        }
        return new State(merged, delta, clock.instant());
    }

    public String name() {
        return name;
    }

    public String displayUrl() {
        return displayUrl;
    }

    /** Null until the first successful fetch. */
    State state() {
        return state;
    }

    /** What the dashboard shows of this region: where, how fresh, and how the fetches went. */
    public Status status() {
        State s = state;
        return new Status(name, displayUrl, s == null ? null : s.fetchedAt(),
                s == null ? 0 : s.copy().applications().size(), s == null ? 0 : s.copy().instanceCount(),
                s == null ? "" : AppsHashCode.of(s.copy()), fullFetches.sum(), deltaFetches.sum(),
                deltaMismatches.sum(), failures.sum(), lastError);
    }

    /** One region's freshness and counters; {@code fetchedAt} null until the first successful fetch. */
    public record Status(String name, String url, Instant fetchedAt, int applications, int instances,
                         String appsHashCode, long fullFetches, long deltaFetches, long deltaMismatches,
                         long failures, String lastError) {

        /**
         * As the status document shows it: where, how fresh (to the millisecond, with the age as of {@code now}
         * beside it) and how fetches went. Written here so that only this package knows a region's fields.
         */
        public Map<String, Object> describe(Instant now) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("url", url);
            m.put("fetchedAt", fetchedAt == null ? null : fetchedAt.truncatedTo(ChronoUnit.MILLIS).toString());
            m.put("ageSeconds", fetchedAt == null ? null : Duration.between(fetchedAt, now).toSeconds());
            m.put("applications", applications);
            m.put("instances", instances);
            m.put("appsHashCode", appsHashCode);
            m.put("fullFetches", fullFetches);
            m.put("deltaFetches", deltaFetches);
            m.put("deltaMismatches", deltaMismatches);
            m.put("failures", failures);
            m.put("lastError", lastError);
            return m;
        }
    }
}
