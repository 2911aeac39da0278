package io.muster.web;

import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one anonymous client can make the node hold, at default settings, against the packaged WAR in Payara: a
 * loop of fetches for distinct unknown names leaves the response cache at its bound, and clients that ask for
 * the whole registry and never read it hold no thread and little heap: heartbeats keep their latency at every
 * poll meanwhile, and beyond its share such a client is told 503 at once.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ResourceBoundsIT {
    private static final String PORT = System.getProperty("payara.test.http.port", "18090");
    private static final String BASE = "http://127.0.0.1:" + PORT + "/bounds/";
    /** What a heartbeat may take while the node is abused: clients renew every 30 s with a 5 s timeout or more. */
    private static final long HEARTBEAT_BOUND_MILLIS = 1_000;
    /**
     * What 120 stalled answers of a 10 MB registry may hold after GC: Payara's write queue takes four socket buffers
     * per connection (a 256 KB buffer in the domain the build generates), not the whole answer.
     */
    private static final long HELD_BOUND_BYTES = 200_000_000;
    private static final ObjectName BEANS = beans();
    private final Http http = new Http(BASE);
    private final List<Socket> sockets = new ArrayList<>();

    @ArquillianResource
    Deployer deployer;

    private static ObjectName beans() {
        try {
            return new ObjectName("io.muster:context=/bounds,*");
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    @Deployment(name = "bounds", managed = false, testable = false)
    static WebArchive bounds() {
        return PackagedWar.named("bounds", Map.of());
    }

    @BeforeEach
    void deploy() {
        deployer.deploy("bounds");
        assertThat(http.postJson("apps/VICTIM", instanceJson("VICTIM", "victim-1", "UP", 1)).status())
                .isEqualTo(204);
    }

    @AfterEach
    void undeploy() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
        deployer.undeploy("bounds");
        assertThat(ManagementFactory.getPlatformMBeanServer().queryNames(BEANS, null))
                .as("no MBean of the undeployed application left in the JVM").isEmpty();
    }

    @Test
    void fetchesForDistinctUnknownNamesLeaveTheCacheAtItsBound() {
        String padding = "X".repeat(2_000);
        for (int i = 0; i < 6_000; i++) {
            String name = "NOPE" + i + padding;
            String path = switch (i % 4) {
                case 0 -> "apps/" + name;
                case 1 -> "vips/" + name.toLowerCase();
                case 2 -> "svips/" + name.toLowerCase();
                default -> "apps/" + name;
            };
            Http.Reply r = i % 4 == 3 ? http.get("apps/" + name, "X-Eureka-Accept", "compact")
                    : http.get(path, "Accept", "application/json", "Accept-Encoding", "gzip");
            assertThat(r.status()).as(path).isIn(200, 404);
            if (i % 1_000 == 0) {
                assertHeartbeatIsPrompt();
            }
        }
        String cache = http.getJson("api/status").body();
        assertThat(number(cache, "readOnlyEntries")).as("only shapes of names that exist").isLessThan(20);
        assertThat(number(cache, "readWriteEntries")).as("not found answers are kept at most 1,000")
                .isLessThanOrEqualTo(1_020);
        assertThat(http.getJson("apps/VICTIM").body()).contains("victim-1");
    }

    @Test
    void clientsThatNeverReadTheWholeRegistryHoldNoThreadAndHeartbeatsStayPrompt() throws Exception {
        fillRegistry(2_500);   // about 10 MB of XML: more than a socket's buffers hold
        byte[] full = http.get("apps/").raw();
        assertThat(full.length).isGreaterThan(8_000_000);
        long before = heapAfterGc();
        // 120 stalled requests from this address: the blocking fetch answered at once and the plain full fetch
        for (int i = 0; i < 120; i++) {
            stalledRequest(i % 2 == 0 ? "apps/?waitForChangeAfter=0" : "apps/");
        }
        long deadline = System.currentTimeMillis() + 10_000;
        int polls = 0;
        while (System.currentTimeMillis() < deadline) {
            assertHeartbeatIsPrompt();
            polls++;
            Thread.sleep(200);
        }
        assertThat(polls).isGreaterThan(20);
        assertThat(heapAfterGc() - before).as("heap the stalled answers hold after GC (each would hold 10 MB)")
                .isLessThan(HELD_BOUND_BYTES);
        Http.Reply beyondShare = http.get("apps/");
        assertThat(beyondShare.status()).as("beyond its share, told at once").isEqualTo(503);
        assertThat(beyondShare.body()).contains("largeWrites");
        assertThat(beyondShare.header("Retry-After")).isNotNull();
        assertThat(http.getJson("apps/VICTIM").status()).as("small answers are never refused").isEqualTo(200);
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
        long freed = System.currentTimeMillis() + 15_000;
        while (http.get("apps/").status() != 200) {
            assertThat(System.currentTimeMillis()).as("slots come back once the readers are gone").isLessThan(freed);
            Thread.sleep(250);
        }
        assertHeartbeatIsPrompt();
    }

    /** The server's live heap: embedded Payara runs in this JVM. */
    /**
     * The live heap: the least of three readings, each right after a full collection. One System.gc() may leave
     * garbage of the container's other deployments behind (G1 finishes a concurrent cycle later), which reads as
     * held; what a test holds stays across every collection.
     */
    private static long heapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, rt.totalMemory() - rt.freeMemory());
            Thread.sleep(200);
        }
        return least;
    }

    @Test
    void streamsThatNeverReadAreDroppedWithoutHoldingAThreadAndOneClientGetsOnlyItsShare() throws Exception {
        int admitted = 0;
        for (int i = 0; i < 110; i++) {
            Socket s = stalledSocket();
            s.getOutputStream().write("GET /bounds/api/changes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(5_000);
            String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            if (status.endsWith("200")) {
                admitted++;
            } else {
                assertThat(status).as("beyond the share").endsWith("503");
            }
        }
        assertThat(admitted).as("eureka.server.changes.maxOpenPerClient").isEqualTo(100);
        long before = heapAfterGc();
        // 3,000 changes of some 3 KB each: every stream falls more than its backlog (1,000) behind and is dropped
        String big = "m".repeat(100);
        long deadline = System.currentTimeMillis() + 60_000;
        for (int i = 0; i < 3_000; i++) {
            assertThat(http.put("apps/VICTIM/victim-1/metadata?k" + (i % 20) + "=" + big + i).status())
                    .isEqualTo(200);
            if (i % 100 == 0) {
                assertHeartbeatIsPrompt();
            }
            assertThat(System.currentTimeMillis()).isLessThan(deadline);
        }
        // dropped streams are ended after their grace (30 s, past the write timeout): the share comes back
        long freed = System.currentTimeMillis() + 75_000;
        while (!streamOpens()) {
            assertHeartbeatIsPrompt();
            assertThat(System.currentTimeMillis()).as("the dropped streams' share comes back").isLessThan(freed);
            Thread.sleep(500);
        }
        assertThat(http.get("health/live").status()).isEqualTo(200);
        assertThat(musterAttribute("ChangeStreams", "DroppedStreams")).as("each stream that fell behind, once")
                .isEqualTo(100L);
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
        assertThat(heapAfterGc() - before).as("heap the dropped streams hold once their clients are gone")
                .isLessThan(HELD_BOUND_BYTES / 2);
    }

    /** A figure of the deployment's MBean, read in this JVM, where the embedded Payara runs. */
    private static Object musterAttribute(String type, String attribute) throws Exception {
        Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer().queryNames(
                new ObjectName("io.muster:type=" + type + ",context=/bounds,*"), null);
        assertThat(names).as("the " + type + " MBean of the deployment").hasSize(1);
        return ManagementFactory.getPlatformMBeanServer().getAttribute(names.iterator().next(), attribute);
    }

    /** Whether a new stream from this address is admitted now (its status line only). */
    private boolean streamOpens() throws IOException {
        try (Socket s = new Socket("127.0.0.1", Integer.parseInt(PORT))) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("GET /bounds/api/changes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String line = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return line.endsWith("200");
        }
    }

    private void assertHeartbeatIsPrompt() {
        long t0 = System.nanoTime();
        int status = http.put("apps/VICTIM/victim-1").status();
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(status).isEqualTo(200);
        assertThat(millis).as("heartbeat latency while abused").isLessThan(HEARTBEAT_BOUND_MILLIS);
    }

    private void fillRegistry(int instances) {
        String meta = "v".repeat(60);
        StringBuilder metadata = new StringBuilder("\"metadata\":{");
        for (int k = 0; k < 40; k++) {
            metadata.append(k == 0 ? "" : ",").append("\"key").append(k).append("\":\"").append(meta).append('"');
        }
        metadata.append('}');
        for (int i = 0; i < instances; i++) {
            String body = instanceJson("BULK" + (i % 50), "bulk-" + i, "UP", 1)
                    .replace("\"metadata\":{\"management.port\":\"8080\"}", metadata.toString());
            assertThat(http.postJson("apps/BULK" + (i % 50), body).status()).isEqualTo(204);
        }
    }

    /** A request on a socket that reads nothing: its receive window closes at once. */
    private void stalledRequest(String path) throws IOException {
        OutputStream out = stalledSocket().getOutputStream();
        out.write(("GET /bounds/" + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/xml\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private Socket stalledSocket() throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4_096);
        s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(PORT)), 2_000);
        sockets.add(s);
        return s;
    }

    private static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(\\d+)").matcher(json);
        assertThat(m.find()).as(field + " in " + json).isTrue();
        return Long.parseLong(m.group(1));
    }
}
