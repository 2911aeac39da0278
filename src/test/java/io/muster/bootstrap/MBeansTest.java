package io.muster.bootstrap;

import io.muster.config.ConfigLoader;
import io.muster.jmx.ClusterCheckMXBean;
import io.muster.jmx.RegistryMXBean;
import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.replication.LocalNode;
import io.muster.replication.PeerUrl;
import io.muster.testing.Instances;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.management.JMX;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedAction;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The deployment's MXBeans in the JVM's platform MBean server, read and invoked as JConsole or a JMX proxy would
 * (through the MBean server, by name), on a real server with its lanes: one peer that cannot be reached,
 * snapshots on.
 */
class MBeansTest {
    private static final MBeanServer JMX_SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final String PEER = "http://127.0.0.1:1/eureka/";
    @TempDir
    Path snapshots;
    /** A host of its own per test: nothing another test left (it would be a bug) can be mistaken for ours. */
    private final String host = "mbeans-test-" + UUID.randomUUID();
    private RegistryServer server;

    @BeforeEach
    void start() {
        server = server("/eureka");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RegistryServer server(String context) {
        var config = ConfigLoader.load(List.of(Map.of("eureka.client.serviceUrl.defaultZone", PEER,
                "eureka.server.myUrl", "http://mbeans-under-test:8080" + context + "/",
                "eureka.server.waitTimeInMsWhenSyncEmpty", "0")));
        var place = SnapshotPlace.choose(snapshots.toString(), Map.of("java.io.tmpdir", snapshots.toString(),
                "user.name", "muster")::get, context + "/", OptionalInt.of(8080));
        RegistryServer s = new RegistryServer(config, Clock.systemUTC(),
                new LocalNode(context, PeerUrl.parse("http://mbeans-under-test:8080" + context + "/"), Set.of()),
                place);
        s.start();
        s.registerMBeans(host);
        return s;
    }

    private ObjectName name(String type) throws Exception {
        return new ObjectName("io.muster:type=" + type + ",host=" + host + ",context=/eureka");
    }

    private Set<String> beansOf(String context) throws Exception {
        return JMX_SERVER.queryNames(new ObjectName("io.muster:host=" + host + ",context=" + context + ",*"), null)
                .stream().map(ObjectName::toString).collect(Collectors.toSet());
    }

    private RegistryMXBean registryBean() throws Exception {
        return JMX.newMXBeanProxy(JMX_SERVER, name("Registry"), RegistryMXBean.class);
    }

    private InstanceRegistry registry() {
        return server.api().registry();
    }

    @Test
    void everyBeanIsListedUnderTheDeploymentsNameWithLiveValues() throws Exception {
        String scope = ",host=" + host + ",context=/eureka";
        assertThat(beansOf("/eureka")).containsExactlyInAnyOrder("io.muster:type=Registry" + scope,
                "io.muster:type=ClusterCheck" + scope, "io.muster:type=ChangeStreams" + scope,
                "io.muster:type=Settings" + scope, "io.muster:type=Peer" + scope + ",name=\"" + PEER + "\"");
        int before = (int) JMX_SERVER.getAttribute(name("Registry"), "Instances");   // the node's own
        CompositeData statusBefore = (CompositeData) JMX_SERVER.getAttribute(name("Registry"), "InstancesByStatus");
        registry().register(Instances.up("ORDERS", "o-1"), Origin.CLIENT);
        registry().register(Instances.up("ORDERS", "o-2"), Origin.CLIENT);
        registry().register(Instances.sample("BILLING", "b-1").status(InstanceStatus.STARTING).build(),
                Origin.CLIENT);

        assertThat(JMX_SERVER.getAttribute(name("Registry"), "Instances")).isEqualTo(before + 3);
        assertThat(JMX_SERVER.getAttribute(name("Registry"), "Applications")).isEqualTo(before + 2);
        CompositeData byStatus = (CompositeData) JMX_SERVER.getAttribute(name("Registry"), "InstancesByStatus");
        assertThat((int) byStatus.get("up") - (int) statusBefore.get("up")).isEqualTo(2);
        assertThat((int) byStatus.get("starting") - (int) statusBefore.get("starting")).isEqualTo(1);
        assertThat((int) byStatus.get("up") + (int) byStatus.get("down") + (int) byStatus.get("starting")
                + (int) byStatus.get("outOfService") + (int) byStatus.get("unknown")).isEqualTo(before + 3);
        assertThat(JMX_SERVER.getAttribute(name("Registry"), "SelfPreservationReason")).asString()
                .isNotBlank();
        TabularData rejected = (TabularData) JMX_SERVER.getAttribute(name("Registry"), "RejectedWrites");
        assertThat(rejected.get(new Object[]{"not_owner"}).get("value")).isEqualTo(0L);
        TabularData settings = (TabularData) JMX_SERVER.getAttribute(name("Settings"), "Settings");
        assertThat(settings.get(new Object[]{"waitTimeInMsWhenSyncEmpty"}).get("value"))
                .isEqualTo("0");
        TabularData sources = (TabularData) JMX_SERVER.getAttribute(name("Settings"), "Sources");
        assertThat(sources.get(new Object[]{"waitTimeInMsWhenSyncEmpty"}).get("value")).as("where it was set")
                .isEqualTo("settings");
        assertThat(sources.get(new Object[]{"enableSelfPreservation"}).get("value")).isEqualTo("default");
        ObjectName peer = new ObjectName("io.muster:type=Peer" + scope + ",name=" + ObjectName.quote(PEER));
        assertThat(JMX_SERVER.getAttribute(peer, "Url")).isEqualTo(PEER);
        // live: the sender's first attempt (to a port nothing listens on) turns "not contacted yet" into this
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"unreachable".equals(JMX_SERVER.getAttribute(peer, "State")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(JMX_SERVER.getAttribute(peer, "State")).isEqualTo("unreachable");
        assertThat(JMX_SERVER.getAttribute(name("ChangeStreams"), "OpenStreams")).isEqualTo(0);
    }

    @Test
    void everyAttributeOperationAndParameterIsDescribedInOpenTypes() throws Exception {
        for (String bean : beansOf("/eureka")) {
            MBeanInfo info = JMX_SERVER.getMBeanInfo(new ObjectName(bean));
            assertThat(info.getDescriptor().getFieldValue("mxbean")).as(bean).isEqualTo("true");
            assertThat(info.getDescription()).as(bean).doesNotContain("Information on the management interface");
            for (MBeanAttributeInfo a : info.getAttributes()) {
                assertThat(a.getDescription()).as(bean + " " + a.getName())
                        .isNotEqualTo("Attribute exposed for management");
                assertThat(a.getDescriptor().getFieldValue("openType")).as(a.getName()).isNotNull();
                assertThat(a.isWritable()).as(a.getName()).isFalse();
            }
            for (MBeanOperationInfo o : info.getOperations()) {
                assertThat(o.getDescription()).as(o.getName()).isNotEqualTo("Operation exposed for management");
                for (MBeanParameterInfo p : o.getSignature()) {
                    assertThat(p.getName()).as(o.getName()).isIn("app", "id");
                    assertThat(p.getDescription()).as(o.getName()).contains("e.g.");
                }
            }
        }
    }

    @Test
    void instanceActionsAreTheDashboardsWithTheCallerNamed() throws Exception {
        registry().register(Instances.up("ORDERS", "o-1"), Origin.CLIENT);
        Subject alice = new Subject(true, Set.of(new JMXPrincipal("alice")), Set.of(), Set.of());

        String done = asSubject(alice, () -> registryBean().takeOutOfService("orders", "o-1"));

        assertThat(done).isEqualTo("OUT_OF_SERVICE set on ORDERS/o-1");
        assertThat(registry().views().lease("ORDERS", "o-1").orElseThrow().instance().status())
                .isEqualTo(InstanceStatus.OUT_OF_SERVICE);
        assertThat(registry().overrides().records(10)).singleElement()
                .satisfies(o -> assertThat(o.setBy()).isEqualTo("operator alice"));
        assertThat(registryBean().removeOverride("ORDERS", "o-1"))
                .isEqualTo("override removed from ORDERS/o-1: UNKNOWN until it registers again");
        assertThat(registry().overrides().records(10)).isEmpty();
        assertThat(registryBean().deregister("ORDERS", "o-1")).isEqualTo("ORDERS/o-1 deregistered");
        assertThat(registry().views().lease("ORDERS", "o-1")).isEmpty();
        assertThat(registryBean().deregister("ORDERS", "o-1")).isEqualTo("no instance ORDERS/o-1");
        assertThat(registryBean().takeOutOfService("ORDERS", "o-1")).isEqualTo("no instance ORDERS/o-1");
    }

    @Test
    void anOperatorWithoutJmxPrincipalIsNamedAsJmx() throws Exception {
        registry().register(Instances.up("ORDERS", "o-1"), Origin.CLIENT);

        registryBean().takeOutOfService("ORDERS", "o-1");

        assertThat(registry().overrides().records(10)).singleElement()
                .satisfies(o -> assertThat(o.setBy()).isEqualTo("operator jmx"));
    }

    @Test
    void badInputIsRefusedWithWhatWasExpected() throws Exception {
        assertThatThrownBy(() -> registryBean().takeOutOfService(" ", "o-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("app is required");
        assertThatThrownBy(() -> registryBean().deregister("ORDERS", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id is required");
        assertThatThrownBy(() -> registryBean().removeOverride("ORDERS", "o-1\naudit: forged"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("control characters");
    }

    @Test
    void theSnapshotIsWrittenNowAndSaysWhere() throws Exception {
        registry().register(Instances.up("ORDERS", "o-1"), Origin.CLIENT);

        String done = registryBean().writeSnapshotNow();

        assertThat(done).startsWith("registry snapshot written to " + snapshots).endsWith(" bytes)");
        Path file = Path.of(done.substring("registry snapshot written to ".length(), done.indexOf(" (")));
        assertThat(Files.readString(file, java.nio.charset.StandardCharsets.ISO_8859_1)).contains("o-1");
    }

    @Test
    void theClusterCheckRunsNowAndSaysWhatEachPeerGave() throws Exception {
        ClusterCheckMXBean check = JMX.newMXBeanProxy(JMX_SERVER, name("ClusterCheck"), ClusterCheckMXBean.class);

        String done = check.runNow();

        assertThat(done).startsWith("checked 1 peer: " + PEER + ": not compared: ");
        assertThat(check.getSummaries()).singleElement().asString().startsWith(PEER + ": not compared");
        assertThat(check.getLastCheckedAt()).isNotNull();
    }

    @Test
    void closingLeavesNoBeanOfTheDeploymentAndTheOtherDeploymentsBeans() throws Exception {
        RegistryServer other = server("/other");
        try {
            assertThat(beansOf("/other")).hasSize(5);
            server.close();
            assertThat(beansOf("/eureka")).isEmpty();
            assertThat(beansOf("/other")).as("another context's beans stay").hasSize(5);
        } finally {
            other.close();
        }
        assertThat(beansOf("/other")).isEmpty();
        server = server("/eureka");   // for stop()
    }

    private static <T> T asSubject(Subject subject, ThrowingSupplier<T> call) {
        return Subject.doAs(subject, (PrivilegedAction<T>) () -> {
            try {
                return call.get();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @FunctionalInterface
    private interface ThrowingSupplier<T> {
        T get() throws Exception;
    }
}
