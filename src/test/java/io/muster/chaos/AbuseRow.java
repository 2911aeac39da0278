package io.muster.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of the abuse table: what was sent, what the row's own check found, and how the node fared meanwhile.
 * It passes when every heartbeat answered 200 with p99 under {@link #MAX_P99_MS}, the heap after GC ended within
 * {@link #MAX_HEAP_GROWTH_KB} of where it started, no OutOfMemoryError was logged and the row's check held.
 */
record AbuseRow(String row, String sent, String result, boolean checkHolds, HeartbeatProbe.Window beats,
                long heapBeforeKb, long heapAfterKb, int outOfMemoryLines, int severeLines) {
    static final double MAX_P99_MS = 100;
    static final long MAX_HEAP_GROWTH_KB = 64 * 1024;

    /** What a row's abuse reports: the request shape, what came back, and whether that is what the fix promises. */
    record Check(String sent, String result, boolean holds) {
    }

    List<String> failures() {
        List<String> f = new ArrayList<>();
        if (beats.failed() > 0) {
            f.add(beats.failed() + " of " + beats.beats() + " heartbeats not 200");
        }
        if (beats.p99() >= MAX_P99_MS) {
            f.add(String.format("heartbeat p99 %.1f ms", beats.p99()));
        }
        if (heapBeforeKb < 0 || heapAfterKb < 0) {
            f.add("heap after GC not measured");
        } else if (heapAfterKb - heapBeforeKb > MAX_HEAP_GROWTH_KB) {
            f.add(String.format("heap after GC +%d MB", (heapAfterKb - heapBeforeKb) / 1024));
        }
        if (outOfMemoryLines > 0) {
            f.add(outOfMemoryLines + " OutOfMemoryError lines");
        }
        if (!checkHolds) {
            f.add("row check failed");
        }
        return f;
    }

    boolean passed() {
        return failures().isEmpty();
    }

    String line() {
        return String.format("%s: %s -- sent %s; %s; heartbeats %d (not 200: %d) p50/p99/max %.1f/%.1f/%.1f ms;"
                        + " heap after GC %d -> %d MB; OOM lines %d, SEVERE lines %d%s", row,
                passed() ? "PASS" : "FAIL", sent, result, beats.beats(), beats.failed(), beats.p50(), beats.p99(),
                beats.max(), heapBeforeKb / 1024, heapAfterKb / 1024, outOfMemoryLines, severeLines,
                passed() ? "" : " -- " + String.join("; ", failures()));
    }

    static String table(List<AbuseRow> rows) {
        StringBuilder b = new StringBuilder("| row | what was sent | result | heartbeats (not 200) | heartbeat p50 / p99"
                + " / max (ms) | heap after GC before → after (MB) | OOM / SEVERE lines | verdict |\n"
                + "|---|---|---|---:|---|---|---|---|\n");
        for (AbuseRow r : rows) {
            b.append(String.format("| %s | %s | %s | %d (%d) | %.1f / %.1f / %.1f | %d → %d | %d / %d | %s |%n",
                    r.row, cell(r.sent), cell(r.result), r.beats.beats(), r.beats.failed(), r.beats.p50(),
                    r.beats.p99(), r.beats.max(), r.heapBeforeKb / 1024, r.heapAfterKb / 1024, r.outOfMemoryLines,
                    r.severeLines, r.passed() ? "PASS" : "**FAIL**: " + String.join("; ", r.failures())));
        }
        return b.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
