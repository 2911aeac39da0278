package io.muster.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import io.muster.codec.JsonFactories;
import io.muster.resources.AdminResource;
import io.muster.resources.Api;
import io.muster.resources.DashboardResource;
import io.muster.resources.EurekaRoot;
import io.muster.resources.OperationsResource;
import io.muster.resources.UnexpectedErrorMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** The Jersey application: resource instances built by the composition root, no class-path scanning. */
final class JaxRsApplication {
    private JaxRsApplication() {
    }

    static ResourceConfig create(Api api) {
        ResourceConfig rc = new ResourceConfig();
        rc.setApplicationName("muster");
        rc.registerInstances(new EurekaRoot(api), new OperationsResource(api), new AdminResource(api),
                new DashboardResource(),
                new JacksonJsonProvider(new ObjectMapper(JsonFactories.create())), new UnexpectedErrorMapper());
        // Payara would otherwise serialise with JSON-B; this property is what keeps Jackson in charge
        rc.property("jersey.config.jsonFeature", "JacksonJsonProvider");
        // error statuses must not become container error pages: clients decode any heartbeat body
        rc.property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
        rc.property(ServerProperties.WADL_FEATURE_DISABLE, true);
        rc.property(ServerProperties.BV_FEATURE_DISABLE, true);
        return rc;
    }
}
