package io.muster.api;

import io.muster.testing.BuiltVersion;
import io.muster.testing.EmbeddedRealm;
import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import io.muster.testing.Promtool;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URL;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /metrics} is Prometheus text whose numbers follow the registry, and Prometheus' own checker finds nothing
 * to object to in it. A three-node cluster in one container, each node the others' peer (with a peer user's
 * credentials), so the scrape has replication series with delivered work in them.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MetricsIT {
    private static final String ROOT = "http://127.0.0.1:" + System.getProperty("payara.test.http.port", "18090")
            + "/";
    private static final String PEER_URL = ROOT + "metrics-peer/";
    /** The label of the node's peer series. */
    private static final String PEER = "{peer=\"" + PEER_URL + "\"}";

    @Deployment(name = "node", testable = false)
    static WebArchive node() {
        return PackagedWar.named("metrics-node", peering("metrics-node", "metrics-peer", "metrics-third"));
    }

    @Deployment(name = "peer", testable = false)
    static WebArchive peer() {
        return PackagedWar.named("metrics-peer", peering("metrics-peer", "metrics-node", "metrics-third"));
    }

    @Deployment(name = "third", testable = false)
    static WebArchive third() {
        return PackagedWar.named("metrics-third", peering("metrics-third", "metrics-node", "metrics-peer"));
    }

    /**
     * All three contexts answer on this one port, where a node would take another context's URL for its own,
     * misnamed; a myUrl on a host of its own (as each node of a real cluster has) makes the others peers.
     */
    private static Map<String, String> peering(String self, String... others) {
        String withPeerUser = ROOT.replace("http://", "http://" + EmbeddedRealm.PEER + ":"
                + EmbeddedRealm.PEER_PASSWORD + "@");
        return Map.of("eureka.server.myUrl", "http://" + self + ".invalid:8080/" + self + "/",
                "eureka.client.serviceUrl.defaultZone",
                String.join(",", Arrays.stream(others).map(o -> withPeerUser + o + "/").toList()));
    }

    @ArquillianResource
    @OperateOnDeployment("node")
    URL base;

    /** Parses the exposition format strictly enough that a malformed line fails the test. */
    static Map<String, Double> parse(String text) {
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (-?[0-9.eE+-]+|NaN|[+-]Inf)$");
        Map<String, Double> values = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                continue;
            }
            Matcher m = sample.matcher(line);
            assertThat(m.matches()).as("a Prometheus sample line: " + line).isTrue();
            values.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
        }
        return values;
    }

    @Test
    void metricsFollowTheRegistry() throws Exception {
        EmbeddedRealm.ensureUsers();
        Http http = new Http(base.toString());
        Http.Reply first = http.get("metrics");
        assertThat(first.header("Content-Type")).startsWith("text/plain");
        Map<String, Double> before = parse(first.body());
        double registrations = before.getOrDefault("muster_registrations_total", 0.0);
        double sent = sentOrSuperseded(before);

        registerRenewCancel(http, "METRIC");
        // 3 registrations, a renewal and a cancel for the peer: each sent, or replaced by a later one before it was
        Map<String, Double> after = parse(awaitReplicated(http, sent + 5));
        // at least: the peer's own registration may be replicated here meanwhile
        assertThat(after.get("muster_registrations_total")).isGreaterThanOrEqualTo(registrations + 3);
        assertThat(after.get("muster_instances{app=\"METRIC\",status=\"UP\"}")).isEqualTo(2.0);
        assertThat(after.get("muster_cancellations_total")).isGreaterThanOrEqualTo(1.0);
        assertThat(after.get("muster_renewals_total")).isGreaterThanOrEqualTo(1.0);
        assertThat(after).containsKeys("muster_renewal_threshold", "muster_self_preservation_active",
                "muster_renewals_last_minute", "muster_evictions_total", "muster_response_cache_builds_total",
                "muster_replication_queue_depth" + PEER, "muster_replication_peer_reachable" + PEER,
                "muster_replication_dropped_total" + PEER, "muster_replication_failed_batches_total" + PEER,
                "muster_replication_superseded_total" + PEER,
                "muster_replica_differences" + PEER, "muster_replica_repairs_total" + PEER,
                "jvm_memory_used_bytes{area=\"heap\",id=\"" + heapPool(after) + "\"}", "jvm_threads_live_threads",
                "jvm_gc_memory_allocated_bytes_total", "jvm_classes_loaded_classes", "process_cpu_seconds_total",
                "process_uptime_seconds", "process_files_open_files", "system_cpu_processors");
        // every acknowledged task is in the lag histogram, retries included
        assertThat(after.get("muster_replication_lag_seconds_count" + PEER))
                .isGreaterThanOrEqualTo(after.get("muster_replication_sent_total" + PEER));
        assertThat(after.get("muster_replication_lag_seconds_bucket{peer=\"" + PEER_URL + "\",le=\"+Inf\"}"))
                .isEqualTo(after.get("muster_replication_lag_seconds_count" + PEER));
        assertThat(after).containsEntry("muster_build_info{version=\"" + BuiltVersion.ofPackagedWar() + "\"}", 1.0);
        assertThat(after.keySet())
                .anyMatch(k -> k.startsWith("muster_http_requests_seconds_bucket{endpoint=\"register\""))
                .anyMatch(k -> k.startsWith("muster_http_requests_seconds_count{endpoint=\"renew\""))
                .noneMatch(k -> k.contains("quantile="));
    }

    @Test
    void aScrapeWithRegistrationsAndAPeerPassesPromtool() throws Exception {
        Promtool.assumeInstalled();
        EmbeddedRealm.ensureUsers();
        Http http = new Http(base.toString());
        double sent = sentOrSuperseded(parse(http.get("metrics").body()));
        registerRenewCancel(http, "LINT");
        String scrape = awaitReplicated(http, sent + 5);
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.output()).as("promtool check metrics findings").isEmpty();
        assertThat(lint.exit()).as("promtool check metrics exit code").isZero();
        // and the other nodes' scrapes, whose numbers come from replicated writes
        for (String other : new String[]{PEER_URL, ROOT + "metrics-third/"}) {
            assertThat(Promtool.checkMetrics(new Http(other).get("metrics").body())).as(other)
                    .isEqualTo(new Promtool.Result(0, ""));
        }
    }

    /** Three registrations, a renewal and a cancellation of the app's instances. */
    private static void registerRenewCancel(Http http, String app) {
        for (int i = 0; i < 3; i++) {
            assertThat(http.postJson("apps/" + app, instanceJson(app, app + "-" + i, "UP", 1000)).status())
                    .isEqualTo(204);
        }
        assertThat(http.put("apps/" + app + "/" + app + "-0").status()).isEqualTo(200);
        assertThat(http.delete("apps/" + app + "/" + app + "-2").status()).isEqualTo(200);
    }

    /** The tasks for the peer that are done with: delivered, or replaced by a later write before they were sent. */
    private static double sentOrSuperseded(Map<String, Double> scrape) {
        return scrape.getOrDefault("muster_replication_sent_total" + PEER, 0.0)
                + scrape.getOrDefault("muster_replication_superseded_total" + PEER, 0.0);
    }

    /**
     * The first scrape in which the tasks for the peer done with reached {@code atLeast} (replication is
     * asynchronous, and within a second here: the wait is bounded by 10 s, far below the node's own heartbeat
     * every 30 s, which must not be what completes the count).
     */
    private static String awaitReplicated(Http http, double atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        String scrape = http.get("metrics").body();
        while (sentOrSuperseded(parse(scrape)) < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(100);
            scrape = http.get("metrics").body();
        }
        assertThat(sentOrSuperseded(parse(scrape))).as("tasks for the peer sent or superseded, in " + scrape.lines()
                .filter(l -> l.contains("muster_replication_s")).toList()).isGreaterThanOrEqualTo(atLeast);
        return scrape;
    }

    /** A heap pool's name, which depends on the collector the JVM runs. */
    private static String heapPool(Map<String, Double> scrape) {
        Pattern heap = Pattern.compile("jvm_memory_used_bytes\\{area=\"heap\",id=\"([^\"]+)\"}");
        return scrape.keySet().stream().map(heap::matcher).filter(Matcher::matches).map(m -> m.group(1)).findFirst()
                .orElse("(no heap pool in the scrape)");
    }
}
