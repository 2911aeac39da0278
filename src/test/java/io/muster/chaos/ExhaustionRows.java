package io.muster.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.muster.chaos.AbuseRow.Check;
import io.muster.testing.Http;
import io.muster.testing.SlowBodies;

import java.net.Socket;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of issue 22 that try to exhaust the node: memory (response cache, a full registry, name churn), threads
 * (clients that never read a large answer or a change stream) and the self-preservation switch. Counts are scaled
 * down from the so that the whole table runs in about ten minutes; each row says what it sent.
 */
final class ExhaustionRows {
    /** Names of the length: a request line just under Tomcat's 8 KB header limit. */
    private static final String LONG = InstanceBodies.pad("-", 7000);
    /** The 10 MB registry the slow readers ask for: 2,500 instances with 2.5 KB of metadata each. */
    static final int BIG_INSTANCES = 2500;
    private static final int BIG_APPS = 25;

    /** Apps the filler spreads over: 20,000 maximum-size instances stay under maxInstancesPerApp (5,000). */
    private static final int FILL_APPS = 150;
    private final AbuseTarget t;

    ExhaustionRows(AbuseTarget t) {
        this.t = t;
    }

    /**
     * Every unknown app answered 404 and every unknown VIP 200 with an empty list (what the server answers for a
     * VIP nobody registered); the cache holds at most the bounded "not found" entries more than before. */
    Check responseCache(long heapBeforeKb) throws InterruptedException {
        JsonNode before = t.status().path("responseCache");
        Duration limit = Duration.ofSeconds(45);
        Flood.Outcome apps = Flood.run(2, 20_000, limit, i -> t.request("apps/U" + i + LONG).GET().build());
        Flood.Outcome vips = Flood.run(2, 2_000, limit, i -> t.request("vips/v" + i + LONG).GET().build());
        Flood.Outcome svips = Flood.run(2, 2_000, limit, i -> t.request("svips/s" + i + LONG).GET().build());
        Flood.Outcome head = Flood.run(2, 2_000, limit, i -> t.request("apps/H" + i + LONG)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        Flood.Outcome compact = Flood.run(2, 2_000, limit, i -> t.request("apps/C" + i + LONG)
                .header("X-Eureka-Accept", "compact").GET().build());
        Thread.sleep(12_000);   // stamps of names nobody holds are pruned every 10 s
        JsonNode after = t.status().path("responseCache");
        long entriesBefore = before.path("readOnlyEntries").asLong() + before.path("readWriteEntries").asLong();
        long entriesAfter = after.path("readOnlyEntries").asLong() + after.path("readWriteEntries").asLong();
        // the "not found" cache holds 1,000 (ResponseCache.ABSENT_ENTRIES); counted in both tiers at worst
        long bound = entriesBefore + 2 * 1_000 + 50;
        boolean answered = apps.all(404) && vips.all(200) && svips.all(200) && head.all(404) && compact.all(404);
        boolean holds = answered && entriesAfter <= bound
                && after.path("stamps").asLong() <= before.path("stamps").asLong() + 1_050;
        return new Check(String.format("%d GET /apps/<distinct 7,000-char name>, 2,000 each of /vips/x, /svips/x,"
                        + " HEAD /apps/x, X-Eureka-Accept: compact, 2 keep-alive connections",
                apps.sent()), String.format("404s: apps %d/%d, HEAD %d, compact %d; empty 200s: vips %d, svips %d;"
                        + " cache entries read-only+read-write %d -> %d (bound %d), stamps %d -> %d, 12 s after", apps.count(404),
                apps.sent(), head.count(404), compact.count(404), vips.count(200), svips.count(200), entriesBefore,
                entriesAfter, bound, before.path("stamps").asLong(), after.path("stamps").asLong()), holds);
    }

    /**
     * 250 connections from one address that declare a 16,000-byte body and send one byte, or send a chunked body's
     * first size line (more than Tomcat's 200 request threads), held 18 s, spread over a registration, a peer batch and an admin action without
     * credentials and a path with no endpoint: another address's registrations and heartbeats keep answering.
     */
    Check slowBodies(long heapBeforeKb) throws Exception {
        SlowBodies.Outcome o = SlowBodies.stall(t.http, 250, Duration.ofSeconds(18));
        boolean bounded;
        try {
            SlowBodies.assertBounded(o, SlowBodies.TOMCAT_STRAYS);
            bounded = true;
        } catch (AssertionError e) {
            bounded = false;
        }
        boolean holds = bounded && o.failures() == 0 && o.slowest().toMillis() < 1_000 && o.closed() >= 248;
        return new Check("250 POSTs (registration, peer batch, admin action, no endpoint), half declaring a"
                + " 16,000-byte body with one byte sent, half chunked with one chunk-size line sent, held 18 s", "two seconds in " + o.atOnce() + ", at the end " + o.atEnd()
                + ", closed " + o.closed() + "; another client: " + o.rounds() + " rounds of registration and"
                + " heartbeats, " + o.failures() + " failed, slowest " + o.slowest().toMillis() + " ms", holds);
    }

    /** Outside the measured window: the registry the slow readers ask for. */
    String registerBigRegistry() {
        Flood.Outcome o = Flood.run(2, BIG_INSTANCES, Duration.ofSeconds(90), i -> t.request(
                        "apps/BIG-" + i % BIG_APPS).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(InstanceBodies.withMetadata("BIG-" + i % BIG_APPS,
                        "big-" + i, 10, 250))).build());
        Http.Reply full = t.http.get("apps/");
        return "registered " + o + "; GET /apps/ (XML) " + full.raw().length / 1024 + " KB";
    }

    void cancelBigRegistry() {
        Flood.run(2, BIG_INSTANCES, Duration.ofSeconds(90), i -> t.request("apps/BIG-" + i % BIG_APPS + "/big-" + i)
                .DELETE().build());
    }

    /**
     * 200 blocking fetches answered at once (waitForChangeAfter=0) and 200 plain full fetches (sendfile on Tomcat),
     * from sockets that read the status line and then nothing, held 20 s: /health/live must keep answering.
     */
    Check slowReadersOnFetch(long heapBeforeKb) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        int[] live = new int[2];
        try {
            for (int i = 0; i < 400; i++) {
                String path = t.path(i % 2 == 0 ? "apps/?waitForChangeAfter=0" : "apps/");
                sockets.add(RawHttp.unread(t.node.port, RawHttp.head("GET", t.node.port, path,
                        "Accept: application/xml\r\n")));
            }
            Map<String, Integer> codes = codesOf(sockets, Duration.ofSeconds(20));
            holdWatchingLiveness(Duration.ofSeconds(20), live);
            close(sockets);
            Thread.sleep(1_000);
            Http.Reply full = t.http.get("apps/");
            boolean holds = live[1] == 0 && full.status() == 200 && full.raw().length > 1_000_000;
            return new Check("200 GET /apps/?waitForChangeAfter=0 + 200 GET /apps/ (XML, registry "
                    + full.raw().length / 1024 + " KB) on sockets that never read, held 20 s",
                    "status lines " + codes + "; /health/live " + live[0] + " answered, " + live[1]
                            + " failed while held; full fetch afterwards " + full.status(), holds);
        } finally {
            close(sockets);
        }
    }

    /**
     * 300 change streams that are never read (the per-client share is 100), then 2,000 changes on one bulky
     * instance so every stream falls behind and is dropped; afterwards a new stream must be admitted again.
     */
    Check slowReadersOnChangeStream(long heapBeforeKb) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        int[] live = new int[2];
        try {
            for (int i = 0; i < 300; i++) {
                sockets.add(RawHttp.unread(t.node.port, RawHttp.head("GET", t.node.port, t.path("api/changes"),
                        "Accept: text/event-stream\r\n")));
            }
            Map<String, Integer> codes = codesOf(sockets, Duration.ofSeconds(20));
            Flood.Outcome changes = Flood.run(2, 2_000, Duration.ofSeconds(60), i -> t.request(
                    "apps/BIG-0/big-0/metadata?version=" + i).PUT(HttpRequest.BodyPublishers.noBody()).build());
            holdWatchingLiveness(Duration.ofSeconds(10), live);
            close(sockets);
            Thread.sleep(2_000);
            Socket fresh = RawHttp.unread(t.node.port, RawHttp.head("GET", t.node.port, t.path("api/changes"),
                    "Accept: text/event-stream\r\n"));
            int freshCode = RawHttp.statusOf(fresh, Duration.ofSeconds(10));
            RawHttp.closeQuietly(fresh);
            int admitted = codes.getOrDefault("200", 0);
            boolean holds = admitted <= 100 && codes.getOrDefault("503", 0) == 300 - admitted && changes.all(200)
                    && live[1] == 0 && freshCode == 200;
            return new Check("300 GET /api/changes never read, then " + changes.sent()
                    + " metadata PUTs on an instance with 2.5 KB of metadata",
                    "streams " + codes + "; changes " + changes.codes() + "; /health/live " + live[0] + " answered, "
                            + live[1] + " failed; a new stream afterwards " + freshCode, holds);
        } finally {
            close(sockets);
        }
    }

    /**
     * One client registers maximum-size instances until the memory cap refuses it; then a new instance of another
     * app, and full and delta fetches in plain JSON at the cap. Cancelled afterwards; cancelled instances stay in
     * the delta for its retention (180 s), so the heap is followed until it is back within bound (at most 240 s).
     */
    Check fillRegistry(long heapBeforeKb) throws Exception {
        int count = 20_000;
        Flood.Outcome fill = Flood.run(2, count, Duration.ofSeconds(150), i -> t.request("apps/" + fillApp(i))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(InstanceBodies.maximum(fillApp(i), fillId(i)))).build());
        Answer more = Answer.of(() -> t.http.postJson("apps/" + fillApp(0), InstanceBodies.maximum(fillApp(0),
                fillId(count))));
        Answer other = Answer.of(() -> t.http.postJson("apps/NEWCOMER", InstanceBodies.plain("NEWCOMER",
                "newcomer-1")));
        int instances = t.status().path("instances").asInt();
        Answer json = Answer.of(() -> t.http.getJson("apps/"));
        Answer delta = Answer.of(() -> t.http.getJson("apps/delta"));
        int oom = t.logCount("OutOfMemoryError");
        Answer.of(() -> t.http.delete("apps/NEWCOMER/newcomer-1"));
        Flood.Outcome cancel = Flood.run(2, count, Duration.ofSeconds(120), i -> t.request("apps/" + fillApp(i)
                + "/" + fillId(i)).DELETE().build());
        String heap = settleHeap(heapBeforeKb);
        boolean refusedWithRetry = fill.count(503) > 0 && more.status() == 503 && more.retryAfter() != null;
        boolean holds = refusedWithRetry && other.status() == 204 && json.status() == 200 && delta.status() == 200
                && oom == 0;
        return new Check(fill.sent() + " maximum-size registrations ("
                        + InstanceBodies.maximum(fillApp(0), fillId(0)).length() / 1024 + " KB of JSON each, " + FILL_APPS
                        + " apps) on 2 connections, then one of another app; JSON full and delta fetch at the cap",
                String.format("fill %s; %d instances held; next from the filler %d (Retry-After %s); new app's"
                                + " registration %d; JSON full fetch %d (%d KB), delta %d; OutOfMemoryError lines"
                                + " by then %d; cancelling %s; heap after GC %s after"
                                + " cancelling", fill.codes(), instances, more.status(), more.retryAfter(), other.status(),
                        json.status(), json.kb(), delta.status(), oom, cancel, heap), holds);
    }

    /**
     * Cancelled instances stay in the delta for its retention (retentionTimeInMSInDeltaQueue, 180 s, swept every
     * 30 s), so a row that cancels what it registered ends its abuse (the heartbeat latencies are of the abuse
     * alone), then follows the heap after GC every 30 s until it is back within bound, for at most 240 s.
     */
    private String settleHeap(long heapBeforeKb) throws InterruptedException {
        t.endAbuse();
        long first = t.node.heapAfterGcKb();
        long settled = first;
        long waited = 0;
        while (settled - heapBeforeKb > AbuseRow.MAX_HEAP_GROWTH_KB && waited < 240) {
            Thread.sleep(30_000);
            waited += 30;
            settled = t.node.heapAfterGcKb();
        }
        String heap = waited == 0 ? first / 1024 + " MB at once" : first / 1024 + " MB at once, " + settled / 1024
                + " MB " + waited + " s later";
        if (settled - heapBeforeKb > AbuseRow.MAX_HEAP_GROWTH_KB) {
            heap += " (largest live classes, bytes: " + String.join(", ", t.node.largestClasses(5)) + ")";
        }
        return heap;
    }

    /** One request's answer, or -1 when the node closed the connection without one (as it does after an OOM). */
    private record Answer(int status, String retryAfter, int kb) {
        static Answer of(java.util.function.Supplier<Http.Reply> send) {
            try {
                Http.Reply r = send.get();
                return new Answer(r.status(), r.header("Retry-After"), r.raw().length / 1024);
            } catch (RuntimeException e) {
                return new Answer(-1, null, 0);
            }
        }
    }

    private static String fillApp(int i) {
        return InstanceBodies.pad("FILL-" + i % FILL_APPS + "-", InstanceBodies.LONGEST_APP).toUpperCase();
    }

    private static String fillId(int i) {
        return InstanceBodies.pad("fill-" + i + "-", 256);
    }

    /** Register and cancel instances whose app and VIP names (~250 characters) are all new. */
    Check churnOfNames(long heapBeforeKb) throws InterruptedException {
        int cycles = 10_000;
        Flood.Outcome o = Flood.runSequences(2, cycles, Duration.ofSeconds(90), i -> {
            String app = InstanceBodies.pad("CHURN-" + i + "-", InstanceBodies.LONGEST_APP).toUpperCase();
            return List.of(t.request("apps/" + app).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(InstanceBodies.plain(app, "c-" + i))).build(),
                    t.request("apps/" + app + "/c-" + i).DELETE().build());
        });
        String heap = settleHeap(heapBeforeKb);
        boolean holds = o.count(204) == o.sent() / 2 && o.count(200) == o.sent() / 2;
        return new Check(o.sent() / 2 + " register+cancel cycles, each with a new 249-char app name and VIP names"
                + " of 249 and 256, 2 connections", "answers " + o.codes() + " in " + o.took().toSeconds()
                + " s; heap after GC " + heap, holds);
    }

    /**
     * 3 registrations that never renew must not raise what self-preservation expects; 5,000 heartbeats for one
     * instance within one minute must count as that instance's allowance (2 a minute), not 5,000.
     */
    Check selfPreservation(long heapBeforeKb) throws InterruptedException {
        JsonNode before = t.status().path("selfPreservation");
        for (int i = 0; i < 3; i++) {
            t.http.postJson("apps/JUNK", InstanceBodies.plain("JUNK", "junk-" + i));
        }
        t.http.postJson("apps/FLOODED", InstanceBodies.plain("FLOODED", "flooded-1"));
        Thread.sleep(1_500);
        JsonNode junk = t.status().path("selfPreservation");
        // the whole flood inside one minute, read once that minute is the last whole one
        while (Instant.now().getEpochSecond() % 60 > 45 || Instant.now().getEpochSecond() % 60 < 1) {
            Thread.sleep(500);
        }
        long minute = Instant.now().getEpochSecond() / 60;
        Flood.Outcome flood = Flood.run(2, 5_000, Duration.ofSeconds(12), i -> t.request("apps/FLOODED/flooded-1")
                .PUT(HttpRequest.BodyPublishers.noBody()).build());
        while (Instant.now().getEpochSecond() / 60 == minute || Instant.now().getEpochSecond() % 60 < 2) {
            Thread.sleep(500);
        }
        JsonNode after = t.status().path("selfPreservation");
        long expectedBefore = before.path("expectedClients").asLong();
        long counted = after.path("renewalsLastMinute").asLong();
        long notCounted = after.path("renewalsNotCounted").asLong();
        long renewing = after.path("expectedClients").asLong();
        boolean holds = junk.path("expectedClients").asLong() == expectedBefore
                && junk.path("neverRenewed").asLong() >= before.path("neverRenewed").asLong() + 3
                && counted <= 2 * renewing + 2 && notCounted >= flood.count(200) - 4 && flood.all(200);
        for (int i = 0; i < 3; i++) {
            t.http.delete("apps/JUNK/junk-" + i);
        }
        t.http.delete("apps/FLOODED/flooded-1");
        return new Check("3 registrations that never renew; then " + flood.sent()
                        + " heartbeats for one instance within a minute",
                String.format("expected clients %d -> %d after the junk (never renewed %d -> %d); after the flood"
                                + " (%s): counted renewals in the last minute %d for %d renewing instances, not"
                                + " counted %d; threshold %d, self-preservation %s -> %s",
                        expectedBefore, junk.path("expectedClients").asLong(), before.path("neverRenewed").asLong(),
                        junk.path("neverRenewed").asLong(), flood.codes(), counted, renewing, notCounted,
                        after.path("renewalThreshold").asLong(), onOff(before), onOff(after)), holds);
    }

    private static String onOff(JsonNode sp) {
        return sp.path("belowThreshold").asBoolean() ? "on (leases kept)" : "off";
    }

    private void holdWatchingLiveness(Duration hold, int[] liveAnsweredFailed) throws InterruptedException {
        for (long end = System.nanoTime() + hold.toNanos(); System.nanoTime() < end; ) {
            liveAnsweredFailed[t.live() ? 0 : 1]++;
            Thread.sleep(1_000);
        }
    }

    /** The status codes on the sockets (the first line of each answer), all read within one time limit. */
    private static Map<String, Integer> codesOf(List<Socket> sockets, Duration limit) {
        long end = System.nanoTime() + limit.toNanos();
        Map<String, Integer> codes = new TreeMap<>();
        for (Socket s : sockets) {
            long left = Math.max(100, (end - System.nanoTime()) / 1_000_000);
            int code = RawHttp.statusOf(s, Duration.ofMillis(left));
            codes.merge(code < 0 ? "no answer" : Integer.toString(code), 1, Integer::sum);
        }
        return codes;
    }

    private static void close(List<Socket> sockets) {
        sockets.forEach(RawHttp::closeQuietly);
    }
}
