package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three Muster nodes started together with every setting at its default, as a new user starts a cluster: each
 * serves reads within seconds (no 403 for the five minutes of waitTimeInMsWhenSyncEmpty), a registration on one is
 * visible on the others within 2 s, and each lists the other two as available replicas, by Eureka's rule, once
 * the nodes' own registrations have reached each other. Ports 17111-17113, apart from the other ITs.
 */
class FreshClusterIT {
    private static final int[] PORTS = {17111, 17112, 17113};
    private static final List<ChildServer> started = new ArrayList<>();

    @AfterAll
    static void stopAll() throws Exception {
        for (ChildServer s : started) {
            s.close();
        }
    }

    @Test
    void aClusterStartedTogetherServesAtOnceAndReplicates() throws Exception {
        started.addAll(ChildServer.startTogether(PORTS, ChildServer.peersOn(PORTS),
                "-Deureka.instance.hostname=127.0.0.1"));
        List<Http> nodes = started.stream().map(s -> new Http(s.baseUrl)).toList();
        for (int i = 0; i < nodes.size(); i++) {
            long servedAfterMs = awaitReads(nodes.get(i), started.get(i).readyAt);
            assertThat(servedAfterMs).as("node %d serves reads within 10 s of its start", i).isLessThan(10_000);
        }

        assertThat(nodes.get(0).postJson("apps/FRESH", instanceJson("FRESH", "f-1", "UP", 1000)).status())
                .isEqualTo(204);
        long t0 = System.nanoTime();
        for (int i = 1; i < nodes.size(); i++) {
            Http node = nodes.get(i);
            while (node.getJson("apps/FRESH/f-1").status() != 200) {
                assertThat(elapsedMs(t0)).as("registration on node 0 visible on node %d", i).isLessThan(2_000);
                Thread.sleep(50);
            }
        }
        assertThat(nodes.get(2).postJson("apps/FRESH", instanceJson("FRESH", "f-2", "UP", 1000)).status())
                .isEqualTo(204);
        t0 = System.nanoTime();
        for (int i = 0; i < 2; i++) {
            while (nodes.get(i).getJson("apps/FRESH/f-2").status() != 200) {
                assertThat(elapsedMs(t0)).as("registration on node 2 visible on node %d", i).isLessThan(2_000);
                Thread.sleep(50);
            }
        }

        // each node registered itself (app UNKNOWN, Spring's default), so each counts the others as available
        for (int i = 0; i < nodes.size(); i++) {
            Http node = nodes.get(i);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            String status = node.getJson("status").body();
            while (availableReplicas(status) < 2) {
                assertThat(System.nanoTime()).as("node %d lists both peers as available; last: %s", i, status)
                        .isLessThan(deadline);
                Thread.sleep(500);
                status = node.getJson("status").body();
            }
            assertThat(status).contains("\"unavailable-replicas\":\"\"", "\"instanceInfo\":{",
                    "\"app\":\"UNKNOWN\"").doesNotContain("isHealthy");
        }
    }

    /** Polls reads until one answers 200; returns how long after the node's start that was. */
    private static long awaitReads(Http node, long readyAt) throws InterruptedException {
        while (true) {
            int status = node.getJson("apps/").status();
            if (status == 200) {
                return elapsedMs(readyAt);
            }
            assertThat(elapsedMs(readyAt)).as("reads answered " + status + " for too long").isLessThan(60_000);
            Thread.sleep(100);
        }
    }

    private static long elapsedMs(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }

    private static int availableReplicas(String statusJson) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"available-replicas\":\"([^\"]*)\"")
                .matcher(statusJson);
        return m.find() ? (int) m.group(1).chars().filter(c -> c == ',').count() : 0;
    }
}
