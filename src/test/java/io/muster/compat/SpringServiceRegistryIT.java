package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Boot application with spring-cloud-starter-netflix-eureka-client in its own JVM (built from
 * src/test/spring-client by its run.sh, which needs the Spring artifacts once) takes itself OUT_OF_SERVICE and
 * back through the actuator's service-registry endpoint; another client of Muster sees both changes. The
 * application has no credentials: status overrides follow register's rule, as in Eureka. Ports 17141-17142.
 */
class SpringServiceRegistryIT {
    private static final int MUSTER_PORT = 17141;
    private static final int APP_PORT = 17142;
    private static ChildServer muster;
    private static Process app;

    @BeforeAll
    static void start() throws Exception {
        SpringClientApp.assumeAvailable();
        muster = ChildServer.start(MUSTER_PORT);
        app = SpringClientApp.start(APP_PORT, new File("target/spring-client.log"),
                "--eureka.client.service-url.defaultZone=" + muster.baseUrl);
    }

    @AfterAll
    static void stop() throws Exception {
        if (app != null) {
            app.destroy();   // run.sh execs java
            if (!app.waitFor(20, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
        if (muster != null) {
            muster.close();
        }
    }

    @Test
    void outOfServiceAndBackThroughTheActuatorReachOtherClients() throws Exception {
        Http other = new Http(muster.baseUrl);
        await(other, "UP", TimeUnit.MINUTES.toNanos(4));   // the first run builds the application

        Http actuator = new Http("http://127.0.0.1:" + APP_PORT + "/");
        // the endpoint's path is its id, which Spring Cloud has spelled several ways: take it from the links
        java.util.regex.Matcher link = java.util.regex.Pattern.compile("\"href\":\"http://[^/]+/(actuator/service-?registry)\"",
                java.util.regex.Pattern.CASE_INSENSITIVE).matcher(actuator.get("actuator").body());
        assertThat(link.find()).as("the actuator lists the service-registry endpoint").isTrue();
        String endpoint = link.group(1);
        assertThat(actuator.send("POST", endpoint, "{\"status\":\"OUT_OF_SERVICE\"}",
                "Content-Type", "application/json").status()).isBetween(200, 204);
        await(other, "OUT_OF_SERVICE", TimeUnit.SECONDS.toNanos(30));
        assertThat(other.getJson("serverinfo/statusoverrides").body()).contains("\"OUT_OF_SERVICE\"");

        assertThat(actuator.send("POST", endpoint, "{\"status\":\"UP\"}",
                "Content-Type", "application/json").status()).isBetween(200, 204);
        await(other, "UP", TimeUnit.SECONDS.toNanos(30));
        String instance = other.getJson("apps/SPRING-CLIENT").body();
        assertThat(instance).contains("\"status\":\"UP\"");
    }

    /** Waits until the application's one instance shows the status to a plain client of Muster. */
    private static void await(Http other, String status, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        Http.Reply r = other.getJson("apps/SPRING-CLIENT");
        while (!(r.status() == 200 && r.body().contains("\"status\":\"" + status + "\""))) {
            assertThat(app.isAlive()).as("Spring client running (see target/spring-client.log)").isTrue();
            assertThat(System.nanoTime()).as("SPRING-CLIENT shown " + status + "; last " + r.status() + " "
                    + r.body()).isLessThan(deadline);
            Thread.sleep(500);
            r = other.getJson("apps/SPRING-CLIENT");
        }
    }
}
