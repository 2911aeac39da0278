package io.muster.compat;

import com.netflix.appinfo.ApplicationInfoManager;
import com.netflix.appinfo.InstanceInfo;
import com.netflix.appinfo.MyDataCenterInstanceConfig;
import com.netflix.appinfo.providers.EurekaConfigBasedInstanceInfoProvider;
import com.netflix.discovery.DefaultEurekaClientConfig;
import com.netflix.discovery.DiscoveryClient;
import com.netflix.discovery.Jersey3DiscoveryClientOptionalArgs;
import com.netflix.discovery.shared.transport.jersey3.Jersey3TransportClientFactories;
import io.muster.testing.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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

    private static DiscoveryClient client(String ns, String serviceUrl) {
        System.setProperty(ns + ".serviceUrl.default", serviceUrl);
        System.setProperty(ns + ".name", "secured-app");
        System.setProperty(ns + ".port", "9010");
        System.setProperty(ns + ".registration.enabled", "true");
        System.setProperty(ns + ".shouldEnforceRegistrationAtInit", "true");
        System.setProperty(ns + ".shouldFetchRegistry", "true");
        System.setProperty(ns + ".client.refresh.interval", "1");
        MyDataCenterInstanceConfig instanceConfig = new MyDataCenterInstanceConfig(ns);
        InstanceInfo info = new EurekaConfigBasedInstanceInfoProvider(instanceConfig).get();
        ApplicationInfoManager aim = new ApplicationInfoManager(instanceConfig, info);
        aim.setInstanceStatus(InstanceInfo.InstanceStatus.UP);
        return new DiscoveryClient(aim, new DefaultEurekaClientConfig(ns),
                new Jersey3TransportClientFactories(), new Jersey3DiscoveryClientOptionalArgs());
    }

    @Test
    void aClientWithCredentialsInItsServiceUrlRegistersAndOneWithoutIsRefused() throws Exception {
        Http anonymous = new Http(server.baseUrl);
        assertThat(anonymous.getJson("apps/").status()).isEqualTo(401);
        assertThat(anonymous.get("health/ready").status()).isEqualTo(200);

        assertThatThrownBy(() -> client("noauth", server.baseUrl)).as("registration without credentials fails");

        DiscoveryClient c = client("withauth", server.urlWithCredentials(ChildServer.CLIENT, ChildServer.CLIENT_PASSWORD));
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
