package io.muster.compat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.netflix.discovery.DiscoveryClient;
import com.netflix.discovery.shared.Application;
import io.muster.testing.AttackMatrix;
import io.muster.testing.Http;
import org.junit.jupiter.api.Test;

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

/**
 * The same eureka.war on a real Apache Tomcat 10.1 and a real Payara Server 6 (unpacked from Maven Central by the
 * build into target/servers), set up with the files in server-config/ as an operator would, managed through each
 * server's own console (Tomcat's manager text API, Payara's asadmin): deploy, stop/start, redeploy, undeploy, with
 * a real eureka-client register, fetch and cancel round trip and the roles enforced by the server's realm.
 */
class RealServersIT {
    private static final Path SERVERS = Path.of("target", "servers").toAbsolutePath();
    private static final Path WAR = Path.of(System.getProperty("muster.war")).toAbsolutePath();
    /** Tomcat's HTTP port ({@code -Dtomcat.it.port}), so that runs on one machine need not share it. */
    private static final int TOMCAT_PORT = Integer.getInteger("tomcat.it.port", 18280);
    private static final ObjectMapper JSON = new ObjectMapper();

    @org.junit.jupiter.api.BeforeAll
    static void serversUnpacked() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(SERVERS),
                "the build unpacks the servers unless -Dservers.skip=true");
    }

    // ------------------------------------------------------------------ Tomcat

    @Test
    void tomcatDeploysManagesAndServesTheWar() throws Exception {
        Path home;
        try (Stream<Path> s = Files.list(SERVERS)) {
            home = s.filter(p -> p.getFileName().toString().startsWith("apache-tomcat-10.1")).findFirst().orElseThrow();
        }
        Path base = Path.of("target", "tomcat-base").toAbsolutePath();
        io.muster.testing.Trees.deleteTree(base);
        for (String d : new String[]{"conf/Catalina/localhost", "logs", "temp", "webapps", "work"}) {
            Files.createDirectories(base.resolve(d));
        }
        io.muster.testing.Trees.copyTree(home.resolve("conf"), base.resolve("conf"));
        io.muster.testing.Trees.copyTree(home.resolve("webapps/manager"), base.resolve("webapps/manager"));
        String serverXml = Files.readString(base.resolve("conf/server.xml"))
                .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
                .replace("<Connector port=\"8080\"", "<Connector address=\"127.0.0.1\" port=\"" + TOMCAT_PORT + "\"");
        Files.writeString(base.resolve("conf/server.xml"), serverXml);
        Files.writeString(base.resolve("conf/tomcat-users.xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<tomcat-users xmlns=\"http://tomcat.apache.org/xml\" version=\"1.0\">\n"
                + Files.readString(Path.of("server-config/tomcat/tomcat-users-fragment.xml"))
                + "<user username=\"nobody\" password=\"nobody-pw\" roles=\"staff\"/>\n</tomcat-users>\n");
        // the operator's context file, pointing at the WAR, with one setting changed to see it take effect
        Files.writeString(base.resolve("conf/Catalina/localhost/eureka.xml"),
                Files.readString(Path.of("server-config/tomcat/eureka.xml"))
                        .replace("/opt/muster/eureka.war", WAR.toString())
                        .replace("\"eureka.environment\" value=\"prod\"", "\"eureka.environment\" value=\"tomcat-it\""));

        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/catalina.sh").toString(), "run")
                .redirectErrorStream(true).redirectOutput(base.resolve("logs/console.log").toFile());
        pb.environment().putAll(Map.of("CATALINA_HOME", home.toString(), "CATALINA_BASE", base.toString(),
                "CATALINA_OPTS", "-Xmx512m"));
        Process tomcat = pb.start();
        try {
            Http eureka = new Http("http://127.0.0.1:" + TOMCAT_PORT + "/eureka/");
            Http manager = new Http("http://127.0.0.1:" + TOMCAT_PORT + "/manager/text/").as("deployer", "CHANGE-ME-deployer");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 120);
            assertThat(eureka.getJson("status").body()).as("context file settings apply").contains("tomcat-it");
            assertThat(manager.get("list").body()).contains("/eureka:running");
            roundTrip("tomcat", eureka.baseUrl());
            largeFetchesGoBySendfile(eureka, base.resolve("work/Catalina/localhost/eureka/muster-bodies"));
            changesArriveAsEvents(eureka);
            rolesAreEnforced(eureka, "peer", "CHANGE-ME-peer", "admin", "CHANGE-ME-admin");
            wrongPasswordsLockNobodyOut(eureka, "peer", "CHANGE-ME-peer");
            noSpellingGetsPastAccessControl(eureka, List.of(
                    new AttackMatrix.Caller("peer", eureka.as("peer", "CHANGE-ME-peer"), Set.of("eureka-peer")),
                    new AttackMatrix.Caller("admin", eureka.as("admin", "CHANGE-ME-admin"), Set.of("eureka-admin")),
                    new AttackMatrix.Caller("client", eureka.as("client-orders", "CHANGE-ME-client-orders"),
                            Set.of("eureka-client")),
                    new AttackMatrix.Caller("no role", eureka.as("nobody", "nobody-pw"), Set.of("staff"))));

            overrideAndHeartbeat(eureka.as("admin", "CHANGE-ME-admin"));

            assertThat(manager.get("stop?path=/eureka").body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
            assertThat(manager.get("start?path=/eureka").body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
            assertThat(manager.get("reload?path=/eureka").body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);

            assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
            assertThat(manager.get("deploy?path=/eureka&war=file:" + WAR).body()).startsWith("OK");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
            roundTrip("tomcat-redeployed", eureka.baseUrl());
            assertThat(manager.get("undeploy?path=/eureka").body()).startsWith("OK");

            String leaks = RealTomcat.findLeaksSettled(manager);
            if (!leaks.contains("No memory leaks found")) {
                // what holds the loader is in the heap: keep it for the reader of the failure
                run(List.of("jcmd", Long.toString(tomcat.pid()), "GC.heap_dump",
                        base.resolve("leak.hprof").toString()), Map.of(), 120);
            }
            assertThat(leaks).as("no class loader of an undeployed Muster left behind (heap dump: "
                    + base.resolve("leak.hprof") + ")").contains("No memory leaks found");
            String logs = readLogs(base.resolve("logs"));
            // Tomcat's own utility thread is named when it happens to run the context's background work (with the
            // context's class loader) at the moment the context stops: not a thread of ours
            assertThat(logs.replaceAll("\\[eureka\\] appears to have started a thread named \\[Catalina-utility-\\d+\\]",
                    "")).doesNotContain("[eureka] appears to have started a thread");
            assertThat(logs).doesNotContain("[eureka] created a ThreadLocal");
            assertThat(logs).as("no Jersey warning about how the resources are registered").doesNotContain("will be ignored");
        } finally {
            tomcat.destroy();
            if (!tomcat.waitFor(30, TimeUnit.SECONDS)) {
                tomcat.destroyForcibly();
            }
        }
    }

    /**
     * An override set, a heartbeat under it, the override deleted: these run the status overrides' record keys
     * through the JDK's record-method caches, which held a stopped WAR's class loader until contextDestroyed
     * released them (RecordMethodCaches); findleaks after the undeploy checks it on the real server.
     */
    private static void overrideAndHeartbeat(Http admin) {
        assertThat(admin.postJson("apps/LEAKCHECK", Http.instanceJson("LEAKCHECK", "leak-1", "UP", 90)).status())
                .isEqualTo(204);
        assertThat(admin.put("apps/LEAKCHECK/leak-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(admin.put("apps/LEAKCHECK/leak-1").status()).isEqualTo(200);
        assertThat(admin.delete("apps/LEAKCHECK/leak-1/status?value=UP").status()).isEqualTo(200);
        assertThat(admin.delete("apps/LEAKCHECK/leak-1").status()).isEqualTo(200);
    }

    // ------------------------------------------------------------------ Payara Server

    @Test
    void payaraServerDeploysManagesAndServesTheWar() throws Exception {
        Path asadmin = SERVERS.resolve("payara6/bin/asadmin");
        Path domains = Path.of("target", "payara-domains").toAbsolutePath();
        io.muster.testing.Trees.deleteTree(domains);
        Files.createDirectories(domains);
        run(List.of("bash", asadmin.toString(), "create-domain", "--nopassword=true", "--portbase", "21000",
                "--domaindir", domains.toString(), "muster-it"), Map.of(), 180);
        // Hazelcast off (its first occurrence is server-config), as for the embedded server
        Path domainXml = domains.resolve("muster-it/config/domain.xml");
        Files.writeString(domainXml, Files.readString(domainXml).replaceFirst(
                "<hazelcast-config-specific-configuration>",
                "<hazelcast-config-specific-configuration enabled=\"false\">"));
        run(List.of("bash", asadmin.toString(), "start-domain", "--domaindir", domains.toString(), "muster-it"),
                Map.of(), 240);
        List<String> admin = List.of("bash", asadmin.toString(), "--port", "21048");
        try {
            String setup = run(List.of("bash", "server-config/payara/setup.sh", WAR.toString(), "--port", "21048"),
                    Map.of("ASADMIN", asadmin.toString(), "PEER_PASSWORD", "peer-secret",
                            "ADMIN_PASSWORD", "admin-secret"), 240);
            Files.writeString(Path.of("target", "payara-setup.log"), setup);
            Http eureka = new Http("http://127.0.0.1:21080/eureka/");
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 120);
            assertThat(run(concat(admin, "list-applications"), Map.of(), 60)).contains("eureka");
            roundTrip("payara", eureka.baseUrl());
            changesArriveAsEvents(eureka);
            rolesAreEnforced(eureka, "peer", "peer-secret", "admin", "admin-secret");
            wrongPasswordsLockNobodyOut(eureka, "peer", "peer-secret");
            noSpellingGetsPastAccessControl(eureka, List.of(
                    new AttackMatrix.Caller("peer", eureka.as("peer", "peer-secret"), Set.of("eureka-peer")),
                    new AttackMatrix.Caller("admin", eureka.as("admin", "admin-secret"), Set.of("eureka-admin"))));

            payarasOwnHealthListsMustersChecks();
            // the console's two ways: a domain-wide property, and one of the application's own properties
            run(concat(admin, "set-config-property", "--source=domain",
                    "--propertyName=eureka.server.renewalPercentThreshold", "--propertyValue=0.61"), Map.of(), 60);
            run(concat(admin, "set-config-property", "--source=application", "--sourceName=eureka",
                    "--propertyName=eureka.server.maxInstancesPerApp", "--propertyValue=777"), Map.of(), 60);
            Map<String, Object> before = settings(eureka);
            assertThat(before).as("read at start: not yet in effect").containsEntry("renewalPercentThreshold", 0.85);
            assertThat(nextStartChanges(before)).as("the settings view says what the next start changes, and from where")
                    .anySatisfy(c -> assertThat(c).containsEntry("name", "renewalPercentThreshold")
                            .containsEntry("next", 0.61)
                            .hasEntrySatisfying("source", v -> assertThat((String) v).startsWith("MicroProfile Config")))
                    .anySatisfy(c -> assertThat(c).containsEntry("name", "maxInstancesPerApp").containsEntry("next", 777));

            run(concat(admin, "disable", "eureka"), Map.of(), 60);
            RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
            run(concat(admin, "enable", "eureka"), Map.of(), 120);
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
            Map<String, Object> after = settings(eureka);
            assertThat(after).containsEntry("renewalPercentThreshold", 0.61).containsEntry("maxInstancesPerApp", 777);
            @SuppressWarnings("unchecked")
            Map<String, Object> sources = (Map<String, Object>) after.get("sources");
            assertThat((String) sources.get("renewalPercentThreshold")).startsWith("MicroProfile Config");
            assertThat((String) sources.get("maxInstancesPerApp")).startsWith("MicroProfile Config");
            assertThat(nextStartChanges(after)).as("in effect now: nothing left for the next start").isEmpty();
            run(concat(admin, "deploy", "--force=true", "--name", "eureka", "--contextroot", "eureka",
                    WAR.toString()), Map.of(), 180);
            RealTomcat.awaitStatus(eureka, "health/ready", 200, 60);
            roundTrip("payara-redeployed", eureka.baseUrl());
            run(concat(admin, "undeploy", "eureka"), Map.of(), 120);
            RealTomcat.awaitStatus(eureka, "health/live", 404, 30);
            String pid = Files.readString(domains.resolve("muster-it/config/pid")).trim();
            String threads = run(List.of("jcmd", pid, "Thread.print"), Map.of(), 60);
            assertThat(threads).as("threads of the undeployed WAR").doesNotContain("\"muster-");
        } finally {
            run(List.of("bash", asadmin.toString(), "stop-domain", "--domaindir", domains.toString(), "muster-it"),
                    Map.of(), 120);
        }
    }

    /**
     * Payara's own {@code /health} (MicroProfile Health, on the HTTP listener) includes Muster's start-up, liveness
     * and readiness checks, named with the context path, with the same verdicts as Muster's own probes.
     */
    private static void payarasOwnHealthListsMustersChecks() throws Exception {
        Http payara = new Http("http://127.0.0.1:21080/");
        Http.Reply all = payara.getJson("health");
        assertThat(all.status()).as(all.text()).isEqualTo(200);
        assertThat(checkNames(all.text())).contains("muster /eureka start-up-sync", "muster /eureka registry",
                "muster /eureka reads");
        assertThat(checkNames(payara.getJson("health/ready").text())).contains("muster /eureka reads")
                .doesNotContain("muster /eureka registry");
        assertThat(checkNames(payara.getJson("health/live").text())).contains("muster /eureka registry");
        assertThat(checkNames(payara.getJson("health/started").text())).contains("muster /eureka start-up-sync");
    }

    private static List<String> checkNames(String healthJson) throws IOException {
        List<String> names = new ArrayList<>();
        JSON.readTree(healthJson).path("checks").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> settings(Http eureka) throws IOException {
        Http.Reply status = eureka.getJson("api/status");
        assertThat(status.status()).isEqualTo(200);
        return (Map<String, Object>) JSON.readValue(status.text(), Map.class).get("settings");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> nextStartChanges(Map<String, Object> settings) {
        Map<String, Object> next = (Map<String, Object>) settings.get("nextStart");
        assertThat(next).as("the settings view reads the sources again").isNotNull();
        assertThat(next.get("failure")).isNull();
        return (List<Map<String, Object>>) next.get("changes");
    }

    // ------------------------------------------------------------------ shared

    /** A real eureka-client registers, a second one sees it with its port, and the first cancels on shutdown. */
    /**
     * A full registry of more than 48 KB is sent by Tomcat's sendfile from a file written once per payload; it
     * arrives whole and identical to the same registry fetched gzipped (small enough to be written as usual).
     */
    private static void largeFetchesGoBySendfile(Http eureka, Path bodies) throws Exception {
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

    private static void roundTrip(String name, String serviceUrl) throws Exception {
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

    private static void rolesAreEnforced(Http eureka, String peer, String peerPassword, String admin,
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
    private static void wrongPasswordsLockNobodyOut(Http eureka, String peer, String peerPassword) {
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
    private static void changesArriveAsEvents(Http eureka) throws Exception {
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
    private static void noSpellingGetsPastAccessControl(Http eureka, List<AttackMatrix.Caller> withCredentials) {
        assertThat(eureka.postJson("apps/" + AttackMatrix.VICTIM_APP, Http.instanceJson(AttackMatrix.VICTIM_APP,
                AttackMatrix.VICTIM_ID, "UP", 1000)).status()).isEqualTo(204);
        List<AttackMatrix.Caller> callers = new ArrayList<>(withCredentials);
        callers.add(new AttackMatrix.Caller("anonymous", eureka, Set.of()));
        assertThat(AttackMatrix.run(eureka, callers)).isGreaterThan(200);
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static String run(List<String> command, Map<String, String> env, int seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).as(String.join(" ", command) + " finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + text).isZero();
        return text;
    }

    private static String readLogs(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                sb.append(Files.readString(f, StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }
}
