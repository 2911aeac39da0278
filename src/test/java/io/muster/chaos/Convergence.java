package io.muster.chaos;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks after a fault heals: every node is read as a client reads it until each one holds every acknowledged
 * instance with its last acknowledged status (nothing lost), none of the acknowledged cancellations (nothing
 * resurrected), nothing nobody registered, no instance twice, and all nodes show the same apps hash.
 */
final class Convergence {
    record Verdict(boolean converged, double seconds, int checked, int lost, int wrongStatus, int resurrected,
                   int unknown, int duplicates, int uncertain, List<String> hashes, List<String> examples,
                   List<String> exampleIds, int resurrectedAtAnyPoll, List<String> pollExamples,
                   List<String> pastBound) {
        Verdict withResurrectedAtAnyPoll(int n, List<String> pollExamples, List<String> pastBound) {
            return new Verdict(converged, seconds, checked, lost, wrongStatus, resurrected, unknown, duplicates,
                    uncertain, hashes, examples, exampleIds, n, pollExamples, pastBound);
        }

        /** What still differed, for the first poll past the bound: where to look when a row misses it. */
        List<String> differences() {
            List<String> d = new ArrayList<>(examples);
            d.add(String.format("at %.1f s: %d lost, %d wrong status, %d cancelled listed, %d unknown, %d duplicates,"
                    + " hashes %s", seconds, lost, wrongStatus, resurrected, unknown, duplicates, hashes));
            return d;
        }
    }

    /** A cancellation acknowledged longer ago than this is on every node that is up (replication takes ~0.5 s). */
    static final long REPLICATED_WITHIN_NANOS = 2_000_000_000L;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * Polls until the nodes converge or the timeout ends. Every poll, the first one right after the heal included,
     * also counts the instances listed by a node that answers whose cancellation was acknowledged more than
     * {@link #REPLICATED_WITHIN_NANOS} before it (a node that has just started catches up with the cancellations its
     * peers made since its sync, see StartupSync): the most seen at one poll is the verdict's
     * {@code resurrectedAtAnyPoll} (the end state alone hides a cancelled instance that was back for a minute and
     * then repaired).
     */
    Verdict await(List<String> nodes, Ledger ledger, Duration timeout, Duration bound) throws InterruptedException {
        long start = System.nanoTime();
        Verdict v;
        int worst = 0;
        List<String> worstExamples = List.of();
        List<String> pastBound = List.of();
        do {
            v = once(nodes, ledger, (System.nanoTime() - start) / 1e9);
            if (!v.converged && pastBound.isEmpty() && System.nanoTime() - start > bound.toNanos()) {
                pastBound = v.differences();
            }
            if (v.resurrectedAtAnyPoll() > worst) {
                worst = v.resurrectedAtAnyPoll();
                worstExamples = v.pollExamples();
            }
            if (v.converged) {
                return v.withResurrectedAtAnyPoll(worst, worstExamples, pastBound);
            }
            Thread.sleep(500);
        } while (System.nanoTime() - start < timeout.toNanos());
        return v.withResurrectedAtAnyPoll(worst, worstExamples, pastBound);
    }

    Verdict once(List<String> nodes, Ledger ledger, double elapsed) {
        Map<String, Ledger.Acked> expected = ledger.certain();
        long settledBefore = System.nanoTime() - REPLICATED_WITHIN_NANOS;
        Set<String> backSettled = new HashSet<>();
        List<String> pollExamples = new ArrayList<>();
        Set<String> lost = new HashSet<>();
        Set<String> wrong = new HashSet<>();
        Set<String> back = new HashSet<>();
        Set<String> unknown = new HashSet<>();
        List<String> examples = new ArrayList<>();
        Set<String> exampleIds = new java.util.LinkedHashSet<>();
        List<String> hashes = new ArrayList<>();
        int duplicates = 0;
        boolean allRead = true;
        for (String url : nodes) {
            RegistryView view = RegistryView.fetch(http, url, "apps/");
            hashes.add(view.httpStatus() == 200 ? view.hash() : "HTTP " + view.httpStatus());
            allRead &= view.httpStatus() == 200;
            duplicates += view.duplicates();
            expected.forEach((id, acked) -> {
                String seen = view.statusById().get(id);
                if (acked.cancelled()) {
                    if (seen != null && acked.at() - settledBefore < 0 && backSettled.add(id)
                            && pollExamples.size() < 5) {
                        pollExamples.add(String.format("%s %s cancelled %.1f s before this poll, listed as %s",
                                url, id, (System.nanoTime() - acked.at()) / 1e9, seen));
                    }
                    if (seen != null && back.add(id) && examples.size() < 5) {
                        exampleIds.add(id);
                        examples.add(url + " " + id + " cancelled but present as " + seen);
                    }
                } else if (seen == null) {
                    if (lost.add(id) && examples.size() < 5) {
                        exampleIds.add(id);
                        examples.add(url + " " + id + " (" + acked.status() + ") missing");
                    }
                } else if (!seen.equals(acked.status()) && wrong.add(id) && examples.size() < 5) {
                    exampleIds.add(id);
                    examples.add(url + " " + id + " is " + seen + ", last acknowledged " + acked.status());
                }
            });
            for (String id : view.statusById().keySet()) {
                if (id.startsWith("chaos-") && !expected.containsKey(id) && !ledger.isUncertain(id)) {
                    unknown.add(id);
                }
            }
        }
        boolean sameHash = allRead && hashes.stream().distinct().count() == 1;
        boolean ok = sameHash && lost.isEmpty() && wrong.isEmpty() && back.isEmpty() && unknown.isEmpty()
                && duplicates == 0;
        return new Verdict(ok, elapsed, expected.size(), lost.size(), wrong.size(), back.size(), unknown.size(),
                duplicates, ledger.uncertainCount(), hashes, examples, List.copyOf(exampleIds), backSettled.size(),
                pollExamples, List.of());
    }
}
