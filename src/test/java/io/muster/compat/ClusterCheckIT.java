package io.muster.compat;

import io.muster.testing.Await;
import io.muster.chaos.LinkProxy;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Muster nodes in their own JVMs; A reaches B through a {@link LinkProxy} that can lose batches. Batches A sends
 * while the link loses them are gone for good (B acknowledged nothing it received), so only the cluster check can bring B back in line:
 * after the link is restored, A reports the difference, repairs it after the grace, and both nodes serve the same
 * registry, without any client registering again. And a client's cancel on B supersedes the registration it made on A
 * just before, though A's replication of it reaches B only after the cancel.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)   // the repair figures asserted first count that test's alone
class ClusterCheckIT {
    private static final int A = 17311;
    private static final int B = 17312;
    private static final int LINK = 17313;

    private LinkProxy link;
    private ChildServer a;
    private ChildServer b;
    private Http ha;
    private Http hb;

    @BeforeAll
    void startTwoNodesAToBThroughTheLink() throws Exception {
        link = new LinkProxy(LINK, B);
        a = ChildServer.start(A, "-Deureka.client.serviceUrl.defaultZone=http://peer:peer-pw@127.0.0.1:" + LINK
                        + "/eureka/", "-Deureka.server.waitTimeInMsWhenSyncEmpty=0",
                "-Deureka.client.registerWithEureka=false", "-Deureka.server.clusterCheck.intervalMs=500",
                "-Deureka.server.clusterCheck.repairGraceMs=4000");
        b = ChildServer.start(B, "-Deureka.client.serviceUrl.defaultZone=http://peer:peer-pw@127.0.0.1:" + A
                        + "/eureka/", "-Deureka.server.waitTimeInMsWhenSyncEmpty=0",
                "-Deureka.client.registerWithEureka=false", "-Deureka.server.clusterCheck.enabled=false");
        ha = new Http(a.baseUrl);
        hb = new Http(b.baseUrl);
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[]{b, a, link}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    @Order(1)
    void lostBatchesAreReportedAndRepaired() throws Exception {
        assertThat(ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-0", "UP", 1000)).status()).isEqualTo(204);
        await("the link works before it loses anything", () -> hb.getJson("apps/").body(),
                body -> body.contains("\"a-0\""));
        await("A finds B in sync", () -> ha.get("api/status").body(), body -> body.contains("\"in sync\""));

        link.set(LinkProxy.Mode.BATCHES_LOST, 0);
        for (int i = 1; i <= 3; i++) {
            // versions from the client's clock, as real clients send them: a copy whose version is older than
            // the tombstones is repaired only while its client renews it
            assertThat(ha.postJson("apps/ALPHA", instanceJson("ALPHA", "a-" + i, "UP",
                    System.currentTimeMillis())).status())
                    .isEqualTo(204);
        }
        await("A's batches were taken (and lost)", () -> ha.get("api/status").body(),
                body -> sent(body) >= 4);
        assertThat(hb.getJson("apps/").body()).as("B never got them").doesNotContain("\"a-1\"");

        link.set(LinkProxy.Mode.PASS, 0);
        await("A reports the difference", () -> ha.get("api/status").body(),
                body -> body.contains("\"3 instances differ for "));
        assertThat(ha.get("metrics").body()).containsPattern("muster_replica_differences\\{peer=\"[^\"]*17313[^\"]*\",?} 3\\.0");
        await("B converges", () -> hb.getJson("apps/").body(),
                body -> body.contains("\"a-1\"") && body.contains("\"a-2\"") && body.contains("\"a-3\""));
        await("A finds B in sync again", () -> ha.get("api/status").body(), body -> body.contains("\"in sync\""));
        assertThat(hashCode(ha.getJson("apps/").body())).isEqualTo(hashCode(hb.getJson("apps/").body()));
        assertThat(ha.get("metrics").body()).containsPattern("muster_replica_repairs_total\\{peer=\"[^\"]*\",?} 3\\.0")
                .containsPattern("muster_replication_lag_seconds_count\\{peer=\"[^\"]*\",?} [1-9]");
    }

    @Test
    @Order(2)
    void aCancelOnOneNodeSupersedesTheRegistrationTheClientMadeJustBeforeOnAnother() throws Exception {
        assertThat(ha.postJson("apps/OMEGA", instanceJson("OMEGA", "o-1", "UP",
                System.currentTimeMillis() - 60_000)).status()).isEqualTo(204);
        await("B has the instance", () -> hb.getJson("apps/").body(), body -> body.contains("\"o-1\""));

        // A acknowledges the client's status change; its replication to B is on the way for 3 s
        link.set(LinkProxy.Mode.DELAY, 3000);
        assertThat(ha.postJson("apps/OMEGA", instanceJson("OMEGA", "o-1", "DOWN",
                System.currentTimeMillis())).status()).isEqualTo(204);
        // reads follow writes within about a second: until A serves the DOWN, a view of A without o-1 may be one
        // from before it was registered, and the drop awaited below would pass on it while A still holds it
        await("A serves the client's DOWN", () -> ha.getJson("apps/").body(),
                body -> body.contains("\"o-1\"") && body.contains("\"apps__hashcode\":\"DOWN_1_"));
        // the client fails over to B and leaves, while B still holds the older version
        assertThat(hb.delete("apps/OMEGA/o-1").status()).isEqualTo(200);
        link.set(LinkProxy.Mode.PASS, 0);

        await("A drops the newer registration on B's cancel", () -> ha.getJson("apps/").body(),
                body -> !body.contains("\"o-1\""));
        await("B serves its cancel", () -> hb.getJson("apps/").body(), body -> !body.contains("\"o-1\""));
        // past the delayed batch and the cluster check's grace, at every poll: gone from both nodes
        long end = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        while (System.nanoTime() < end) {
            assertThat(ha.getJson("apps/").body()).as("A, which held the newer registration")
                    .doesNotContain("\"o-1\"");
            assertThat(hb.getJson("apps/").body()).as("B, after A's late replication")
                    .doesNotContain("\"o-1\"");
            Thread.sleep(250);
        }
    }

    private static long sent(String status) {
        Matcher m = Pattern.compile("\"sent\":(\\d+)").matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static String hashCode(String apps) {
        Matcher m = Pattern.compile("\"apps__hashcode\":\"([^\"]*)\"").matcher(apps);
        assertThat(m.find()).as(apps).isTrue();
        return m.group(1);
    }

    private static void await(String what, Supplier<String> read, Predicate<String> condition)
            throws InterruptedException {
        Await.until(what, Duration.ofSeconds(30), read, condition);
    }
}
