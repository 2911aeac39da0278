package io.muster.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import io.muster.codec.JsonFactories;
import io.muster.config.ServerConfig.DashboardConfig;
import io.muster.resources.AdminResource;
import io.muster.resources.Api;
import io.muster.resources.DashboardResource;
import io.muster.resources.EurekaRoot;
import io.muster.resources.OperationsResource;
import io.muster.resources.ServerInfoResource;
import io.muster.resources.UnexpectedErrorMapper;
import jakarta.servlet.ServletContext;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/** The Jersey application: resource instances built by the composition root, no class-path scanning. */
final class JaxRsApplication {
    private JaxRsApplication() {
    }

    static ResourceConfig create(Api api, ServletContext context, DashboardConfig dashboardConfig) {
        ResourceConfig rc = new ResourceConfig();
        DashboardRoute dashboardRoute = new DashboardRoute(dashboardConfig);
        if (dashboardRoute.isNeeded()) {
            rc.register(dashboardRoute);
        }
        rc.setApplicationName("muster");
        EurekaRoot root = new EurekaRoot(api);
        OperationsResource operations = new OperationsResource(api);
        AdminResource admin = new AdminResource(api);
        DashboardResource dashboard = new DashboardResource(context);
        ServerInfoResource serverInfo = new ServerInfoResource(api);
        // Resources registered as classes, each bound to the one instance built here: registering the instances
        // themselves works too, but Jersey then logs "registered in SERVER runtime does not implement any provider
        // interfaces ... will be ignored" for each (its issue #3700), which reads like a fault in every deploy log.
        rc.register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(root).to(EurekaRoot.class);
                bind(operations).to(OperationsResource.class);
                bind(admin).to(AdminResource.class);
                bind(dashboard).to(DashboardResource.class);
                bind(serverInfo).to(ServerInfoResource.class);
            }
        });
        rc.registerClasses(EurekaRoot.class, OperationsResource.class, AdminResource.class, DashboardResource.class,
                ServerInfoResource.class);
        rc.registerInstances(new JacksonJsonProvider(new ObjectMapper(JsonFactories.create())),
                new UnexpectedErrorMapper());
        // Payara would otherwise serialise with JSON-B; this property is what keeps Jackson in charge
        rc.property("jersey.config.jsonFeature", "JacksonJsonProvider");
        // error statuses must not become container error pages: clients decode any heartbeat body
        rc.property(ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, true);
        rc.property(ServerProperties.WADL_FEATURE_DISABLE, true);
        rc.property(ServerProperties.BV_FEATURE_DISABLE, true);
        return rc;
    }
}
