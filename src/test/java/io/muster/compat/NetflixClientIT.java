package io.muster.compat;

import io.muster.testing.Await;
import com.netflix.appinfo.InstanceInfo;
import com.netflix.discovery.DiscoveryClient;
import com.netflix.discovery.shared.transport.EurekaHttpClient;
import com.netflix.discovery.shared.Application;
import com.netflix.spectator.api.Counter;
import com.netflix.spectator.api.DefaultRegistry;
import com.netflix.spectator.api.Spectator;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real Netflix eureka-client 2.0.6 instances (Jersey 3 transport) against the packaged WAR running in a child JVM:
 * register, renew, fetch, follow changes through deltas, cancel on shutdown.
 */
class NetflixClientIT {
    static ChildServer server;

    @BeforeAll
    static void start() throws Exception {
        // the client's own counters go to Spectator's global registry, which counts nothing until one is added
        Spectator.globalRegistry().add(new DefaultRegistry());
        server = ChildServer.start(18095);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static DiscoveryClient client(String ns, String app, boolean register, int port) {
        return NetflixClients.start(ns, server.baseUrl, app, port, register, Map.of("vipAddress", app.toLowerCase(),
                "metadata.team", "payments", "lease.renewalInterval", "1", "shouldOnDemandUpdateStatusChange", "true"));
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(15), condition);
    }

    private static long reconcileMismatches(DiscoveryClient c) throws Exception {
        Field f = DiscoveryClient.class.getDeclaredField("RECONCILE_HASH_CODES_MISMATCH");
        f.setAccessible(true);
        return ((Counter) f.get(c)).count();
    }

    @Test
    void registersRenewsIsFetchedAndCancelsOnShutdown() throws Exception {
        Http http = new Http(server.baseUrl);
        DiscoveryClient a = client("clienta", "payments", true, 9001);
        DiscoveryClient b = client("clientb", "watcher", false, 9002);
        try {
            // fetches are cached and may trail a change by up to a second; b fetches every second
            await("registered app visible to a second client", () -> b.getApplication("PAYMENTS") != null);
            Application app = b.getApplication("PAYMENTS");
            InstanceInfo seen = app.getInstances().get(0);
            assertThat(seen.getPort()).isEqualTo(9001);
            assertThat(seen.getMetadata()).containsEntry("team", "payments");
            assertThat(seen.getVIPAddress()).isEqualTo("payments");
            await("a heartbeat reaches the server", () -> a.getStats().lastSuccessfulHeartbeatTimestampMs() > 0);
        } finally {
            b.shutdown();
        }
        long shutdownAt = System.currentTimeMillis();
        a.shutdown();   // sends the cancel
        Http.Reply after = http.getJson("apps/PAYMENTS");
        if (after.status() == 200) {
            // the client's race, not the server's: a heartbeat still in flight when the client stopped its timers can
            // reach the server after the cancel, be answered 404, and make the client register again (any Eureka
            // server sees that). Then the registration is newer than the shutdown; a cancel never applied is not.
            assertThat(registeredAt(after.body())).as("cancelled on shutdown, or registered again after it")
                    .isGreaterThanOrEqualTo(shutdownAt);
        } else {
            assertThat(after.status()).as("cancelled on shutdown").isEqualTo(404);
        }
    }

    private static long registeredAt(String appJson) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"registrationTimestamp\":(\\d+)")
                .matcher(appJson);
        assertThat(m.find()).as("a registration time in " + appJson).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void followsOtherInstancesThroughDeltasWithoutHashMismatches() throws Exception {
        Http http = new Http(server.baseUrl);
        DiscoveryClient watcher = client("watcher2", "watcher2", false, 9003);
        try {
            assertThat(http.postJson("apps/FOLLOWED", Http.instanceJson("FOLLOWED", "f-1", "UP",
                    System.currentTimeMillis())).status()).isEqualTo(204);
            await("registration seen", () -> watcher.getApplication("FOLLOWED") != null);

            assertThat(http.put("apps/FOLLOWED/f-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
            await("status change seen", () -> {
                InstanceInfo i = watcher.getApplications().getRegisteredApplications("FOLLOWED").getByInstanceId("f-1");
                return i != null && i.getStatus() == InstanceInfo.InstanceStatus.OUT_OF_SERVICE;
            });

            assertThat(http.put("apps/FOLLOWED/f-1/metadata?color=blue").status()).isEqualTo(200);
            await("metadata change seen", () -> "blue".equals(watcher.getApplications()
                    .getRegisteredApplications("FOLLOWED").getByInstanceId("f-1").getMetadata().get("color")));

            for (int i = 2; i <= 20; i++) {
                http.postJson("apps/FOLLOWED", Http.instanceJson("FOLLOWED", "f-" + i, "UP", 1000));
            }
            await("burst of registrations seen", () -> watcher.getApplications()
                    .getRegisteredApplications("FOLLOWED").getInstancesAsIsFromEureka().size() == 20);

            assertThat(http.delete("apps/FOLLOWED/f-1").status()).isEqualTo(200);
            await("cancellation seen", () -> watcher.getApplications()
                    .getRegisteredApplications("FOLLOWED").getByInstanceId("f-1") == null);

            assertThat(reconcileMismatches(watcher)).as("full fetches forced by a hash mismatch").isZero();
            assertThat(watcher.getApplications().getAppsHashCode())
                    .isEqualTo(watcher.getApplications().getReconcileHashCode());
        } finally {
            watcher.shutdown();
        }
    }

    private static InstanceInfo.InstanceStatus seenStatus(DiscoveryClient watcher, String app) {
        // as Eureka sent it: getInstances() keeps only UP instances (the client's shouldFilterOnlyUpInstances)
        com.netflix.discovery.shared.Application a = watcher.getApplications().getRegisteredApplications(app);
        return a == null || a.getInstancesAsIsFromEureka().isEmpty() ? null
                : a.getInstancesAsIsFromEureka().get(0).getStatus();
    }

    @Test
    void aClientTakesItselfOutOfServiceAndBackWithoutAnyRole() throws Exception {
        DiscoveryClient self = client("selfstatus", "selfstatus", true, 9004);
        DiscoveryClient watcher = client("selfwatcher", "selfwatcher", false, 9005);
        try {
            await("registration seen", () -> seenStatus(watcher, "SELFSTATUS") == InstanceInfo.InstanceStatus.UP);
            InstanceInfo me = self.getApplicationInfoManager().getInfo();
            EurekaHttpClient transport = NetflixClients.registrationTransport(self);
            assertThat(transport.statusUpdate(me.getAppName(), me.getId(), InstanceInfo.InstanceStatus.OUT_OF_SERVICE,
                    me).getStatusCode()).as("statusUpdate, as Netflix's client sends it").isEqualTo(200);
            await("OUT_OF_SERVICE seen by another client",
                    () -> seenStatus(watcher, "SELFSTATUS") == InstanceInfo.InstanceStatus.OUT_OF_SERVICE);
            assertThat(transport.deleteStatusOverride(me.getAppName(), me.getId(), me).getStatusCode())
                    .as("cancelOverrideStatus").isEqualTo(200);
            await("UP again, seen by another client",
                    () -> seenStatus(watcher, "SELFSTATUS") == InstanceInfo.InstanceStatus.UP);
        } finally {
            watcher.shutdown();
            self.shutdown();
        }
    }
}
