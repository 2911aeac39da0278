package io.muster.bootstrap;

import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Restart without a gap: 1,000 instances registered, the WAR redeployed on the same server, and a client that
 * polls {@code /apps/} throughout never gets a successful answer with fewer than all of them. The snapshot is
 * switched on here through system properties (they outrank the WAR's own settings; the build turns snapshots
 * off for every other IT), into a directory of this test's own.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RestartWithoutGapIT {
    private static final int APPS = 10;
    private static final int PER_APP = 100;
    private static final Pattern INSTANCE_ID = Pattern.compile("\"instanceId\"");

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "gapless", managed = false, testable = false)
    static WebArchive gapless() {
        return PackagedWar.named("gapless", Map.of());
    }

    private static int instances(String json) {
        Matcher m = INSTANCE_ID.matcher(json);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** One poll's answer: status, and how many instances a 200 listed. */
    private record Poll(int status, int instances, boolean afterRedeploy) {
    }

    @Test
    void aClientPollingThroughARedeployNeverSeesFewerInstances() throws Exception {
        Path dir = snapshotsSwitchedOn();
        Http http = gaplessServer();
        try {
            deployer.deploy("gapless");
            for (int a = 0; a < APPS; a++) {
                for (int i = 0; i < PER_APP; i++) {
                    assertThat(http.postJson("apps/APP" + a, instanceJson("APP" + a, "i-" + a + "-" + i, "UP", 1))
                            .status()).isEqualTo(204);
                }
            }
            long visible = System.nanoTime() + 5_000_000_000L;   // within the cache's refresh, about a second
            while (instances(http.getJson("apps/").text()) < APPS * PER_APP && System.nanoTime() < visible) {
                Thread.sleep(100);
            }
            assertThat(instances(http.getJson("apps/").text())).isEqualTo(APPS * PER_APP);

            List<Poll> polls = new CopyOnWriteArrayList<>();
            AtomicBoolean redeployed = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            Thread poller = new Thread(() -> {
                while (!stop.get()) {
                    boolean after = redeployed.get();
                    try {
                        Http.Reply r = http.getJson("apps/");
                        polls.add(new Poll(r.status(), r.status() == 200 ? instances(r.text()) : -1, after));
                    } catch (RuntimeException e) {
                        polls.add(new Poll(-1, -1, after));   // connection refused or reset mid-redeploy
                    }
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "restart-poller");
            poller.start();
            Thread.sleep(200);
            deployer.undeploy("gapless");
            deployer.deploy("gapless");
            redeployed.set(true);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (polls.stream().filter(p -> p.afterRedeploy() && p.status() == 200).count() < 5
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            stop.set(true);
            poller.join();

            assertThat(polls).as("the poller saw the context go away during the redeploy")
                    .anyMatch(p -> p.status() != 200);
            assertThat(polls).as("and come back").anyMatch(p -> p.afterRedeploy() && p.status() == 200);
            assertThat(polls.stream().filter(p -> p.status() == 200).map(Poll::instances).distinct().toList())
                    .as("instances in every successful fetch, before and after the redeploy")
                    .containsExactly(APPS * PER_APP);
            List<Path> written;
            try (var files = Files.list(dir)) {
                // by name: a periodic save's temporary files may come and go meanwhile
                written = files.filter(f -> f.getFileName().toString().endsWith(".snapshot")
                        || f.getFileName().toString().equals("integrity.key")).toList();
            }
            assertThat(written).extracting(f -> f.getFileName().toString())
                    .anyMatch(n -> n.startsWith("registry-")).contains("integrity.key");
            assertThat(written).as("what the server wrote is its user's alone").allSatisfy(f -> assertThat(
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------"));
        } finally {
            snapshotsSwitchedOff();
            deployer.undeploy("gapless");
        }
    }

    @Test
    void aDamagedSnapshotIsIgnoredAndTheServerStarts() throws Exception {
        Path dir = snapshotsSwitchedOn();
        Http http = gaplessServer();
        try {
            deployer.deploy("gapless");
            assertThat(http.postJson("apps/APP", instanceJson("APP", "one", "UP", 1)).status()).isEqualTo(204);
            deployer.undeploy("gapless");
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    byte[] bytes = Files.readAllBytes(f);
                    Files.write(f, java.util.Arrays.copyOf(bytes, bytes.length / 2));   // a torn write
                }
            }
            deployer.deploy("gapless");
            assertThat(http.get("health/ready").status()).isEqualTo(200);
            assertThat(instances(http.getJson("apps/").text())).isZero();
        } finally {
            snapshotsSwitchedOff();
            deployer.undeploy("gapless");
        }
    }

    /** Snapshots on, in a directory of this test's own (system properties outrank the WAR's settings). */
    private static Path snapshotsSwitchedOn() throws java.io.IOException {
        Path dir = Files.createTempDirectory("muster-snapshots");
        System.setProperty("eureka.server.snapshot.enabled", "true");
        System.setProperty("eureka.server.snapshot.directory", dir.toString());
        return dir;
    }

    private static void snapshotsSwitchedOff() {
        System.setProperty("eureka.server.snapshot.enabled", "false");
        System.clearProperty("eureka.server.snapshot.directory");
    }

    private static Http gaplessServer() {
        return new Http("http://127.0.0.1:" + System.getProperty("payara.test.http.port", "18090") + "/gapless/");
    }
}
