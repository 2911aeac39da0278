package io.muster.bootstrap;

import io.muster.config.ConfigLoader;
import io.muster.config.InvalidConfigException;
import io.muster.config.ServerConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import org.glassfish.jersey.servlet.ServletContainer;

import java.time.Clock;
import java.util.logging.Logger;

/**
 * The composition root, declared in web.xml: loads the configuration, builds and starts the server, then mounts
 * Jersey on the whole context. A bad setting fails the deployment with a message naming every bad key.
 */
public final class RegistryBootstrap implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(RegistryBootstrap.class.getName());
    private RegistryServer server;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        ServerConfig config;
        try {
            config = ConfigLoader.load(ConfigSources.of(context));
        } catch (InvalidConfigException e) {
            LOG.severe(e.getMessage());
            throw e;
        }
        server = new RegistryServer(config, Clock.systemUTC());
        server.start();
        ServletRegistration.Dynamic jersey = context.addServlet("muster-jersey",
                new ServletContainer(JaxRsApplication.create(server.api())));
        jersey.setLoadOnStartup(1);
        jersey.addMapping("/*");
        LOG.info("Muster: serving the Eureka API at " + context.getContextPath() + "/apps/ and "
                + context.getContextPath() + "/v2/apps/");
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
