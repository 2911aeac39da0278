package io.muster.bootstrap;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The ports this node serves on, as far as they can be known while the application deploys (before any request):
 * {@code -Dport} or {@code PORT} (how Muster's runners and most platforms say it), {@code server.port} and
 * {@code SERVER_PORT} (Spring's spelling, carried over with its configuration), and Tomcat's connectors, which
 * Tomcat registers as JMX beans named {@code <engine>:type=Connector,port=N} before it starts the applications.
 * Payara exposes no such bean before its admin layer loads; there the port is learned from the first request, or
 * taken from {@code eureka.server.myUrl}.
 *
 * <p>Tomcat binds its connectors before it starts the applications and starts them even when a bind failed (a
 * port another process holds): such a connector is in state {@code FAILED} and never answers, so its port is
 * reported apart, as one this node does not serve.
 */
final class ContainerPorts {
    private static final String FAILED = "FAILED";

    /**
     * @param serving ports known to answer (or, from settings, said to)
     * @param unbound ports of Tomcat connectors that failed to bind: configured for this node, served by nobody here
     */
    record Found(Set<Integer> serving, Set<Integer> unbound) {
        Found {
            serving = Set.copyOf(serving);
            unbound = Set.copyOf(unbound);
        }
    }

    private ContainerPorts() {
    }

    static Found find() {
        Found tomcat = tomcatConnectors(ManagementFactory.getPlatformMBeanServer());
        Set<Integer> serving = fromSettings(System.getProperties()::getProperty, System.getenv());
        serving.addAll(tomcat.serving());
        serving.removeAll(tomcat.unbound());   // -Dport names the port; the failed connector shows nobody serves it
        return new Found(serving, tomcat.unbound());
    }

    static Set<Integer> fromSettings(Function<String, String> systemProperties, Map<String, String> env) {
        Set<Integer> ports = new TreeSet<>();
        for (String p : new String[]{systemProperties.apply("port"), env.get("PORT"),
                systemProperties.apply("server.port"), env.get("SERVER_PORT")}) {
            if (p != null && p.trim().matches("\\d{1,5}") && Integer.parseInt(p.trim()) > 0) {
                ports.add(Integer.parseInt(p.trim()));
            }
        }
        return ports;
    }

    static Found tomcatConnectors(MBeanServer server) {
        Set<Integer> serving = new TreeSet<>();
        Set<Integer> unbound = new TreeSet<>();
        try {
            for (ObjectName name : server.queryNames(new ObjectName("*:type=Connector,*"), null)) {
                String port = name.getKeyProperty("port");
                if (port != null && port.matches("\\d{1,5}") && Integer.parseInt(port) > 0) {
                    (FAILED.equals(state(server, name)) ? unbound : serving).add(Integer.parseInt(port));
                }
            }
        } catch (MalformedObjectNameException | RuntimeException e) {
            // no JMX view of the container: the port is learned from the first request
        }
        return new Found(serving, unbound);
    }

    /** The connector's lifecycle state ({@code INITIALIZED} while the applications start), or null. */
    private static String state(MBeanServer server, ObjectName connector) {
        try {
            return String.valueOf(server.getAttribute(connector, "stateName"));
        } catch (JMException | RuntimeException e) {
            return null;   // a bean without the attribute: taken as serving, as before this check
        }
    }
}
