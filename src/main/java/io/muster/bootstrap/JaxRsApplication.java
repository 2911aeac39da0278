package io.muster.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import io.muster.api.Api;
import io.muster.api.ApplicationsResource;
import io.muster.api.ClusterResource;
import io.muster.api.ErrorMapper;
import io.muster.api.InstanceResource;
import io.muster.api.InstancesResource;
import io.muster.api.PeerReplicationResource;
import io.muster.api.ServerInfoResource;
import io.muster.api.StatusResource;
import io.muster.api.VipResource;
import io.muster.codec.JsonFactories;
import io.muster.dashboard.AdminResource;
import io.muster.dashboard.AuditResource;
import io.muster.dashboard.DashboardResource;
import io.muster.dashboard.OperationsResource;
import jakarta.servlet.ServletContext;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.time.Clock;
import java.util.List;

/**
 * The Jersey application: one instance of each resource, built here, no class-path scanning and no sub-resource
 * locators (so nothing is created per request). Jersey only ever sees canonical paths (see the front door), so each
 * route is declared once.
 */
final class JaxRsApplication {
    private JaxRsApplication() {
    }

    static ResourceConfig create(Api api, ServletContext context, Clock clock) {
        ResourceConfig rc = new ResourceConfig();
        rc.setApplicationName("muster");
        List<Object> resources = List.of(new ApplicationsResource(api), new InstanceResource(api),
                new InstancesResource(api), new VipResource(api), new StatusResource(api),
                new PeerReplicationResource(api), new ServerInfoResource(api), new OperationsResource(api),
                new ClusterResource(api),
                new AdminResource(api, clock), new AuditResource(api), new DashboardResource(context));
        // Resources registered as classes, each bound to the one instance built here: registering the instances
        // themselves works too, but Jersey then logs "registered in SERVER runtime does not implement any provider
        // interfaces ... will be ignored" for each (its issue #3700), which reads like a fault in every deploy log.
        rc.register(new AbstractBinder() {
            @Override
            protected void configure() {
                for (Object resource : resources) {
                    bindInstance(resource);
                }
            }

            @SuppressWarnings("unchecked")
            private <T> void bindInstance(T resource) {
                bind(resource).to((Class<T>) resource.getClass());
            }
        });
        resources.forEach(r -> rc.registerClasses(r.getClass()));
        rc.registerInstances(new JacksonJsonProvider(new ObjectMapper(JsonFactories.create())), new ErrorMapper());
        // Payara would otherwise serialise with JSON-B; this property is what keeps Jackson in charge
        rc.property("jersey.config.jsonFeature", "JacksonJsonProvider");
        // error statuses must not become container error pages: clients decode any heartbeat body
        rc.property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
        rc.property(ServerProperties.WADL_FEATURE_DISABLE, true);
        rc.property(ServerProperties.BV_FEATURE_DISABLE, true);
        return rc;
    }
}
