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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/changes} and the blocking fetch against the packaged WAR in Payara: events for each kind of change,
 * filters, resume and reset, heartbeats, the cap, and a fetch that waits for a change.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ChangeStreamIT {
    private static final String PORT = System.getProperty("payara.test.http.port", "18090");
    private static final String BASE = "http://127.0.0.1:" + PORT + "/changes/";
    private final HttpClient client = HttpClient.newHttpClient();
    private final Http http = new Http(BASE);
    private final List<CompletableFuture<?>> open = new ArrayList<>();

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "changes", managed = false, testable = false)
    static WebArchive changes() {
        return PackagedWar.named("changes", Map.of("eureka.server.changes.maxOpen", "4",
                "eureka.server.changes.heartbeatMs", "500", "eureka.server.changes.window", "50"));
    }

    @BeforeEach
    void deploy() {
        deployer.deploy("changes");
    }

    @AfterEach
    void undeploy() {
        open.forEach(f -> f.cancel(true));
        deployer.undeploy("changes");
    }

    /** An open stream: its lines as they arrive. */
    private BlockingQueue<String> stream(String query, String lastEventId) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE + "api/changes" + query));
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        CompletableFuture<HttpResponse<Void>> f = client.sendAsync(b.build(),
                HttpResponse.BodyHandlers.ofByteArrayConsumer(o -> o.ifPresent(bytes ->
                        new String(bytes, java.nio.charset.StandardCharsets.UTF_8).lines().forEach(lines::add))));
        open.add(f);
        return lines;
    }

    /** The next line starting with {@code prefix}, skipping others; fails after 5 s. */
    private static String next(BlockingQueue<String> lines, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no line starting with '" + prefix + "' within 5 s");
    }

    private static void awaitOpen(BlockingQueue<String> lines) throws InterruptedException {
        next(lines, "retry:");
    }

    @Test
    void eachChangeIsAnEventWithTheInstanceAndResumeContinuesAfterTheLastId() throws Exception {
        BlockingQueue<String> all = stream("", null);
        awaitOpen(all);
        assertThat(http.postJson("apps/APP", instanceJson("APP", "a", "UP", 1)).status()).isEqualTo(204);
        String firstId = next(all, "id: ").substring(4);
        assertThat(next(all, "event: ")).isEqualTo("event: registered");
        assertThat(next(all, "data: ")).contains("\"instanceId\":\"a\"", "\"app\":\"APP\"");
        assertThat(http.put("apps/APP/a/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(next(all, "event: ")).isEqualTo("event: status");
        assertThat(http.delete("apps/APP/a").status()).isEqualTo(200);
        assertThat(next(all, "event: ")).isEqualTo("event: cancelled");

        BlockingQueue<String> resumed = stream("", firstId);
        assertThat(next(resumed, "event: ")).isEqualTo("event: status");
        assertThat(next(resumed, "event: ")).isEqualTo("event: cancelled");
        BlockingQueue<String> tooOld = stream("", "999999");
        assertThat(next(tooOld, "event: ")).isEqualTo("event: reset");
    }

    @Test
    void filtersHeartbeatsAndTheCap() throws Exception {
        BlockingQueue<String> orders = stream("?app=orders", null);
        BlockingQueue<String> shop = stream("?vip=shop", null);
        awaitOpen(orders);
        awaitOpen(shop);
        assertThat(http.postJson("apps/BILLING", instanceJson("BILLING", "b", "UP", 1)).status()).isEqualTo(204);
        assertThat(http.postJson("apps/ORDERS", instanceJson("ORDERS", "o", "UP", 1)).status()).isEqualTo(204);
        assertThat(next(orders, "data: ")).contains("\"instanceId\":\"o\"");
        assertThat(next(shop, ": heartbeat")).as("BILLING and ORDERS serve no VIP 'shop'").isNotNull();
        assertThat(shop).noneMatch(l -> l.startsWith("data: "));

        awaitOpen(stream("", null));   // each one open before the next: a fourth still on its way is not counted
        awaitOpen(stream("", null));
        // with a timeout: were it let in, a stream never ends, and the test would hang instead of failing
        HttpResponse<String> refused = client.send(HttpRequest.newBuilder(URI.create(BASE + "api/changes"))
                .timeout(java.time.Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).as("a fifth stream beyond maxOpen=4").isEqualTo(503);
    }

    @Test
    void aFetchWaitsForTheNextChangeOrItsTimeout() throws Exception {
        Http.Reply first = http.getJson("apps/");
        String index = first.header("X-Muster-Index");
        assertThat(index).isNotNull();
        assertThat(http.getJson("apps/delta").header("X-Muster-Index")).isEqualTo(index);

        long t0 = System.nanoTime();
        Http.Reply quiet = http.getJson("apps/?waitForChangeAfter=" + index + "&timeout=1s");
        long quietMillis = (System.nanoTime() - t0) / 1_000_000;
        assertThat(quiet.status()).isEqualTo(200);
        assertThat(quiet.header("X-Muster-Index")).isEqualTo(index);
        assertThat(quietMillis).isBetween(900L, 5_000L);

        CompletableFuture<Http.Reply> waiting = CompletableFuture.supplyAsync(
                () -> http.getJson("apps/delta?waitForChangeAfter=" + index + "&timeout=20s"));
        Thread.sleep(500);
        assertThat(waiting).isNotDone();
        long t1 = System.nanoTime();
        assertThat(http.postJson("apps/APP", instanceJson("APP", "w", "UP", 1)).status()).isEqualTo(204);
        Http.Reply woke = waiting.get(10, TimeUnit.SECONDS);
        long wokeMillis = (System.nanoTime() - t1) / 1_000_000;
        assertThat(woke.status()).isEqualTo(200);
        assertThat(Long.parseLong(woke.header("X-Muster-Index"))).isGreaterThan(Long.parseLong(index));
        assertThat(woke.text()).contains("\"instanceId\":\"w\"");
        assertThat(wokeMillis).as("answered on the change, not at the timeout").isLessThan(3_000);

        assertThat(http.getJson("apps/?waitForChangeAfter=x").status()).isEqualTo(400);
        assertThat(http.getJson("apps/?waitForChangeAfter=1&timeout=1h").status()).isEqualTo(400);
    }
}
