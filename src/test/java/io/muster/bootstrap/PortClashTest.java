package io.muster.bootstrap;

import io.muster.config.ConfigLoader;
import io.muster.config.ServerConfig;
import io.muster.replication.LocalNode;
import io.muster.testing.CapturedLog;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node whose server could not bind the port of its own URL (another process holds it) stays out of its cluster:
 * it would otherwise register itself with its peers as the owner of that URL. Real Tomcat: {@code PortClashIT}.
 */
class PortClashTest {
    private static final String PEERS = "http://127.0.0.1:19201/eureka/,http://127.0.0.1:19202/eureka/";

    private static ServerConfig config() {
        return ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone", PEERS)));
    }

    /** One connector's bean as Tomcat's modeler registers it: a lower-case attribute {@code stateName}. */
    private static javax.management.DynamicMBean connector(String state) {
        return new javax.management.DynamicMBean() {
            @Override
            public Object getAttribute(String attribute) throws javax.management.AttributeNotFoundException {
                if (!"stateName".equals(attribute)) {
                    throw new javax.management.AttributeNotFoundException(attribute);
                }
                return state;
            }

            @Override
            public void setAttribute(javax.management.Attribute attribute) {
                throw new UnsupportedOperationException();
            }

            @Override
            public javax.management.AttributeList getAttributes(String[] attributes) {
                return new javax.management.AttributeList();
            }

            @Override
            public javax.management.AttributeList setAttributes(javax.management.AttributeList attributes) {
                return attributes;
            }

            @Override
            public Object invoke(String action, Object[] params, String[] signature) {
                return null;
            }

            @Override
            public javax.management.MBeanInfo getMBeanInfo() {
                return new javax.management.MBeanInfo("Connector", "", null, null, null, null);
            }
        };
    }

    @Test
    void tomcatsFailedConnectorIsAPortThisNodeDoesNotServe() throws Exception {
        MBeanServer jmx = MBeanServerFactory.newMBeanServer();
        jmx.registerMBean(connector("FAILED"),
                new ObjectName("Catalina:type=Connector,port=19201,address=\"127.0.0.1\""));
        jmx.registerMBean(connector("INITIALIZED"),
                new ObjectName("Catalina:type=Connector,port=8009"));
        ContainerPorts.Found found = ContainerPorts.tomcatConnectors(jmx);
        assertThat(found.serving()).containsExactly(8009);
        assertThat(found.unbound()).containsExactly(19201);
    }

    @Test
    void ownUrlOnAnUnboundPortKeepsTheNodeOut() {
        Optional<String> clash = PortClash.find(new LocalNode("/eureka", null, Set.of(), Set.of(19201)),
                config().peers());
        assertThat(clash).hasValueSatisfying(line -> assertThat(line)
                .contains("does not join its cluster", "http://127.0.0.1:19201/eureka/", "port 19201",
                        "does not register itself with its peers", "server.xml"));
        assertThat(PortClash.find(new LocalNode("/eureka", null, Set.of(8009), Set.of(19201)), config().peers()))
                .as("another connector listens, but the URL the peers know this node by is another process's")
                .isPresent();
    }

    @Test
    void aFailedConnectorTheNodeIsNotKnownByIsNoClashButNoListenerAtAllIs() {
        ServerConfig standalone = ConfigLoader.load(List.of());
        assertThat(PortClash.find(new LocalNode("/eureka", null, Set.of(19202), Set.of(8443)), config().peers()))
                .isEmpty();
        assertThat(PortClash.find(new LocalNode("/eureka", null, Set.of(19202), Set.of()), config().peers()))
                .isEmpty();
        assertThat(PortClash.find(new LocalNode("/eureka", null, Set.of(), Set.of(8761)), standalone.peers()))
                .hasValueSatisfying(line -> assertThat(line).contains("no connector of this server listens"));
    }

    @Test
    void aDetachedNodeHasNoPeerWorkDoesNotRegisterItselfAndNeverOpens() {
        CapturedLog log = new CapturedLog();
        Logger logger = Logger.getLogger(RegistryServer.class.getName());
        logger.addHandler(log);
        Map<String, ManualScheduler> lanes = new LinkedHashMap<>();
        RegistryServer server = new RegistryServer(config(), Clock.systemUTC(),
                new LocalNode("/eureka", null, Set.of(), Set.of(19201)), null,
                name -> lanes.computeIfAbsent(name, n -> new ManualScheduler()), "Muster: this node does not join");
        try {
            server.start();
            server.learnedPort(8009);   // a request on another connector
            ManualScheduler peerLane = lanes.get(RegistryServer.PEERS);
            assertThat(peerLane.periodic).as("no sync retries, peer refresh, cluster check or self-registration")
                    .isEmpty();
            assertThat(peerLane.once).isEmpty();
            assertThat(server.api().registry().size()).as("not registered with itself").isZero();
            assertThat(server.api().status().probes().ready().up()).isFalse();
            assertThat(log.records).filteredOn(r -> r.getLevel() == Level.SEVERE)
                    .extracting(java.util.logging.LogRecord::getMessage)
                    .containsExactly("Muster: this node does not join");
        } finally {
            server.close();
            logger.removeHandler(log);
        }
    }
}
