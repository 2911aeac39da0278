package io.muster.compat;

import io.muster.testing.Await;
import com.netflix.discovery.DiscoveryClient;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * With client authentication switched on ({@code eureka.server.clientAuthRequired=true}), a real eureka-client
 * registers and fetches with credentials in its service URL, and is refused without them.
 */
class ClientAuthIT {
    static ChildServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ChildServer.start(18097, "-Deureka.server.clientAuthRequired=true");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aClientWithCredentialsInItsServiceUrlRegistersAndOneWithoutIsRefused() throws Exception {
        Http anonymous = new Http(server.baseUrl);
        assertThat(anonymous.getJson("apps/").status()).isEqualTo(401);
        assertThat(anonymous.get("health/ready").status()).isEqualTo(200);

        assertThatThrownBy(() -> NetflixClients.start("noauth", server.baseUrl, "secured-app", 9010, true, Map.of())).as("registration without credentials fails");

        DiscoveryClient c = NetflixClients.start("withauth",
                server.urlWithCredentials(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD), "secured-app", 9010, true,
                Map.of());
        try {
            Await.until("SECURED-APP in the client's own fetches", Duration.ofSeconds(10),
                    () -> c.getApplication("SECURED-APP"), java.util.Objects::nonNull);
            assertThat(c.getApplication("SECURED-APP")).as("its own authenticated fetches see it").isNotNull();
            assertThat(anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD).getJson("apps/SECURED-APP")
                    .status()).isEqualTo(200);
        } finally {
            c.shutdown();
        }
        // fetches are cached and show the cancel within a second
        Http client = anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD);
        Await.until("SECURED-APP gone", Duration.ofSeconds(3), () -> client.getJson("apps/SECURED-APP").status(),
                status -> status == 404);
        assertThat(client.getJson("apps/SECURED-APP").status()).as("cancelled with credentials").isEqualTo(404);
        assertThat(client.getJson("apps/SECURED-APP/" + "any").status()).isEqualTo(404);
    }

    /** The bypasses once found with {@code ;x}: every client endpoint, in every spelling, refused to anonymous callers. */
    @Test
    void noSpellingOfAClientEndpointLetsAnAnonymousCallerThrough() {
        Http anonymous = new Http(server.baseUrl);
        Http client = anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD);
        assertThat(client.postJson("apps/VICTIM", Http.instanceJson("VICTIM", "v-1", "UP", 1000)).status())
                .isEqualTo(204);
        String body = Http.instanceJson("ANON", "n-1", "UP", 1000);
        java.util.List<String[]> calls = java.util.List.of(
                new String[]{"GET", "apps"}, new String[]{"GET", "apps/delta"}, new String[]{"GET", "apps/VICTIM"},
                new String[]{"GET", "apps/VICTIM/v-1"}, new String[]{"GET", "vips/victim"},
                new String[]{"GET", "svips/victim-secure"}, new String[]{"GET", "instances/v-1"},
                new String[]{"GET", "status"}, new String[]{"POST", "apps/ANON"},
                new String[]{"PUT", "apps/VICTIM/v-1"}, new String[]{"DELETE", "apps/VICTIM/v-1"},
                new String[]{"PUT", "apps/VICTIM/v-1/status?value=OUT_OF_SERVICE"},
                new String[]{"DELETE", "apps/VICTIM/v-1/status?value=DOWN"},
                new String[]{"PUT", "apps/VICTIM/v-1/metadata?k=v"}, new String[]{"GET", "api/status"});
        int refused = 0;
        for (String[] call : calls) {
            for (String path : io.muster.testing.AttackMatrix.variants(java.util.List.of(call[1].split("/")))) {
                int status = anonymous.send(call[0], path, call[0].equals("POST") ? body : null,
                        "Content-Type", "application/json").status();
                assertThat(status).as(call[0] + " " + path).isIn(401, 404, 405);
                refused++;
            }
        }
        assertThat(refused).isGreaterThan(300);
        assertThat(client.getJson("apps/VICTIM/v-1").body()).contains("\"status\":\"UP\"").doesNotContain("\"k\"");
        assertThat(client.getJson("apps/ANON/n-1").status()).isEqualTo(404);
    }
}
