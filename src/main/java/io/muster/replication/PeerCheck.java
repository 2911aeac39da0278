package io.muster.replication;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the cluster check found for one peer: the current differences, since when each has lasted, and how many
 * were repaired. Written by the checker's thread only; {@link #report()} is read by any thread.
 */
public final class PeerCheck {
    /** The dashboard's and metrics' view. {@code summary} as an operator reads it: "in sync", "3 differ for 40 s". */
    public record Report(Instant checkedAt, int differences, long longestSeconds, long repairs, String summary,
                         String note, List<Map<String, Object>> sample) {
    }

    static final int SAMPLE = 20;

    private final Map<String, Instant> firstSeen = new HashMap<>();
    final LongAdder repairs = new LongAdder();
    private volatile Report report = new Report(null, 0, 0, 0, "not checked yet", null, List.of());

    public Report report() {
        Report r = report;
        return new Report(r.checkedAt, r.differences, r.longestSeconds, repairs.sum(), r.summary, r.note, r.sample);
    }

    /** Records this round's differences; returns since when each has lasted (in the order given). */
    List<Instant> update(Instant now, List<Drift> drifts, String note) {
        Map<String, Instant> next = new HashMap<>();
        for (Drift d : drifts) {
            String key = PeerDigest.key(d.app(), d.id()) + "#" + d.kind();
            next.put(key, firstSeen.getOrDefault(key, now));
        }
        firstSeen.clear();
        firstSeen.putAll(next);
        List<Instant> since = drifts.stream()
                .map(d -> next.get(PeerDigest.key(d.app(), d.id()) + "#" + d.kind())).toList();
        long longest = since.stream().mapToLong(s -> Duration.between(s, now).toSeconds()).max().orElse(0);
        String summary = drifts.isEmpty() ? "in sync"
                : drifts.size() + (drifts.size() == 1 ? " instance differs" : " instances differ") + " for "
                + longest + " s";
        List<Map<String, Object>> sample = new java.util.ArrayList<>();
        for (int i = 0; i < drifts.size() && i < SAMPLE; i++) {
            Drift d = drifts.get(i);
            sample.add(Map.of("app", d.app(), "id", d.id(), "kind", d.kind().name(), "repair", d.repair().name(),
                    "seconds", Duration.between(since.get(i), now).toSeconds()));
        }
        report = new Report(now, drifts.size(), longest, 0, summary, note, List.copyOf(sample));
        return since;
    }

    /** A round that could not compare: the differences seen before stay (and keep ageing). */
    void failed(Instant now, String why) {
        Report r = report;
        report = new Report(now, r.differences, r.longestSeconds, 0,
                r.checkedAt == null ? "not compared: " + why : r.summary, "check failed: " + why, r.sample);
    }
}
