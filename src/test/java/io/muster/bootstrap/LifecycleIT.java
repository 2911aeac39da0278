package io.muster.bootstrap;

import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bootstrap listener in a real container: start, stop, redeploy, configuration sources, a bad setting, and the
 * read gate after an empty start-up sync. Deployments are driven by hand; the test runs in the Payara JVM's
 * process, so it can look at the container's threads.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LifecycleIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE = "http://127.0.0.1:" + System.getProperty("payara.test.http.port", "18090")
            + "/";

    @ArquillianResource
    Deployer deployer;

    static WebArchive packaged(String name, Map<String, String> contextParams) {
        return PackagedWar.named(name, contextParams);
    }

    @Deployment(name = "cycle", managed = false, testable = false)
    static WebArchive cycle() {
        return packaged("cycle", Map.of());
    }

    @Deployment(name = "configured", managed = false, testable = false)
    static WebArchive configured() {
        WebArchive war = packaged("configured", Map.of("eureka.server.renewalPercentThreshold", "0.5",
                "eureka.server.evictionIntervalTimerInMs", "5000"));
        // MicroProfile Config's own file: the lowest of the container's sources, read where the container has them
        war.addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                "eureka.server.maxInstancesPerApp=4321\neureka.server.evictionIntervalTimerInMs=7000\n"),
                "META-INF/microprofile-config.properties");
        return war;
    }

    @Deployment(name = "broken", managed = false, testable = false)
    static WebArchive broken() {
        return packaged("broken", Map.of("eureka.server.renewalPercentThreshold", "lots",
                "eureka.server.enableSelfPreservation", "maybe"));
    }

    @Deployment(name = "gated", managed = false, testable = false)
    static WebArchive gated() {
        // myUrl: the deployed node does not know its port, and would take a local URL with its context for itself
        return packaged("gated", Map.of("eureka.client.serviceUrl.defaultZone", "http://127.0.0.1:1/eureka/",
                "eureka.server.myUrl", "http://muster-under-test:8080/eureka/",
                "eureka.server.waitTimeInMsWhenSyncEmpty", "60000"));
    }

    private static long musterThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("muster-")).count();
    }

    private static void awaitNoMusterThreads() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (musterThreads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(musterThreads()).as("threads the WAR started, after undeploy").isZero();
    }

    @Test
    void tenRedeploysLeaveTheThreadCountAtItsBaseline() throws Exception {
        Http http = new Http(BASE + "cycle/");
        long baseline = -1;
        java.util.Map<String, Long> baselineNames = java.util.Map.of();
        for (int round = 0; round < 11; round++) {
            deployer.deploy("cycle");
            assertThat(http.get("health/ready").status()).isEqualTo(200);
            assertThat(http.postJson("apps/CYCLE", instanceJson("CYCLE", "c-" + round, "UP", 1)).status())
                    .isEqualTo(204);
            assertThat(http.getJson("apps/").status()).isEqualTo(200);
            assertThat(musterThreads()).isPositive();
            assertThat(threadNames().keySet()).as("the lanes' threads, named for what they run")
                    .contains("muster-fresh", "muster-peers").doesNotContain("muster-scheduler");
            deployer.undeploy("cycle");
            awaitNoMusterThreads();
            if (round == 0) {
                baseline = liveThreads();   // after one cycle: the container's own pools have been created
                baselineNames = threadNames();
            }
        }
        java.util.Map<String, Long> added = new java.util.TreeMap<>(threadNames());
        for (var e : baselineNames.entrySet()) {
            added.merge(e.getKey(), -e.getValue(), Long::sum);
        }
        added.values().removeIf(n -> n <= 0);
        assertThat(liveThreadsSettlingTo(baseline + 2)).as("threads after ten more redeploys; new: " + added)
                .isLessThanOrEqualTo(baseline + 2);
        assertThat(http.get("health/ready").status()).isEqualTo(404);
    }

    /**
     * Threads Payara's own admin machinery adds on every deploy and undeploy command, with or without this WAR
     * (seen here: one "Executor-Service-N", one "GF Domain XML" and one "Job Cleanup Service" per command); they
     * are not the application's and are left out of the count.
     */
    private static boolean isContainerAdminThread(Thread t) {
        String n = t.getName();
        return n.startsWith("Executor-Service-") || n.equals("GF Domain XML") || n.equals("Job Cleanup Service");
    }

    private static java.util.Map<String, Long> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> !isContainerAdminThread(t)).collect(
                java.util.stream.Collectors.groupingBy(Thread::getName, java.util.stream.Collectors.counting()));
    }

    private static long liveThreads() {
        System.gc();
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> !isContainerAdminThread(t)).count();
    }

    /** The live thread count, asked until it is at most {@code ceiling} or 10 s have passed (threads end late). */
    private static long liveThreadsSettlingTo(long ceiling) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long n = liveThreads();
        while (n > ceiling && System.nanoTime() < deadline) {
            Thread.sleep(100);
            n = liveThreads();
        }
        return n;
    }

    @Test
    void settingsFromAContextParameterAndASystemPropertyTakeEffect() throws Exception {
        System.setProperty("eureka.server.enableSelfPreservation", "false");
        try {
            deployer.deploy("configured");
        } finally {
            System.clearProperty("eureka.server.enableSelfPreservation");
        }
        try {
            String doc = new Http(BASE + "configured/").get("api/status").body();
            assertThat(doc).contains("\"renewalPercentThreshold\":0.5", "\"enableSelfPreservation\":false",
                    "\"maxInstancesPerApp\":4321");
            assertThat(doc).as("MicroProfile Config ranks above context parameters")
                    .contains("\"evictionIntervalTimerInMs\":7000");
            JsonNode settings = JSON.readTree(doc).path("settings");
            assertThat(settings.path("sources").path("renewalPercentThreshold").asText()).isEqualTo("context parameter");
            assertThat(settings.path("sources").path("enableSelfPreservation").asText()).isEqualTo("system property");
            assertThat(settings.path("sources").path("maxInstancesPerApp").asText()).startsWith("MicroProfile Config");
            assertThat(settings.path("sources").path("disableDelta").asText()).isEqualTo("default");
            assertThat(settings.path("shadowedKeys").toString()).as("the context parameter is overridden, and it is said")
                    .contains("eureka.server.evictionIntervalTimerInMs", "overrides what context parameter gives");
            JsonNode next = settings.path("nextStart").path("changes");
            assertThat(next.size()).as("the system property is gone since the start: the next start differs, and"
                    + " only there; " + next).isEqualTo(1);
            assertThat(next.get(0).path("name").asText()).isEqualTo("enableSelfPreservation");
            assertThat(next.get(0).path("inEffect").asBoolean()).isFalse();
            assertThat(next.get(0).path("next").asBoolean()).isTrue();
            assertThat(next.get(0).path("source").asText()).isEqualTo("default");
        } finally {
            deployer.undeploy("configured");
        }
    }

    @Test
    void aBadSettingFailsTheDeploymentNamingEveryBadKey() {
        // the container logs the listener's exception and refuses the app; the embedded adapter does not rethrow
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("io.muster.bootstrap.RegistryBootstrap");
        logger.addHandler(handler);
        try {
            deployer.deploy("broken");
        } catch (RuntimeException expected) {
            logged.add(expected.toString());
        } finally {
            logger.removeHandler(handler);
        }
        assertThat(new Http(BASE + "broken/").get("health/live").status()).isEqualTo(404);
        assertThat(logged).anySatisfy(m -> assertThat(m).contains("Invalid Muster configuration")
                .contains("eureka.server.renewalPercentThreshold=lots")
                .contains("eureka.server.enableSelfPreservation=maybe"));
        try {
            deployer.undeploy("broken");
        } catch (RuntimeException ignored) {
            // nothing was deployed
        }
    }

    @Test
    void readsAnswer403WhileEveryPeerIsUnreachableAndWritesWork() {
        deployer.deploy("gated");
        try {
            Http http = new Http(BASE + "gated/");
            assertThat(http.getJson("apps/").status()).isEqualTo(403);
            assertThat(http.getJson("apps/delta").status()).isEqualTo(403);
            assertThat(http.postJson("apps/GATED", instanceJson("GATED", "g-1", "UP", 1)).status()).isEqualTo(204);
            assertThat(http.put("apps/GATED/g-1").status()).isEqualTo(200);
            assertThat(http.getJson("apps/GATED").status()).isEqualTo(403);
            assertThat(http.getJson("vips/gated").status()).isEqualTo(403);
            assertThat(http.get("health/started").status()).as("started: the start-up sync is done").isEqualTo(200);
            assertThat(http.get("health/live").status()).isEqualTo(200);
            Http.Reply ready = http.get("health/ready");
            assertThat(ready.status()).as("not ready while reads answer 403").isEqualTo(503);
            assertThat(ready.body()).contains("\"status\":\"DOWN\"", "reads answer 403 until a peer answers",
                    "readsHeldUntil");
            assertThat(http.get("health").status()).as("the sum of the three probes").isEqualTo(503);
            // the container's own /health (MicroProfile Health) carries the same verdicts, named with the context
            Http container = new Http(BASE);
            Http.Reply containerReady = container.get("health/ready");
            assertThat(containerReady.status()).isEqualTo(503);
            assertThat(containerReady.body()).contains("muster /gated reads", "reads answer 403 until a peer answers");
            assertThat(container.get("health/live").body()).contains("muster /gated registry");
            assertThat(container.get("health/started").body()).contains("muster /gated start-up-sync");
            assertThat(http.get("api/status").body()).contains("\"readsAllowed\":false");
        } finally {
            deployer.undeploy("gated");
        }
    }
}
