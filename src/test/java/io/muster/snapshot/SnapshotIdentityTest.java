package io.muster.snapshot;

import io.muster.testing.CapturedLog;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot is restored only by the deployment that wrote it. Issue 23: two Payara domains on one host, neither
 * knowing its port at start, shared {@code registry-_eureka__.snapshot}, and a brand-new domain served the other's
 * five instances. Here both write into one directory under one key (the worst case: a shared or copied
 * directory), and each still restores only its own.
 */
class SnapshotIdentityTest {
    private static final Duration WINDOW = Duration.ofMinutes(3);
    private static final SnapshotIdentity DOMAIN1 = payara("/opt/payara/glassfish/domains/domain1");
    private static final SnapshotIdentity DOMAIN2 = payara("/opt/payara/glassfish/domains/domain2");

    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final CapturedLog capture = new CapturedLog();
    private final List<LogRecord> logged = capture.records;
    @TempDir
    Path dir;

    private static SnapshotIdentity payara(String domain) {
        return new SnapshotIdentity("payara", domain, "/eureka/", OptionalInt.empty());
    }

    @BeforeEach
    void listen() {
        Logger.getLogger(RegistryFile.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(RegistryFile.class.getName()).removeHandler(capture);
    }

    private SnapshotDirectory files() {
        return SnapshotDirectory.open(dir).orElseThrow();
    }

    private RegistryFile file(SnapshotIdentity id, InstanceRegistry registry) {
        return new RegistryFile(files(), id, id.fileName(false), registry, clock);
    }

    private InstanceRegistry withInstances(int n) {
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        for (int i = 0; i < n; i++) {
            registry.register(Instances.up("APP", "i-" + i), Origin.CLIENT);
        }
        return registry;
    }

    private List<String> messages() {
        return logged.stream().map(LogRecord::getMessage).toList();
    }

    @Test
    void aNewPayaraDomainRefusesTheSnapshotAnotherDomainLeftInTheSameFile() {
        assertThat(DOMAIN1.fileName(false)).as("the issue's case: one file name for both")
                .isEqualTo(DOMAIN2.fileName(false)).isEqualTo("registry-_eureka__.snapshot");
        file(DOMAIN1, withInstances(5)).save();
        clock.advance(Duration.ofSeconds(51));

        int restored = file(DOMAIN2, new InstanceRegistry(clock, WINDOW)).restore();

        assertThat(restored).isZero();
        assertThat(messages()).anySatisfy(m -> assertThat(m).contains("ignoring the registry snapshot")
                .contains("written by another server (" + DOMAIN1.text() + "); this one is " + DOMAIN2.text()));
        assertThat(file(DOMAIN1, new InstanceRegistry(clock, WINDOW)).restore())
                .as("control: the domain that wrote it restores it").isEqualTo(5);
    }

    @Test
    void aSnapshotWrittenWhileTheIdentityWasUnknownIsRefused() {
        // what the version before identities wrote on Payara: the context path and an empty port
        new RegistryFile(files(), "/eureka/@", withInstances(5), clock).save();

        assertThat(file(DOMAIN1, new InstanceRegistry(clock, WINDOW)).restore()).isZero();
        assertThat(messages()).anySatisfy(m -> assertThat(m)
                .contains("written while the writer's identity was unknown (/eureka/@)"));

        SnapshotIdentity unknown = new SnapshotIdentity("payara-embedded", null, "/eureka/", OptionalInt.empty());
        assertThat(unknown.isKnown()).isFalse();
        assertThat(SnapshotIdentity.isUnknownIdentity(unknown.text())).isTrue();
        assertThat(SnapshotIdentity.isUnknownIdentity(DOMAIN1.text())).isFalse();
    }

    @Test
    void thePortWhenKnownIsPartOfTheIdentityAndOfTheFileName() {
        SnapshotIdentity on8761 = new SnapshotIdentity("tomcat", "/srv/tomcat", "/eureka/", OptionalInt.of(8761));
        SnapshotIdentity on8762 = new SnapshotIdentity("tomcat", "/srv/tomcat", "/eureka/", OptionalInt.of(8762));
        assertThat(on8761.fileName(false)).isEqualTo("registry-_eureka__8761.snapshot");
        assertThat(on8761.text()).isEqualTo("server=tomcat root=/srv/tomcat context=/eureka/ port=8761");
        new RegistryFile(files(), on8761, on8762.fileName(false), withInstances(2), clock).save();

        assertThat(file(on8762, new InstanceRegistry(clock, WINDOW)).restore()).isZero();
        assertThat(file(payara("/srv/tomcat"), new InstanceRegistry(clock, WINDOW)).restore())
                .as("no port now, where one was known").isZero();
    }

    @Test
    void inADirectoryServersShareEachRootHasAFileOfItsOwn() {
        assertThat(DOMAIN1.fileName(true)).startsWith("registry-_eureka__-").endsWith(".snapshot")
                .isNotEqualTo(DOMAIN2.fileName(true));
        assertThat(DOMAIN1.fileName(true)).as("the same root, the same name at every start")
                .isEqualTo(payara("/opt/payara/glassfish/domains/domain1").fileName(true));
    }

    @Test
    void theTextIsOneLineAndNoTwoIdentitiesReadAlike() {
        SnapshotIdentity odd = new SnapshotIdentity("tomcat", "/srv/a b\nport=1", "/x y/", OptionalInt.empty());
        assertThat(odd.text()).doesNotContain("\n")
                .isEqualTo("server=tomcat root=/srv/a%20b%0Aport=1 context=/x%20y/ port=unknown");
        assertThat(new SnapshotIdentity("tomcat", "/srv/a", "b /x y/", OptionalInt.empty()).text())
                .isNotEqualTo(new SnapshotIdentity("tomcat", "/srv/a b", "/x y/", OptionalInt.empty()).text());
    }

    @Test
    void anotherDomainsCancellationJournalIsNotReplayed() {
        String name = CancelJournal.besideSnapshot(DOMAIN1.fileName(false));
        InstanceRegistry before = withInstances(1);
        before.addListener(new CancelJournal(files().signingFor(DOMAIN1), name, clock, WINDOW, Runnable::run));
        before.cancel("APP", "i-0", Origin.CLIENT);

        InstanceRegistry other = withInstances(1);
        int againInDomain2 = new CancelJournal(files().signingFor(DOMAIN2), name, clock, WINDOW, Runnable::run)
                .replay(other, (app, id, dirty, at) -> { });
        InstanceRegistry own = withInstances(1);
        int againInDomain1 = new CancelJournal(files().signingFor(DOMAIN1), name, clock, WINDOW, Runnable::run)
                .replay(own, (app, id, dirty, at) -> { });

        assertThat(againInDomain2).isZero();
        assertThat(other.views().lease("APP", "i-0")).isPresent();
        assertThat(againInDomain1).as("control: the domain that journalled it cancels it again").isEqualTo(1);
    }
}
