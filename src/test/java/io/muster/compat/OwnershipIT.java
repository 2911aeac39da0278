package io.muster.compat;

import io.muster.testing.Await;
import com.netflix.appinfo.InstanceInfo;
import com.netflix.discovery.DiscoveryClient;
import io.muster.testing.Http;
import io.muster.testing.Http.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-application write rights ({@code eureka.server.appOwnership=true}) on embedded Payara, with the bindings
 * an operator makes in the realm: group {@code eureka-app-ORDERS} writes ORDERS, {@code eureka-app-all} every
 * application. A caller bound to another application, a plain {@code eureka-client} and an anonymous caller write
 * nothing of ORDERS in any spelling of any write endpoint; the owner, the platform user, an operator and peers'
 * replicated writes do; a real eureka-client with its own credentials registers, renews, goes out of service and
 * cancels.
 */
class OwnershipIT {
    private static final int PORT = 17151;
    private static final int SPRING_PORT = 17152;
    private static ChildServer server;
    private static Http anonymous;
    private static Http orders;
    private static Http billing;

    @BeforeAll
    static void start() throws Exception {
        server = ChildServer.startWithUsers(PORT, "orders:orders-pw:eureka-app-ORDERS,"
                        + "billing:billing-pw:eureka-app-BILLING,platform:platform-pw:eureka-app-all,"
                        + "netflix:netflix-pw:eureka-app-NETFLIX-OWNED,spring:spring-pw:eureka-app-SPRING-CLIENT",
                "-Deureka.server.appOwnership=true");
        anonymous = new Http(server.baseUrl);
        orders = anonymous.as("orders", "orders-pw");
        billing = anonymous.as("billing", "billing-pw");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void callersNotBoundToTheApplicationWriteNothingOfItInAnySpelling() {
        Http client = anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD);
        OwnershipMatrix.assertStrangersWriteNothing(orders, anonymous, Map.of(billing, "billing", client, "client"));
        Matcher refused = Pattern.compile("muster_rejected_writes_total\\{[^}]*reason=\"not_owner\"[^}]*} (\\d+)")
                .matcher(anonymous.get("metrics").body());
        assertThat(refused.find()).as("counted in /metrics").isTrue();
        assertThat(Double.parseDouble(refused.group(1))).isGreaterThan(0);
    }

    @Test
    void theOwnerThePlatformUserAnOperatorAndPeersWriteTheApplication() {
        assertThat(orders.postJson("apps/orders", instanceJson("ORDERS", "o-2", "UP", 2000)).status())
                .as("the app in the URL is case-insensitive, as in Eureka").isEqualTo(204);
        assertThat(orders.put("apps/ORDERS/o-2").status()).isEqualTo(200);
        assertThat(orders.put("apps/ORDERS/o-2/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(orders.delete("apps/ORDERS/o-2/status?value=UP").status()).isEqualTo(200);
        assertThat(orders.put("apps/ORDERS/o-2/metadata?zone=a").status()).isEqualTo(200);
        Http platform = anonymous.as("platform", "platform-pw");
        assertThat(platform.put("apps/ORDERS/o-2/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
        assertThat(platform.postJson("apps/BILLING", instanceJson("BILLING", "b-1", "UP", 2000)).status())
                .isEqualTo(204);
        Http admin = anonymous.as(ChildServer.ADMIN, ChildServer.ADMIN_PASSWORD);
        assertThat(admin.delete("apps/ORDERS/o-2/status?value=UP").status()).isEqualTo(200);
        Http peer = anonymous.as(ChildServer.PEER, ChildServer.PEER_PASSWORD);
        assertThat(peer.send("POST", "apps/ORDERS", instanceJson("ORDERS", "o-3", "UP", 2000),
                "Content-Type", "application/json", "x-netflix-discovery-replication", "true").status())
                .as("replicated writes are not re-checked").isEqualTo(204);
        assertThat(orders.delete("apps/ORDERS/o-2").status()).isEqualTo(200);
        assertThat(orders.delete("apps/ORDERS/o-3").status()).isEqualTo(200);
        assertThat(billing.delete("apps/BILLING/b-1").status()).as("billing owns BILLING").isEqualTo(200);
    }

    @Test
    void aNetflixClientWithItsOwnCredentialsRegistersRenewsTakesItselfOutOfServiceAndCancels() throws Exception {
        DiscoveryClient c = NetflixClients.start("owned", server.urlWithCredentials("netflix", "netflix-pw"),
                "netflix-owned", 9031, true, Map.of("client.refresh.interval", "1",
                        "lease.renewalInterval", "1"));
        Http platform = anonymous.as("platform", "platform-pw");
        try {
            await(platform, "NETFLIX-OWNED", "\"status\":\"UP\"");
            InstanceInfo me = c.getApplicationInfoManager().getInfo();
            var transport = NetflixClients.registrationTransport(c);
            awaitRenewed(platform, "NETFLIX-OWNED", me.getId());
            assertThat(transport.statusUpdate(me.getAppName(), me.getId(), InstanceInfo.InstanceStatus.OUT_OF_SERVICE,
                    me).getStatusCode()).as("statusUpdate, as Netflix's client sends it").isEqualTo(200);
            await(platform, "NETFLIX-OWNED", "\"status\":\"OUT_OF_SERVICE\"");
            assertThat(transport.deleteStatusOverride(me.getAppName(), me.getId(), me).getStatusCode())
                    .as("cancelOverrideStatus").isEqualTo(200);
        } finally {
            c.shutdown();
        }
        Await.until("NETFLIX-OWNED cancelled at shutdown", Duration.ofSeconds(5),
                () -> platform.getJson("apps/NETFLIX-OWNED").status(), status -> status == 404);
        assertThat(platform.getJson("apps/NETFLIX-OWNED").status()).as("cancelled at shutdown").isEqualTo(404);
    }

    @Test
    void aSpringCloudClientWithItsOwnCredentialsRegistersGoesOutOfServiceAndBackAndCancels() throws Exception {
        Process app = SpringClientApp.start(SPRING_PORT, new java.io.File("target/spring-owned-client.log"),
                "--eureka.client.service-url.defaultZone=" + server.urlWithCredentials("spring", "spring-pw"));
        Http platform = anonymous.as("platform", "platform-pw");
        try {
            await(platform, "SPRING-CLIENT", "\"status\":\"UP\"", 240);   // the first run builds the application
            Http actuator = new Http("http://127.0.0.1:" + SPRING_PORT + "/");
            Matcher link = Pattern.compile("\"href\":\"http://[^/]+/(actuator/service-?registry)\"",
                    Pattern.CASE_INSENSITIVE).matcher(actuator.get("actuator").body());
            assertThat(link.find()).as("the actuator lists the service-registry endpoint").isTrue();
            assertThat(actuator.send("POST", link.group(1), "{\"status\":\"OUT_OF_SERVICE\"}",
                    "Content-Type", "application/json").status()).isBetween(200, 204);
            await(platform, "SPRING-CLIENT", "\"status\":\"OUT_OF_SERVICE\"", 30);
            assertThat(actuator.send("POST", link.group(1), "{\"status\":\"UP\"}",
                    "Content-Type", "application/json").status()).isBetween(200, 204);
            await(platform, "SPRING-CLIENT", "\"status\":\"UP\"", 30);
        } finally {
            app.destroy();   // run.sh execs java: a graceful stop, which cancels
            if (!app.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
        Await.until("SPRING-CLIENT cancelled at shutdown", Duration.ofSeconds(10),
                () -> platform.getJson("apps/SPRING-CLIENT").status(), status -> status == 404);
        assertThat(platform.getJson("apps/SPRING-CLIENT").status()).as("cancelled at shutdown").isEqualTo(404);
    }

    /** The client's own heartbeats (every second here) move the lease's last renewal past its registration. */
    private static void awaitRenewed(Http http, String app, String id) throws InterruptedException {
        Pattern times = Pattern.compile("\"registrationTimestamp\":(\\d+),\"lastRenewalTimestamp\":(\\d+)");
        long deadline = System.nanoTime() + 15_000_000_000L;
        String body = "";
        while (System.nanoTime() < deadline) {
            body = http.getJson("apps/" + app + "/" + id).body();
            Matcher m = times.matcher(body);
            if (m.find() && Long.parseLong(m.group(2)) > Long.parseLong(m.group(1))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("no heartbeat of " + app + "/" + id + " was accepted: " + body);
    }

    private static void await(Http http, String app, String text) throws InterruptedException {
        await(http, app, text, 30);
    }

    private static void await(Http http, String app, String text, int seconds) throws InterruptedException {
        Await.until(app + " shows " + text, Duration.ofSeconds(seconds), () -> http.getJson("apps/" + app),
                r -> r.status() == 200 && r.body().contains(text));
    }
}
