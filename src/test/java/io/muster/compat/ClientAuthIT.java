package io.muster.compat;

import com.netflix.discovery.DiscoveryClient;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (c.getApplication("SECURED-APP") == null && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(c.getApplication("SECURED-APP")).as("its own authenticated fetches see it").isNotNull();
            assertThat(anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD).getJson("apps/SECURED-APP")
                    .status()).isEqualTo(200);
        } finally {
            c.shutdown();
        }
        // fetches are cached and show the cancel within a second
        Http client = anonymous.as(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD);
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (client.getJson("apps/SECURED-APP").status() != 404 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(client.getJson("apps/SECURED-APP").status()).as("cancelled with credentials").isEqualTo(404);
        assertThat(client.getJson("apps/SECURED-APP/" + "any").status()).isEqualTo(404);
    }
}
