package io.muster.bootstrap;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/** Where each kind of deployment keeps its snapshot, and the identity it writes into it. */
class SnapshotPlaceTest {
    private static final OptionalInt UNKNOWN = OptionalInt.empty();

    private static Map<String, String> machine() {
        Map<String, String> p = new HashMap<>();
        p.put("java.io.tmpdir", "/tmp");
        p.put("user.name", "muster");
        return p;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> p = machine();
        p.put(key, value);
        return p;
    }

    private static SnapshotPlace place(Map<String, String> properties, String configured, OptionalInt port) {
        return SnapshotPlace.choose(configured, properties::get, "/eureka/", port);
    }

    @Test
    void twoPayaraDomainsOnOneHostEachUseTheirOwnDirectoryThoughNeitherKnowsItsPort() {
        SnapshotPlace d1 = place(with(SnapshotPlace.INSTANCE_ROOT, "/opt/payara/glassfish/domains/domain1"), null,
                UNKNOWN);
        SnapshotPlace d2 = place(with(SnapshotPlace.INSTANCE_ROOT, "/opt/payara/glassfish/domains/domain2"), null,
                UNKNOWN);

        assertThat(d1.directory()).isEqualTo(Path.of("/opt/payara/glassfish/domains/domain1/muster"));
        assertThat(d2.directory()).isEqualTo(Path.of("/opt/payara/glassfish/domains/domain2/muster"));
        assertThat(d1.identity().text())
                .isEqualTo("server=payara root=/opt/payara/glassfish/domains/domain1 context=/eureka/ port=unknown");
        assertThat(d1.identity().isKnown()).isTrue();
        assertThat(d1.identity()).isNotEqualTo(d2.identity());
        assertThat(d1.fileName()).isEqualTo("registry-_eureka__.snapshot");
    }

    @Test
    void aClusteredPayaraInstanceUsesItsInstanceRoot() {
        SnapshotPlace i1 = place(with(SnapshotPlace.INSTANCE_ROOT, "/opt/payara/glassfish/nodes/host1/instance1"),
                null, UNKNOWN);
        assertThat(i1.directory()).isEqualTo(Path.of("/opt/payara/glassfish/nodes/host1/instance1/muster"));
    }

    @Test
    void tomcatUsesItsBasesWorkDirectoryButNoContextsOwn() {
        SnapshotPlace t = place(with(SnapshotPlace.CATALINA_BASE, "/srv/tomcat-a"), null, OptionalInt.of(8761));

        assertThat(t.directory()).isEqualTo(Path.of("/srv/tomcat-a/work/muster"));
        assertThat(t.identity().text()).isEqualTo("server=tomcat root=/srv/tomcat-a context=/eureka/ port=8761");
        assertThat(t.fileName()).isEqualTo("registry-_eureka__8761.snapshot");
    }

    @Test
    void embeddedPayarasThrowAwayInstanceRootIsNeitherItsHomeNorItsIdentity() {
        Map<String, String> embedded = with(SnapshotPlace.INSTANCE_ROOT, "/tmp/gfembed5180941263377817133tmp");

        SnapshotPlace withPort = place(embedded, null, OptionalInt.of(8761));
        assertThat(withPort.directory()).isEqualTo(Path.of("/tmp/muster-muster"));
        assertThat(withPort.identity().text())
                .isEqualTo("server=payara-embedded root=none context=/eureka/ port=8761");
        assertThat(withPort.identity().isKnown()).isTrue();

        assertThat(place(embedded, null, UNKNOWN).identity().isKnown())
                .as("no root and no port: two of them could not be told apart").isFalse();

        Map<String, String> ownTemp = with(SnapshotPlace.INSTANCE_ROOT, "/var/gf/gfembed1tmp");
        ownTemp.put("glassfish.embedded.tmpdir", "/var/gf");
        assertThat(place(ownTemp, null, UNKNOWN).identity().server()).isEqualTo("payara-embedded");
        assertThat(place(with(SnapshotPlace.INSTANCE_ROOT, "/home/u/gfembed-domain-tmp"), null, UNKNOWN)
                .identity().server()).as("a kept root elsewhere is a domain").isEqualTo("payara");
    }

    @Test
    void anyOtherContainerUsesTheUsersDirectoryInTheTempDirectory() {
        SnapshotPlace other = place(machine(), null, OptionalInt.of(8080));
        assertThat(other.directory()).isEqualTo(Path.of("/tmp/muster-muster"));
        assertThat(other.identity().text()).isEqualTo("server=servlet root=none context=/eureka/ port=8080");
        assertThat(place(machine(), null, UNKNOWN).identity().isKnown()).isFalse();
    }

    @Test
    void aConfiguredDirectoryIsUsedAndEachServerSharingItHasAFileOfItsOwn() {
        SnapshotPlace d1 = place(with(SnapshotPlace.INSTANCE_ROOT, "/opt/payara/glassfish/domains/domain1"),
                "/var/lib/muster", UNKNOWN);
        SnapshotPlace d2 = place(with(SnapshotPlace.INSTANCE_ROOT, "/opt/payara/glassfish/domains/domain2"),
                "/var/lib/muster", UNKNOWN);
        assertThat(d1.directory()).isEqualTo(d2.directory()).isEqualTo(Path.of("/var/lib/muster"));
        assertThat(d1.identity().root()).isEqualTo("/opt/payara/glassfish/domains/domain1");
        assertThat(d1.fileName()).isNotEqualTo(d2.fileName()).startsWith("registry-_eureka__-");

        SnapshotPlace bare = place(machine(), "/var/lib/muster", UNKNOWN);
        assertThat(bare.identity().root()).as("the operator's directory names the server").isEqualTo("/var/lib/muster");
        assertThat(bare.identity().isKnown()).isTrue();
        assertThat(bare.fileName()).isEqualTo("registry-_eureka__.snapshot");
    }
}
