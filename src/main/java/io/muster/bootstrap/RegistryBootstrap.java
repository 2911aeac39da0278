package io.muster.bootstrap;

import io.muster.config.ConfigLayer;
import io.muster.config.ConfigLoader;
import io.muster.config.PendingSettings;
import io.muster.config.InvalidConfigException;
import io.muster.config.ServerConfig;
import io.muster.web.FrontDoor;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import org.glassfish.jersey.servlet.ServletContainer;

import io.muster.replication.LocalNode;
import io.muster.replication.PeerUrl;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.logging.Logger;

/**
 * The composition root, declared in web.xml: loads the configuration, builds and starts the server, then mounts
 * Jersey on the whole context. A bad setting fails the deployment with a message naming every bad key.
 */
public final class RegistryBootstrap implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(RegistryBootstrap.class.getName());
    /**
     * Written by {@link #contextInitialized} and {@link #contextDestroyed}, which the container may call on
     * different threads; request threads never read it (the filters hold the started server itself).
     */
    private volatile RegistryServer server;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        // first, so that the version is in the log above a configuration error too
        LOG.info("Muster " + BuildVersion.read() + " starting at " + context.getContextPath() + "/");
        ServerConfig config;
        try {
            config = ConfigLoader.fromLayers(ConfigSources.of(context));
        } catch (InvalidConfigException e) {
            LOG.severe(e.getMessage());
            throw e;
        }
        LocalNode self = localNode(context, config);
        String detached = PortClash.find(self, config.peers()).orElse(null);
        // a node that stays out of its cluster keeps no snapshot: what it would save (nothing) replaces a good one
        server = new RegistryServer(config, Clock.systemUTC(), self,
                detached == null ? snapshotPlace(config, self) : null, ThreadScheduler::new, detached);
        server.start();
        server.watchSettings(new PendingSettings(config.keys(), () -> sourcesAsNow(context), Clock.systemUTC()));
        RegistryServer started = server;
        // isMatchAfter=true appends each mapping, so both containers run the filters in the order written here
        // (with false, Payara puts every new mapping first)
        // async-supported all along the chain: change streams and waiting fetches park their requests
        FilterRegistration.Dynamic port = context.addFilter("muster-local-port",
                new LocalPortFilter(started::learnedPort));
        port.setAsyncSupported(true);
        port.addMappingForUrlPatterns(null, true, "/*");
        ServletContainer jaxRs = new ServletContainer(JaxRsApplication.create(server.api(), context,
                Clock.systemUTC()));
        FilterRegistration.Dynamic door = context.addFilter("muster-front-door", new FrontDoor(started.api(),
                config.security().clientAuthRequired(), config.security().appOwnership(),
                config.security().fastPaths(),
                config.dashboard().enabled() ? config.dashboard().path() : null, started.metrics(),
                started.changes(), jaxRs, bodiesDir(context, config), config.security().sendfileMinBytes(),
                new FrontDoor.LargeWrites(config.security().largeWrites().minBytes(),
                        config.security().largeWrites().maxOpen(), config.security().largeWrites().maxOpenPerClient(),
                        config.security().largeWrites().maxHeapPercent())));
        door.setAsyncSupported(true);
        door.addMappingForUrlPatterns(null, true, "/*");
        // mapped on the whole context so the container initialises it and nothing else (its default or JSP
        // servlet) answers; the front door calls it directly, whatever servlet the container picked
        ServletRegistration.Dynamic jersey = context.addServlet("muster-jersey", jaxRs);
        jersey.setLoadOnStartup(1);
        jersey.setAsyncSupported(true);
        jersey.addMapping("/*");
        LOG.info(whereClientsPoint(context.getContextPath()));
        server.registerMBeans(context.getVirtualServerName());   // last: nothing after it can fail the start
    }

    /**
     * The layers as the next start would read them. Under the application's own class loader, which is what a
     * container's {@code java:comp/env} and MicroProfile Config look the application up by.
     */
    private static List<ConfigLayer> sourcesAsNow(ServletContext context) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(context.getClassLoader());
        try {
            return ConfigSources.of(context);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /**
     * The start-up line that says where clients must point. Deployed as ROOT (a WAR named ROOT.war, or a context
     * file for "/"), the usual http://host:8761/eureka/ of every Eureka client answers 404: said here, once.
     */
    static String whereClientsPoint(String contextPath) {
        if (contextPath.isEmpty()) {
            return "Muster: serving the Eureka API at /apps/ and /v2/apps/: deployed as the server's root"
                    + " context, so clients' serviceUrl must be http://host:port/ (not http://host:port/eureka/,"
                    + " which answers 404 here; deploy the WAR as eureka.war for that)";
        }
        return "Muster: serving the Eureka API at " + contextPath + "/apps/ and " + contextPath + "/v2/apps/:"
                + " clients' serviceUrl is http://host:port" + contextPath + "/";
    }

    /**
     * Where large cached bodies are written for the container's sendfile: the context's own temporary directory,
     * which the container empties on undeploy. Null when sendfile is off.
     */
    private static Path bodiesDir(ServletContext context, ServerConfig config) {
        Object temp = context.getAttribute(ServletContext.TEMPDIR);
        if (config.security().sendfileMinBytes() <= 0 || !(temp instanceof java.io.File dir)) {
            return null;
        }
        return dir.toPath().resolve("muster-bodies");
    }

    /** Where the registry snapshot lives and whose it is (see {@link SnapshotPlace}), or null when off. */
    private static SnapshotPlace snapshotPlace(ServerConfig config, LocalNode self) {
        if (!config.snapshot().enabled()) {
            return null;
        }
        return SnapshotPlace.choose(config.snapshot().directory(), System::getProperty, self.contextPath(),
                self.port());
    }

    /** This node's identity for recognising itself among the peer URLs. */
    private static LocalNode localNode(ServletContext context, ServerConfig config) {
        ContainerPorts.Found ports = ContainerPorts.find();
        String myUrl = config.peers().myUrl();
        return new LocalNode(context.getContextPath(), myUrl == null ? null : PeerUrl.parse(myUrl), ports.serving(),
                ports.unbound());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        try {
            if (server != null) {
                server.close();
                server = null;
            }
        } finally {
            RecordMethodCaches.release();   // last: a JDK-wide static still holds one of our record classes
        }
    }
}
