package io.muster.bootstrap;

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
 */
final class ContainerPorts {
    private ContainerPorts() {
    }

    static Set<Integer> find() {
        Set<Integer> ports = fromSettings(System.getProperties()::getProperty, System.getenv());
        ports.addAll(tomcatConnectors(ManagementFactory.getPlatformMBeanServer()));
        return ports;
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

    static Set<Integer> tomcatConnectors(MBeanServer server) {
        Set<Integer> ports = new TreeSet<>();
        try {
            for (ObjectName name : server.queryNames(new ObjectName("*:type=Connector,*"), null)) {
                String port = name.getKeyProperty("port");
                if (port != null && port.matches("\\d{1,5}") && Integer.parseInt(port) > 0) {
                    ports.add(Integer.parseInt(port));
                }
            }
        } catch (MalformedObjectNameException | RuntimeException e) {
            // no JMX view of the container: the port is learned from the first request
        }
        return ports;
    }
}
