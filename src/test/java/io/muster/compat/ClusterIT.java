package io.muster.compat;

import io.muster.testing.Await;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three Muster nodes on loopback, each in its own JVM, fully meshed through the service-URL list operators write.
 * Writes made on any node converge on all; a node started late copies the registry; a stopped node catches up
 * when it comes back; a node that is down does not slow the others; replicated writes are not replicated again.
 */
class ClusterIT {
    private static final int[] PORTS = {18111, 18112, 18113};
    /** As operators write it: every node, credentials of the eureka-peer user in each URL. */
    private static final List<ChildServer> started = new ArrayList<>();

    static ChildServer node(int index) throws Exception {
        // the nodes do not register themselves: this test counts what each node sends to its peers
        ChildServer s = ChildServer.start(PORTS[index], ChildServer.peersOn(PORTS),
                "-Deureka.server.waitTimeInMsWhenSyncEmpty=0", "-Deureka.client.registerWithEureka=false");
        started.add(s);
        return s;
    }

    @AfterAll
    static void stopAll() throws Exception {
        for (ChildServer s : started) {
            s.close();
        }
    }

    static void await(String what, Http node, String path, Predicate<String> condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(10), () -> node.getJson(path).body(), condition);
    }

    static void awaitQueuesEmpty(Http node) throws InterruptedException {
        long deadline = System.nanoTime() + 45_000_000_000L;
        while (Pattern.compile("\"queueDepth\":[1-9]").matcher(node.get("api/status").body()).find()) {
            assertThat(System.nanoTime()).as("replication queues drain").isLessThan(deadline);
            Thread.sleep(200);
        }
        Thread.sleep(500);   // a batch taken from the queue may still be on its way
    }

    static long sentToPeers(Http node) {
        Matcher m = Pattern.compile("\"sent\":(\\d+)").matcher(node.get("api/status").body());
        long total = 0;
        while (m.find()) {
            total += Long.parseLong(m.group(1));
        }
        return total;
    }

    @Test
    void writesOnAnyNodeConvergeOnAllAndNodesCatchUp() throws Exception {
        ChildServer a = node(0);
        ChildServer b = node(1);
        Http ha = new Http(a.baseUrl);
        Http hb = new Http(b.baseUrl);

        for (int i = 0; i < 10; i++) {
            assertThat(ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-" + i, "UP", 1000)).status()).isEqualTo(204);
            assertThat(hb.postJson("apps/BRAVO", instanceJson("BRAVO", "b-" + i, "UP", 1000)).status()).isEqualTo(204);
        }
        await("B sees A's registrations", hb, "apps/ALPHA", body -> body.contains("\"a-9\""));
        await("A sees B's registrations", ha, "apps/BRAVO", body -> body.contains("\"b-9\""));

        assertThat(hb.as(ChildServer.ADMIN, ChildServer.ADMIN_PASSWORD)
                .put("apps/ALPHA/a-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        await("override made on B reaches A", ha, "apps/ALPHA/a-1", body -> body.contains("\"OUT_OF_SERVICE\""));
        assertThat(ha.delete("apps/BRAVO/b-1").status()).isEqualTo(200);
        await("cancel made on A reaches B", hb, "apps/BRAVO", body -> !body.contains("\"b-1\""));
        assertThat(hb.put("apps/ALPHA/a-2").status()).as("heartbeat for A's instance on B").isEqualTo(200);

        ChildServer c = node(2);
        Http hc = new Http(c.baseUrl);
        String full = hc.getJson("apps/").body();
        assertThat(full).as("a late node copies the registry at start")
                .contains("\"a-9\"", "\"b-9\"").doesNotContain("\"b-1\"");
        assertThat(hc.getJson("apps/ALPHA/a-1").body()).contains("\"OUT_OF_SERVICE\"");
        assertThat(hc.postJson("apps/CHARLIE", instanceJson("CHARLIE", "c-1", "UP", 1000)).status()).isEqualTo(204);
        await("C's registration reaches A", ha, "apps/CHARLIE", body -> body.contains("\"c-1\""));
        await("C's registration reaches B", hb, "apps/CHARLIE", body -> body.contains("\"c-1\""));

        // no storm: B and C forward only what their own clients wrote (first B delivers what C's application,
        // deploying, answered 404 to: retried with backoff, not dropped)
        awaitQueuesEmpty(hb);
        long sentByB = sentToPeers(hb);
        long sentByC = sentToPeers(hc);
        for (int i = 10; i < 30; i++) {
            ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-" + i, "UP", 1000));
        }
        await("B sees the burst", hb, "apps/ALPHA", body -> body.contains("\"a-29\""));
        await("C sees the burst", hc, "apps/ALPHA", body -> body.contains("\"a-29\""));
        assertThat(sentToPeers(hb)).as("B re-replicated nothing").isEqualTo(sentByB);
        assertThat(sentToPeers(hc)).as("C re-replicated nothing").isEqualTo(sentByC);

        // B goes away; A and C keep serving quickly; B catches up when it returns
        b.close();
        started.remove(b);
        long t0 = System.nanoTime();
        for (int i = 30; i < 40; i++) {
            assertThat(ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-" + i, "UP", 1000)).status())
                    .isEqualTo(204);
        }
        long perWriteMs = (System.nanoTime() - t0) / 10 / 1_000_000;
        assertThat(perWriteMs).as("ms per registration while a peer is down").isLessThan(200);
        await("C sees writes made while B was down", hc, "apps/ALPHA", body -> body.contains("\"a-39\""));
        assertThat(ha.get("api/status").body()).contains("\"reachable\":false");

        ChildServer b2 = node(1);
        Http hb2 = new Http(b2.baseUrl);
        assertThat(hb2.getJson("apps/ALPHA").body()).as("restarted B synced at start").contains("\"a-39\"");
        assertThat(hb2.postJson("apps/BRAVO", instanceJson("BRAVO", "b-99", "UP", 1000)).status()).isEqualTo(204);
        await("A's replication to B resumes", ha, "apps/BRAVO", body -> body.contains("\"b-99\""));
        ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-40", "UP", 1000));
        await("A reaches the restarted B", hb2, "apps/ALPHA", body -> body.contains("\"a-40\""));
    }
}
