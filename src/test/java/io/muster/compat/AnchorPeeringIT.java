package io.muster.compat;

import io.muster.testing.ChildJvm;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.concurrent.TimeUnit;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Muster node peered with a stock Spring Cloud Netflix Eureka Server (the anchor under ../shared/anchor, built
 * and started by its own script): writes on either side reach the other, and each lists the other as an available
 * replica (Eureka's rule: an instance of the server's own application whose host name is the peer URL's host, so
 * both register themselves, under one application name, with the host names the other's URL uses: the anchor as
 * {@code localhost}, Muster as {@code 127.0.0.1}). Skipped where the anchor is not available (set -Danchor.dir to
 * point at it). Ports 17131-17132, apart from the other ITs.
 */
class AnchorPeeringIT {
    private static final int MUSTER_PORT = 17131;
    private static final int ANCHOR_PORT = 17132;
    private static Process anchor;
    private static ChildServer muster;

    @BeforeAll
    static void start() throws Exception {
        File dir = new File(System.getProperty("anchor.dir", "../shared/anchor"));
        Assumptions.assumeTrue(new File(dir, "run.sh").canExecute(), "no anchor Eureka server at " + dir);
        ProcessBuilder anchorStart = new ProcessBuilder(new File(dir, "run.sh").getAbsolutePath(),
                Integer.toString(ANCHOR_PORT),
                "--eureka.client.service-url.defaultZone=http://" + ChildServer.PEER + ":" + ChildServer.PEER_PASSWORD
                        + "@127.0.0.1:" + MUSTER_PORT + "/eureka/",
                // localhost, not 127.0.0.1: Eureka takes a peer URL whose host is its own host name for itself
                "--eureka.instance.hostname=localhost", "--eureka.client.register-with-eureka=true",
                "--eureka.server.registry-sync-retries=0", "--eureka.server.use-read-only-response-cache=false");
        // run.sh's own heap (1 GB) and the JVM's defaults are for benchmarks: here the anchor is a peer to check
        // against, started as every server of a functional check is (31 s of CPU over the class with C2 and G1)
        anchorStart.environment().put("JAVA_OPTS", ChildJvm.quickStartOptions(512));
        anchor = anchorStart.redirectErrorStream(true).redirectOutput(new File("target/anchor-peering.log")).start();
        muster = ChildServer.start(MUSTER_PORT,
                "-Deureka.client.serviceUrl.defaultZone=http://localhost:" + ANCHOR_PORT + "/eureka/",
                "-Dspring.application.name=anchor-eureka", "-Deureka.instance.hostname=127.0.0.1");
        Http a = new Http("http://127.0.0.1:" + ANCHOR_PORT + "/eureka/");
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);   // the first run builds the anchor
        while (true) {
            try {
                if (a.getJson("apps/").status() == 200) {
                    break;
                }
            } catch (RuntimeException notYet) {
                // still starting
            }
            assertThat(anchor.isAlive()).as("anchor running (see target/anchor-peering.log)").isTrue();
            assertThat(System.nanoTime()).as("anchor started in time").isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (muster != null) {
            muster.close();
        }
        if (anchor != null) {
            anchor.destroy();   // run.sh execs java, so this PID is the server's
            if (!anchor.waitFor(20, TimeUnit.SECONDS)) {
                anchor.destroyForcibly();
            }
        }
    }

    @Test
    void writesOnEitherSideReachTheOther() throws Exception {
        Http m = new Http(muster.baseUrl);
        Http a = new Http("http://127.0.0.1:" + ANCHOR_PORT + "/eureka/");

        assertThat(m.postJson("apps/FROM-MUSTER", instanceJson("FROM-MUSTER", "m-1", "UP", 1000)).status())
                .isEqualTo(204);
        awaitStatus(a, "apps/FROM-MUSTER/m-1", 200);

        assertThat(a.postJson("apps/FROM-ANCHOR", instanceJson("FROM-ANCHOR", "s-1", "UP", 1000)).status())
                .isEqualTo(204);
        awaitStatus(m, "apps/FROM-ANCHOR/s-1", 200);

        assertThat(m.as(ChildServer.ADMIN, ChildServer.ADMIN_PASSWORD)
                .put("apps/FROM-MUSTER/m-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        awaitBody(a, "apps/FROM-MUSTER/m-1", "\"OUT_OF_SERVICE\"");
        assertThat(a.put("apps/FROM-ANCHOR/s-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        awaitBody(m, "apps/FROM-ANCHOR/s-1", "\"OUT_OF_SERVICE\"");

        assertThat(m.put("apps/FROM-ANCHOR/s-1").status()).as("heartbeat on Muster for the anchor's instance")
                .isEqualTo(200);
        assertThat(a.delete("apps/FROM-MUSTER/m-1").status()).isEqualTo(200);
        awaitStatus(m, "apps/FROM-MUSTER/m-1", 404);
        assertThat(m.delete("apps/FROM-ANCHOR/s-1").status()).isEqualTo(200);
        awaitStatus(a, "apps/FROM-ANCHOR/s-1", 404);
    }

    @Test
    void eachListsTheOtherAsAnAvailableReplica() throws Exception {
        Http m = new Http(muster.baseUrl);
        Http a = new Http("http://127.0.0.1:" + ANCHOR_PORT + "/eureka/");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        String musterView = m.getJson("status").body();
        String anchorView = a.get("status", "Accept", "application/xml").body();
        while (!(element(musterView, "\"available-replicas\":\"([^\"]*)\"").contains(":" + ANCHOR_PORT + "/eureka/")
                && element(anchorView, "<available-replicas>([^<]*)<").contains(":" + MUSTER_PORT + "/eureka/"))) {
            assertThat(System.nanoTime()).as("each lists the other as available; Muster: " + musterView
                    + "; anchor: " + anchorView).isLessThan(deadline);
            Thread.sleep(1000);
            musterView = m.getJson("status").body();
            anchorView = a.get("status", "Accept", "application/xml").body();
        }
        assertThat(element(musterView, "\"unavailable-replicas\":\"([^\"]*)\"")).isEmpty();
        assertThat(element(anchorView, "<unavailable-replicas>([^<]*)<")).isEmpty();
    }

    private static String element(String doc, String regex) {
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(regex).matcher(doc);
        return matcher.find() ? matcher.group(1) : "";
    }

    private static void awaitStatus(Http node, String path, int status) throws InterruptedException {
        await(node, path, r -> r.status() == status, "HTTP " + status);
    }

    private static void awaitBody(Http node, String path, String text) throws InterruptedException {
        await(node, path, r -> r.body().contains(text), text);
    }

    private static void await(Http node, String path, java.util.function.Predicate<Http.Reply> ok, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        Http.Reply r = node.getJson(path);
        while (!ok.test(r)) {
            assertThat(System.nanoTime()).as(path + " to show " + what + "; last " + r.status() + " " + r.body())
                    .isLessThan(deadline);
            Thread.sleep(100);
            r = node.getJson(path);
        }
    }
}
