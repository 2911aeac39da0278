package io.muster.compat;

import io.muster.testing.Http;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-application write rights on a real Tomcat 10.1, set up with the shipped files only: the users of
 * server-config/tomcat/tomcat-users-fragment.xml ({@code client-orders} holds {@code eureka-app-ORDERS}) and the
 * context file with {@code eureka.server.appOwnership} switched on. Tomcat answers {@code isUserInRole} for roles
 * the WAR does not declare, so the binding works without anything else. Port: {@code -Dtomcat.ownership.port}.
 */
class TomcatOwnershipIT {
    private static final Path WAR = Path.of(System.getProperty("muster.war")).toAbsolutePath();
    private static final int PORT = Integer.getInteger("tomcat.ownership.port", 18495);

    @Test
    void onlyTheBoundClientWritesItsApplication() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(RealTomcat.SERVERS),
                "the build unpacks the servers unless -Dservers.skip=true");
        try (RealTomcat tomcat = new RealTomcat(Path.of("target", "tomcat-ownership"), PORT)) {
            Files.writeString(tomcat.base().resolve("conf/Catalina/localhost/eureka.xml"),
                    RealTomcat.contextFile(WAR, Map.of("eureka.server.appOwnership", "true")));
            tomcat.start();
            Http anonymous = new Http("http://127.0.0.1:" + PORT + "/eureka/");
            RealTomcat.awaitStatus(anonymous, "health/ready", 200, 120);
            Http orders = anonymous.as("client-orders", "CHANGE-ME-client-orders");
            Http billing = anonymous.as("client-billing", "CHANGE-ME-client-billing");

            OwnershipMatrix.assertStrangersWriteNothing(orders, anonymous, Map.of(billing, "client-billing"));

            assertThat(orders.put("apps/ORDERS/o-1").status()).isEqualTo(200);
            assertThat(orders.put("apps/orders/o-1/status?value=OUT_OF_SERVICE").status()).isEqualTo(200);
            assertThat(orders.delete("apps/ORDERS/o-1/status?value=UP").status()).isEqualTo(200);
            assertThat(billing.postJson("apps/BILLING", instanceJson("BILLING", "b-1", "UP", 1000)).status())
                    .isEqualTo(204);
            Http admin = anonymous.as("admin", "CHANGE-ME-admin");
            assertThat(admin.delete("apps/BILLING/b-1").status()).as("operators write every app").isEqualTo(200);
            assertThat(orders.delete("apps/ORDERS/o-1").status()).isEqualTo(200);
            String refusal = "audit: refused a write by client client-billing to ORDERS";
            tomcat.awaitConsoleLines(refusal, l -> true);
            assertThat(tomcat.consoleLines(refusal)).as("logged once a minute per caller and application")
                    .hasSize(1);
        }
    }
}
