package io.muster.compat;

import com.netflix.appinfo.ApplicationInfoManager;
import com.netflix.appinfo.InstanceInfo;
import com.netflix.appinfo.MyDataCenterInstanceConfig;
import com.netflix.appinfo.providers.EurekaConfigBasedInstanceInfoProvider;
import com.netflix.discovery.DefaultEurekaClientConfig;
import com.netflix.discovery.DiscoveryClient;
import com.netflix.discovery.Jersey3DiscoveryClientOptionalArgs;
import com.netflix.discovery.shared.transport.jersey3.Jersey3TransportClientFactories;

import java.util.Map;

/**
 * Real Netflix eureka-client 2.0.6 instances (Jersey 3 transport, no Spring), configured as an application would
 * configure them. Archaius settings are JVM-wide, so every client gets its own property namespace.
 */
final class NetflixClients {
    private NetflixClients() {
    }

    /**
     * Starts a client that fetches every second; when {@code register} is set it registers in its constructor
     * (and the constructor fails if the server does not answer 204).
     */
    static DiscoveryClient start(String namespace, String serviceUrl, String app, int port, boolean register,
                                 Map<String, String> more) {
        System.setProperty(namespace + ".serviceUrl.default", serviceUrl);
        System.setProperty(namespace + ".name", app);
        System.setProperty(namespace + ".port", Integer.toString(port));
        System.setProperty(namespace + ".registration.enabled", Boolean.toString(register));
        System.setProperty(namespace + ".shouldEnforceRegistrationAtInit", Boolean.toString(register));
        System.setProperty(namespace + ".shouldFetchRegistry", "true");
        System.setProperty(namespace + ".client.refresh.interval", "1");
        more.forEach((k, v) -> System.setProperty(namespace + "." + k, v));
        MyDataCenterInstanceConfig instanceConfig = new MyDataCenterInstanceConfig(namespace);
        InstanceInfo info = new EurekaConfigBasedInstanceInfoProvider(instanceConfig).get();
        ApplicationInfoManager aim = new ApplicationInfoManager(instanceConfig, info);
        aim.setInstanceStatus(InstanceInfo.InstanceStatus.UP);
        return new DiscoveryClient(aim, new DefaultEurekaClientConfig(namespace),
                new Jersey3TransportClientFactories(), new Jersey3DiscoveryClientOptionalArgs());
    }

    /** The client's own registration transport: what Spring's service-registry endpoint calls to set a status. */
    static com.netflix.discovery.shared.transport.EurekaHttpClient registrationTransport(DiscoveryClient client)
            throws ReflectiveOperationException {
        java.lang.reflect.Field transportField = DiscoveryClient.class.getDeclaredField("eurekaTransport");
        transportField.setAccessible(true);
        Object transport = transportField.get(client);
        java.lang.reflect.Field registration = transport.getClass().getDeclaredField("registrationClient");
        registration.setAccessible(true);
        return (com.netflix.discovery.shared.transport.EurekaHttpClient) registration.get(transport);
    }
}
