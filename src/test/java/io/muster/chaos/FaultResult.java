package io.muster.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One fault's figures and whether it passed. {@code bound}: how soon after healing the nodes must agree (seconds
 * where replication itself can heal it, the cluster check's interval and grace where only it can);
 * {@code everyPoll}: whether a cancelled instance listed at any poll fails the fault (restarts: nothing cancelled may
 * come back even for a moment; partitions: a cut-off node cannot know until the link heals); {@code trace}: the
 * client's writes and the nodes' log lines about each instance the verdict names.
 */
record FaultResult(String fault, String injected, Duration took, Convergence.Verdict verdict, double drainSeconds,
                   Counters counts, List<NodeGauges> gauges, Duration bound, boolean everyPoll,
                   List<String> trace) {
    /** A replication queue still this deep after the nodes agreed is one that does not drain. */
    static final double MAX_SETTLED_QUEUE = 50;
    /** Half of a node's -Xmx (Cluster): a heap after GC above it is one that grows with the faults. */
    static final long MAX_HEAP_AFTER_GC_KB = 192 * 1024;

    List<String> failures() {
        List<String> f = new ArrayList<>();
        Convergence.Verdict v = verdict;
        if (!v.converged()) {
            f.add("not converged: lost " + v.lost() + ", stale status " + v.wrongStatus() + ", resurrected "
                    + v.resurrected() + ", unknown " + v.unknown() + ", duplicates " + v.duplicates() + ", hashes "
                    + v.hashes());
        }
        if (v.converged() && v.seconds() > bound.toSeconds()) {
            f.add(String.format("converged %.1f s after healing, bound %d s", v.seconds(), bound.toSeconds()));
        }
        if (everyPoll && v.resurrectedAtAnyPoll() > 0) {
            f.add(v.resurrectedAtAnyPoll() + " cancelled instance(s) listed at a poll after the restart");
        }
        if (counts.serverErrorsWhileUp() + counts.readErrorsWhileUp() > 0) {
            f.add((counts.serverErrorsWhileUp() + counts.readErrorsWhileUp()) + " 5xx from nodes that were up");
        }
        if (counts.emptyAfterData() > 0) {
            f.add(counts.emptyAfterData() + " empty registries served by a node that had data");
        }
        if (counts.capRefusalsWithoutRetryAfter() + counts.capRefusedKnown() > 0) {
            f.add("at the cap: " + counts.capRefusalsWithoutRetryAfter() + " 503 without Retry-After, "
                    + counts.capRefusedKnown() + " known instances refused");
        }
        for (NodeGauges g : gauges) {
            if (g.heapAfterGcKb() > MAX_HEAP_AFTER_GC_KB) {
                f.add(g.node() + " heap after GC " + g.heapAfterGcKb() / 1024 + " MB");
            }
        }
        if (drainSeconds < 0) {
            f.add("replication queues still above " + MAX_SETTLED_QUEUE + " a minute after converging: "
                    + gauges.stream().map(g -> g.node() + " " + g.queueDepth()).toList());
        }
        return f;
    }

    boolean passed() {
        return failures().isEmpty();
    }

    String summary() {
        Convergence.Verdict v = verdict;
        return String.format("%s: %s; converged %s (%.1f s after healing), %d instances checked, lost %d, stale %d,"
                        + " resurrected %d, unknown %d, duplicates %d, uncertain %d; writes %d (acked %d, failovers %d,"
                        + " 5xx while up %d, while down %d, cap 503 %d); deltas %d, reconciles %d, empty %d;"
                        + " queues drained %.1f s later%s",
                fault, passed() ? "PASS" : "FAIL", v.converged(), v.seconds(), v.checked(), v.lost(),
                v.wrongStatus(), v.resurrected(), v.unknown(), v.duplicates(), v.uncertain(), counts.writes(),
                counts.acked(), counts.failovers(), counts.serverErrorsWhileUp() + counts.readErrorsWhileUp(),
                counts.serverErrorsWhileDown(), counts.capRefusals(), counts.deltas(), counts.reconciles(),
                counts.emptyAfterData(), drainSeconds, passed() ? "" : " -- " + String.join("; ", failures()));
    }

    static String table(List<FaultResult> results) {
        StringBuilder b = new StringBuilder("| fault | result | converged after heal (s) | bound (s) | instances"
                + " checked | lost | stale status | resurrected | cancelled listed at a poll | duplicates"
                + " | writes (acked) | 5xx while up | 5xx while down"
                + " | cap 503 | reconciles | empty reads | queues drained (s) | heap after GC (MB) | threads | fds |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|\n");
        for (FaultResult r : results) {
            Convergence.Verdict v = r.verdict;
            Counters c = r.counts;
            b.append(String.format("| %s | %s | %.1f | %d | %d | %d | %d | %d | %s | %d | %d (%d) | %d | %d | %d"
                            + " | %d | %d | %.1f | %s | %s | %s |%n", r.fault, r.passed() ? "pass" : "FAIL",
                    v.seconds(), r.bound.toSeconds(), v.checked(), v.lost(), v.wrongStatus(), v.resurrected(),
                    r.everyPoll ? Integer.toString(v.resurrectedAtAnyPoll()) : "(not asked)", v.duplicates(),
                    c.writes(), c.acked(),
                    c.serverErrorsWhileUp() + c.readErrorsWhileUp(), c.serverErrorsWhileDown(), c.capRefusals(),
                    c.reconciles(), c.emptyAfterData(),
                    r.drainSeconds,
                    join(r.gauges, g -> Long.toString(g.heapAfterGcKb() / 1024)),
                    join(r.gauges, g -> Integer.toString(g.threads())),
                    join(r.gauges, g -> Integer.toString(g.openFiles()))));
        }
        return b.toString();
    }

    private static String join(List<NodeGauges> gauges, java.util.function.Function<NodeGauges, String> f) {
        return String.join(" / ", gauges.stream().map(f).toList());
    }
}
