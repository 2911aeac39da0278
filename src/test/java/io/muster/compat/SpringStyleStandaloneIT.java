package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.Test;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node configured like a stock Spring Cloud Eureka server ({@code defaultZone} = its own URL) never answers reads
 * with 403: its own URL is not a peer, so there is nothing to wait for. Once with the port unknown to the
 * application (it must recognise itself without being told) and the client switches off, once with the port known
 * and the switches on. Also checks what such a node reports about a carried-over typo, and Eureka's extra
 * endpoints. Ports 17121-17122, apart from the other ITs.
 */
class SpringStyleStandaloneIT {

    @Test
    void ownUrlAsDefaultZoneWithThePortUnknownAndClientSwitchesOff() throws Exception {
        try (ChildServer node = ChildServer.startWithoutPortHint(17121,
                "-Deureka.client.serviceUrl.defaultZone=http://localhost:17121/eureka/",
                "-Deureka.client.registerWithEureka=false", "-Deureka.client.fetchRegistry=false",
                "-Deureka.server.enableSelfPreservaton=false", "-Deureka.dashboard.path=/ui")) {
            Http http = new Http(node.baseUrl);
            readsNever403For(http, 3_000);
            String settings = http.get("api/status").body();
            assertThat(settings).as("the typo is reported with the closest key").contains(
                    "eureka.server.enableSelfPreservaton", "did you mean eureka.server.enableSelfPreservation?");
            assertThat(settings).contains("\"keysWithoutEffect\"", "eureka.client.fetchRegistry");

            assertThat(http.getJson("serverinfo/statusoverrides").body()).isEqualTo("{}");
            assertThat(http.postJson("apps/SHOP", instanceJson("SHOP", "s-1", "UP", 1000)).status()).isEqualTo(204);
            assertThat(http.as(ChildServer.ADMIN, ChildServer.ADMIN_PASSWORD)
                    .put("apps/SHOP/s-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
            assertThat(http.getJson("v2/serverinfo/statusoverrides").body()).isEqualTo("{\"s-1\":\"OUT_OF_SERVICE\"}");
            assertThat(http.put("asg/shop-v001/status?value=DISABLED").status())
                    .as("Eureka off AWS").isEqualTo(400);
            assertThat(http.get("ui").body()).as("dashboard at eureka.dashboard.path").contains("<html");
            assertThat(http.get("").status()).as("and only there, as in Spring").isEqualTo(404);
            assertThat(http.get("dashboard/dashboard.js").status()).isEqualTo(200);
        }
    }

    @Test
    void ownUrlAsDefaultZoneWithThePortKnownAndClientSwitchesOn() throws Exception {
        try (ChildServer node = ChildServer.start(17122,
                "-Deureka.client.serviceUrl.defaultZone=http://localhost:17122/eureka/",
                "-Deureka.client.registerWithEureka=true", "-Deureka.client.fetchRegistry=true",
                "-Deureka.dashboard.enabled=false")) {
            Http http = new Http(node.baseUrl);
            readsNever403For(http, 3_000);
            String status = http.getJson("status").body();
            assertThat(status).contains("\"registered-replicas\":\"\"", "\"instanceInfo\":{", "\"port\":{\"$\":17122");
            assertThat(http.get("").status()).as("eureka.dashboard.enabled=false").isEqualTo(404);
            assertThat(http.get("dashboard/dashboard.js").status()).isEqualTo(404);
            assertThat(http.get("health").status()).isEqualTo(200);
        }
    }

    private static void readsNever403For(Http http, long millis) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            assertThat(http.getJson("apps/").status()).as("full fetch").isEqualTo(200);
            assertThat(http.getJson("apps/delta").status()).as("delta").isEqualTo(200);
            Thread.sleep(100);
        }
    }
}
