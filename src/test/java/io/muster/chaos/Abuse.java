package io.muster.chaos;

import io.muster.chaos.AbuseRow.Check;
import io.muster.testing.Http;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Issue 22's table, row by row, against one Muster node on real Tomcat (127.0.0.1:19501, default settings, the
 * 1 GB heap of bench/tomcat.sh) from one anonymous client on loopback; the shared-realm row needs
 * clientAuthRequired=true and gets a second start of its own (19502). For every row: the latency of a legitimate
 * instance's heartbeats every 200 ms meanwhile, the heap after a full GC before and after, OutOfMemoryError and
 * SEVERE lines in Tomcat's log, and the row's own check. Exit status 0 when every row passed; the table goes to
 * target/abuse/results.md, the node logs to target/abuse/node*&#47;logs.
 *
 * <pre>
 * java -cp target/test-classes:CLASSPATH io.muster.chaos.Abuse [ROW-WORDS...]   (bench/abuse.sh does this)
 * </pre>
 */
public final class Abuse {
    static final int PORT = 19501;
    static final int AUTH_PORT = 19502;
    static final List<String> HEAP = List.of("-Xms256m", "-Xmx1g");
    /** The shortest time a row's heartbeats are measured over: 25 beats. */
    static final java.time.Duration MIN_WINDOW = java.time.Duration.ofSeconds(5);

    /** A row's abuse; given the heap after GC it started from, for rows that wait for the heap to settle. */
    interface Action {
        Check run(long heapBeforeKb) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        List<AbuseRow> rows = run(Path.of("").toAbsolutePath(), List.of(args));
        System.exit(rows.stream().allMatch(AbuseRow::passed) && !rows.isEmpty() ? 0 : 1);
    }

    static List<AbuseRow> run(Path repo, List<String> only) throws Exception {
        Path out = repo.resolve("target/abuse");
        Files.createDirectories(out);
        Path home = TomcatNode.catalinaHome(repo);
        Path war = Path.of(System.getProperty("chaos.war", repo.resolve("target/eureka.war").toString()))
                .toAbsolutePath();
        List<AbuseRow> rows = new ArrayList<>();
        long start = System.nanoTime();
        try (TomcatNode node = new TomcatNode("abuse", PORT, home, out.resolve("node"), war, repo, false)) {
            stopOnExit(node);
            node.start(HEAP, Cluster.START_TIMEOUT);
            Http http = new Http(node.url());
            http.postJson("apps/LEGIT", InstanceBodies.plain("LEGIT", "legit-1"));
            try (HeartbeatProbe probe = new HeartbeatProbe(node.url(), "LEGIT", "legit-1", null).start()) {
                AbuseTarget t = new AbuseTarget(node, http, probe);
                ExhaustionRows load = new ExhaustionRows(t);
                InputRows input = new InputRows(t);
                Thread.sleep(2_000);   // the probe's first beats: connection and class loading, not abuse
                probe.drain();
                row(rows, only, t, "response-cache growth", load::responseCache);
                if (wanted(only, "slow readers")) {
                    Chaos.log("setting up: " + load.registerBigRegistry());
                    row(rows, only, t, "slow readers, blocking fetch", load::slowReadersOnFetch);
                    row(rows, only, t, "slow readers, change stream", load::slowReadersOnChangeStream);
                    load.cancelBigRegistry();
                }
                row(rows, only, t, "slow request bodies", load::slowBodies);
                row(rows, only, t, "churn of distinct names", load::churnOfNames);
                row(rows, only, t, "self-preservation from outside", load::selfPreservation);
                row(rows, only, t, "ids nobody can address", input::unaddressableIds);
                row(rows, only, t, "permanent hijack", input::permanentHijack);
                row(rows, only, t, "request smuggling", input::requestSmuggling);
                row(rows, only, t, "error path", input::errorPath);
                row(rows, only, t, "odd values", input::oddValues);
                row(rows, only, t, "files in a shared temp directory", input::privateFiles);
                row(rows, only, t, "one client fills the registry", load::fillRegistry);
            }
        }
        if (wanted(only, "shared realm lock-out")) {
            rows.add(realmLockOut(repo, home, war, out));
        }
        String table = AbuseRow.table(rows);
        String summary = String.format("%n%d rows, %d failed, %.1f minutes%n", rows.size(),
                rows.stream().filter(r -> !r.passed()).count(), (System.nanoTime() - start) / 60e9);
        Files.writeString(out.resolve("results.md"), table + summary);
        System.out.println(table + summary);
        return rows;
    }

    /**
     * With clientAuthRequired=true and one client user per service (server-config/tomcat), 6 wrong passwords for
     * a client user and for the peer user from an anonymous caller; the client's next correct heartbeat must be 200.
     */
    private static AbuseRow realmLockOut(Path repo, Path home, Path war, Path out) throws Exception {
        try (TomcatNode node = new TomcatNode("abuse-auth", AUTH_PORT, home, out.resolve("node-auth"), war, repo,
                false)) {
            stopOnExit(node);
            List<String> options = new ArrayList<>(HEAP);
            options.add("-Deureka.server.clientAuthRequired=true");
            node.start(options, Cluster.START_TIMEOUT);
            Http orders = new Http(node.url()).as("client-orders", "CHANGE-ME-client-orders");
            orders.postJson("apps/ORDERS", InstanceBodies.plain("ORDERS", "orders-1"));
            try (HeartbeatProbe probe = new HeartbeatProbe(node.url(), "ORDERS", "orders-1",
                    basic("client-orders", "CHANGE-ME-client-orders")).start()) {
                AbuseTarget t = new AbuseTarget(node, orders, probe);
                Thread.sleep(2_000);
                probe.drain();
                return measure(t, "shared realm lock-out", before -> {
                    List<String> wrong = new ArrayList<>();
                    boolean holds = true;
                    for (String user : new String[]{"client-orders", "peer"}) {
                        Http guesser = new Http(node.url()).as(user, "wrong");
                        int refused = 0;
                        for (int i = 0; i < 6; i++) {
                            refused += guesser.put("apps/ORDERS/orders-1").status() == 401 ? 1 : 0;
                        }
                        wrong.add(user + " " + refused + "/6 401");
                        holds &= refused == 6;
                    }
                    int anonymous = new Http(node.url()).put("apps/ORDERS/orders-1").status();
                    int beat = orders.put("apps/ORDERS/orders-1").status();
                    int fetch = new Http(node.url()).as("client-billing", "CHANGE-ME-client-billing")
                            .getJson("apps/").status();
                    int peer = new Http(node.url()).as("peer", "CHANGE-ME-peer").getJson("apps/").status();
                    holds &= anonymous == 401 && beat == 200 && fetch == 200 && peer == 200;
                    return new Check("clientAuthRequired=true (second start); 6 wrong passwords each for"
                            + " client-orders and peer, anonymous caller",
                            "wrong: " + String.join(", ", wrong) + "; no credentials " + anonymous
                                    + "; then client-orders heartbeat " + beat + ", client-billing fetch " + fetch
                                    + ", peer fetch " + peer, holds);
                });
            }
        }
    }

    private static void row(List<AbuseRow> rows, List<String> only, AbuseTarget t, String name, Action action) {
        if (wanted(only, name)) {
            rows.add(measure(t, name, action));
        }
    }

    private static boolean wanted(List<String> only, String name) {
        return only.isEmpty() || only.stream().anyMatch(name::contains);
    }

    static AbuseRow measure(AbuseTarget t, String name, Action action) {
        Chaos.log("row: " + name);
        long before = t.node.heapAfterGcKb();
        int oom = t.logCount("OutOfMemoryError");
        int severe = t.logCount("SEVERE");
        t.rowBeats();
        long started = System.nanoTime();
        Check c;
        try {
            c = action.run(before);
            // a row of a few requests still gets enough heartbeats for its latencies to mean something
            long left = MIN_WINDOW.toNanos() - (System.nanoTime() - started);
            if (left > 0) {
                Thread.sleep(left / 1_000_000);
            }
        } catch (Exception | AssertionError e) {
            c = new Check("(did not finish)", "threw " + e, false);
        }
        HeartbeatProbe.Window beats = t.rowBeats();
        long after = t.node.heapAfterGcKb();
        AbuseRow r = new AbuseRow(name, c.sent(), c.result() + (beats.failed() > 0 ? "; last heartbeat failure: "
                + t.probe.lastFailure() : ""), c.holds(), beats, before, after,
                t.logCount("OutOfMemoryError") - oom, t.logCount("SEVERE") - severe);
        Chaos.log(r.line());
        return r;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static void stopOnExit(TomcatNode node) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "abuse-stop-" + node.name));
    }
}
