package io.muster.compat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.netflix.discovery.DiscoveryClient;
import com.netflix.discovery.shared.Application;
import io.muster.testing.AttackMatrix;
import io.muster.testing.Http;
import io.muster.testing.SlowBodies;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link TomcatServerIT} and {@link PayaraServerIT} check alike on the real servers. */
final class RealServerChecks {
    static final Path SERVERS = Path.of("target", "servers").toAbsolutePath();
    static final Path WAR = Path.of(System.getProperty("muster.war")).toAbsolutePath();
    static final ObjectMapper JSON = new ObjectMapper();

    private RealServerChecks() {
    }

    /** The build unpacks the servers unless -Dservers.skip=true. */
    static void assumeServersUnpacked() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(SERVERS),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    /**
     * An override set, a heartbeat under it, the override deleted: these run the status overrides' record keys
     * through the JDK's record-method caches, which held a stopped WAR's class loader until contextDestroyed
     * released them (RecordMethodCaches); findleaks after the undeploy checks it on the real server.
     */
    static void overrideAndHeartbeat(Http admin) {
        assertThat(admin.postJson("apps/LEAKCHECK", Http.instanceJson("LEAKCHECK", "leak-1", "UP", 90)).status())
                .isEqualTo(204);
        assertThat(admin.put("apps/LEAKCHECK/leak-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(admin.put("apps/LEAKCHECK/leak-1").status()).isEqualTo(200);
        assertThat(admin.delete("apps/LEAKCHECK/leak-1/status?value=UP").status()).isEqualTo(200);
        assertThat(admin.delete("apps/LEAKCHECK/leak-1").status()).isEqualTo(200);
    }

    /**
     * A full registry of more than 48 KB is sent by Tomcat's sendfile from a file written once per payload; it
     * arrives whole and identical to the same registry fetched gzipped (small enough to be written as usual).
     */
    static void largeFetchesGoBySendfile(Http eureka, Path bodies) throws Exception {
        for (int i = 0; i < 80; i++) {
            String json = Http.instanceJson("SENDFILE", "sf-" + i, "UP", 1_000 + i).replace(
                    "\"metadata\":{\"management.port\":\"8080\"}",
                    "\"metadata\":{\"note\":\"" + "x".repeat(700) + "\"}");
            assertThat(eureka.postJson("apps/SENDFILE", json).status()).isEqualTo(204);
        }
        Thread.sleep(1_500);   // past the next cache refresh
        Http.Reply plain = eureka.getJson("apps/");
        Http.Reply again = eureka.getJson("apps/");
        Http.Reply gzipped = eureka.get("apps/", "Accept", "application/json", "Accept-Encoding", "gzip");
        assertThat(plain.raw().length).as("large enough for sendfile").isGreaterThan(48 * 1024);
        assertThat(plain.header("Content-Length")).isEqualTo(Integer.toString(plain.raw().length));
        assertThat(again.raw()).isEqualTo(plain.raw());
        assertThat(gzipped.header("Content-Encoding")).isEqualTo("gzip");
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzipped.raw()))) {
            assertThat(in.readAllBytes()).isEqualTo(plain.raw());
        }
        assertThat(plain.text()).contains("sf-79");
        try (var files = Files.list(bodies)) {
            assertThat(files.count()).as("bodies written for sendfile in " + bodies).isPositive();
        }
        for (int i = 0; i < 80; i++) {
            eureka.delete("apps/SENDFILE/sf-" + i);
        }
    }

    /** A real eureka-client registers, a second one sees it with its port, and the first cancels on shutdown. */
    static void roundTrip(String name, String serviceUrl) throws Exception {
        String app = "ROUNDTRIP-" + name.toUpperCase();
        DiscoveryClient registrant = NetflixClients.start(name + "-a", serviceUrl, app, 9100, true, Map.of());
        DiscoveryClient watcher = NetflixClients.start(name + "-b", serviceUrl, "watcher-" + name, 9100, false,
                Map.of());
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (watcher.getApplication(app) == null && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            Application seen = watcher.getApplication(app);
            assertThat(seen).as(app + " fetched by a second client").isNotNull();
            assertThat(seen.getInstances().get(0).getPort()).isEqualTo(9100);
        } finally {
            watcher.shutdown();
            registrant.shutdown();
        }
        assertThat(new Http(serviceUrl).getJson("apps/" + app).status()).as("cancelled on shutdown").isEqualTo(404);
    }

    static void rolesAreEnforced(Http eureka, String peer, String peerPassword, String admin,
                                         String adminPassword) {
        String batch = "{\"replicationList\":[]}";
        assertThat(eureka.send("POST", "peerreplication/batch/", batch, "Content-Type", "application/json").status())
                .isEqualTo(401);
        assertThat(eureka.as(admin, adminPassword).send("POST", "peerreplication/batch/", batch,
                "Content-Type", "application/json").status()).isEqualTo(403);
        assertThat(eureka.as(peer, peerPassword).send("POST", "peerreplication/batch/", batch,
                "Content-Type", "application/json").status()).isEqualTo(200);
        assertThat(eureka.send("PUT", "apps/NOBODY/x", null, "x-netflix-discovery-replication", "true").status())
                .as("a heartbeat flagged as replicated, answered by the fast path after access control")
                .isEqualTo(401);
        assertThat(eureka.put("apps/NOBODY/x/status?value=DOWN").status()).as("clients set their own status")
                .isEqualTo(404);
        assertThat(eureka.send("PUT", "apps/NOBODY/x/status?value=DOWN", null, "x-netflix-discovery-replication",
                "true").status()).isEqualTo(401);
    }

    /**
     * More wrong passwords for the shared peer user than Tomcat's default LockOutRealm allows (5), from a caller
     * without credentials of its own, and then the real peer's heartbeat still goes through: the realm set up from
     * server-config/ locks no user out, so a stranger cannot cut the peers (or, with clientAuthRequired, the
     * clients, whose realm is the same) off the registry.
     */
    static void wrongPasswordsLockNobodyOut(Http eureka, String peer, String peerPassword) {
        assertThat(eureka.postJson("apps/LOCKOUT", Http.instanceJson("LOCKOUT", "lockout-1", "UP", 1000)).status())
                .isEqualTo(204);
        for (int i = 0; i < 6; i++) {
            assertThat(eureka.as(peer, "wrong-" + i).send("PUT", "apps/LOCKOUT/lockout-1", null,
                    "x-netflix-discovery-replication", "true").status()).isEqualTo(401);
        }
        assertThat(eureka.as(peer, peerPassword).send("PUT", "apps/LOCKOUT/lockout-1", null,
                "x-netflix-discovery-replication", "true").status())
                .as("the peer's heartbeat after a stranger's wrong passwords").isEqualTo(200);
        assertThat(eureka.delete("apps/LOCKOUT/lockout-1").status()).isEqualTo(200);
    }

    /**
     * The change stream and the blocking fetch on this container's async servlet I/O: a registration arrives as an
     * event on an open stream, and a fetch waiting for the next change returns with it.
     */
    static void changesArriveAsEvents(Http eureka) throws Exception {
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        var stream = client.sendAsync(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(eureka.baseUrl() + "api/changes?app=STREAMED")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofByteArrayConsumer(o -> o.ifPresent(bytes ->
                        new String(bytes, StandardCharsets.UTF_8).lines().forEach(lines::add))));
        try {
            assertThat(nextLine(lines, "retry:")).isNotNull();
            String index = eureka.getJson("apps/").header("X-Muster-Index");
            assertThat(index).as("X-Muster-Index").isNotNull();
            // the cached registry may trail the newest change: catch up until a fetch waits out its timeout and
            // answers with the index it was given, which proves it parked with nothing newer to show
            for (int i = 0; i < 10; i++) {
                String now = eureka.getJson("apps/delta?waitForChangeAfter=" + index + "&timeout=1s")
                        .header("X-Muster-Index");
                if (now.equals(index)) {
                    break;
                }
                index = now;
            }
            String caughtUp = index;
            var waiting = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    eureka.getJson("apps/delta?waitForChangeAfter=" + caughtUp + "&timeout=15s"));
            assertThat(eureka.postJson("apps/STREAMED", Http.instanceJson("STREAMED", "s-1", "UP", 1000)).status())
                    .isEqualTo(204);
            assertThat(nextLine(lines, "event: ")).isEqualTo("event: registered");
            assertThat(nextLine(lines, "data: ")).contains("\"instanceId\":\"s-1\"");
            Http.Reply delta = waiting.get(10, TimeUnit.SECONDS);
            assertThat(delta.status()).isEqualTo(200);
            assertThat(delta.body()).contains("s-1");
        } finally {
            stream.cancel(true);
        }
        assertThat(eureka.delete("apps/STREAMED/s-1").status()).isEqualTo(200);
    }

    private static String nextLine(java.util.concurrent.BlockingQueue<String> lines, String prefix)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' within 10 s");
    }

    /** The attack matrix (every protected endpoint, path spelling and caller without the role) on this server. */
    static void noSpellingGetsPastAccessControl(Http eureka, List<AttackMatrix.Caller> withCredentials) {
        assertThat(eureka.postJson("apps/" + AttackMatrix.VICTIM_APP, Http.instanceJson(AttackMatrix.VICTIM_APP,
                AttackMatrix.VICTIM_ID, "UP", 1000)).status()).isEqualTo(204);
        List<AttackMatrix.Caller> callers = new ArrayList<>(withCredentials);
        callers.add(new AttackMatrix.Caller("anonymous", eureka, Set.of()));
        assertThat(AttackMatrix.run(eureka, callers)).isGreaterThan(200);
    }

    /**
     * 250 connections from one address declare request bodies and send one byte (more than Tomcat's 200 request
     * threads), held 18 s: another client's registrations and heartbeats answer within a second at every round,
     * 32 bodies wait (the address's share) and end in 408 after 15 s, the rest get 503 at once, nothing is
     * registered from them. On Tomcat every refused connection is also closed.
     */
    static void stalledBodiesHoldNoThread(Http eureka, boolean closesRefused) throws Exception {
        SlowBodies.Outcome o = SlowBodies.stall(eureka, 250, java.time.Duration.ofSeconds(18));
        assertThat(o.failures()).as(o.toString()).isZero();
        assertThat(o.slowest()).as(o.toString()).isLessThan(java.time.Duration.ofSeconds(1));
        SlowBodies.assertBounded(o, closesRefused ? SlowBodies.TOMCAT_STRAYS : SlowBodies.GRIZZLY_STRAYS);
        if (closesRefused) {
            assertThat(o.closed()).as(o.toString()).isGreaterThanOrEqualTo(248);
        }
        assertThat(eureka.getJson("apps/SLOW-0").status()).isEqualTo(404);
    }

    static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    static String run(List<String> command, Map<String, String> env, int seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).as(String.join(" ", command) + " finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + text).isZero();
        return text;
    }

    static String readLogs(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                sb.append(Files.readString(f, StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }
}
