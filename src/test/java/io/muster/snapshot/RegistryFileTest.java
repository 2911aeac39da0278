package io.muster.snapshot;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.Applications;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Lease;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The snapshot file and the restore rules, on the fake clock: the node is "down" between save and restore. */
class RegistryFileTest {
    private static final String NODE = "/eureka/@8761";
    private final Instant t0 = Instant.ofEpochMilli(1_700_000_000_000L);
    private final MutableClock clock = new MutableClock(t0);
    private final InstanceRegistry before = new InstanceRegistry(clock, Duration.ofMinutes(3));
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve(RegistryFile.fileName(NODE));
    }

    /** The directory as a starting node opens it: each save and restore here reads the key file again. */
    private SnapshotDirectory files() {
        return SnapshotDirectory.open(dir).orElseThrow();
    }

    private void save() {
        new RegistryFile(files(), NODE, before, clock).save();
    }

    private InstanceRegistry restoredInto(LimitsConfig limits) {
        InstanceRegistry after = new InstanceRegistry(clock, Duration.ofMinutes(3), limits);
        new RegistryFile(files(), NODE, after, clock).restore();
        return after;
    }

    private InstanceRegistry restored() {
        return restoredInto(LimitsConfig.DEFAULT);
    }

    @Test
    void theFileWrittenAppByAppIsTheDocumentEncodedWholeWithItsHeaderAndNoTemporaryFilesAreLeft() throws Exception {
        for (int i = 0; i < 50; i++) {
            before.register(Instances.up("APP-" + (i % 7), "i-" + i), Origin.CLIENT);
        }
        clock.advance(Duration.ofSeconds(5));
        before.renew("APP-3", "i-3", null, null, Origin.CLIENT);
        save();
        assertThat(Files.readAllBytes(file())).isEqualTo(
                SnapshotFile.encode(before.views().snapshot().applications(), NODE, clock.instant(), files().key()));
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(file().getFileName().toString(), IntegrityKey.FILE);
        }
    }

    @Test
    void aLeaseKeepsItsRemainingTimeMinusTheTimeTheNodeWasDown() {
        before.register(Instances.up("APP", "a"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(30));
        before.renew("APP", "a", null, null, Origin.CLIENT);
        clock.advance(Duration.ofSeconds(10));
        save();                                   // 80 s left
        clock.advance(Duration.ofSeconds(30));    // down for 30 s: 50 s left

        InstanceRegistry after = restored();

        Lease lease = after.views().lease("APP", "a").orElseThrow();
        assertThat(lease.lastRenewedAt()).isEqualTo(t0.plusSeconds(30));
        assertThat(lease.registeredAt()).isEqualTo(t0);
        assertThat(Duration.between(clock.instant(), lease.expiresAt())).isEqualTo(Duration.ofSeconds(50));
        assertThat(after.views().expiredLeases(Duration.ZERO)).isEmpty();
        clock.advance(Duration.ofSeconds(50).plusMillis(1));
        assertThat(after.views().expiredLeases(Duration.ZERO)).extracting(l -> l.instance().id()).containsExactly("a");
    }

    @Test
    void afterASyncOnlyWhatThePeerLackedComesBackFromAFreshSnapshotAndNothingCancelledSince() {
        before.register(Instances.up("APP", "only-here"), Origin.CLIENT);
        before.register(Instances.up("APP", "both"), Origin.CLIENT);
        before.register(Instances.up("APP", "cancelled-there"), Origin.CLIENT);
        long cancelledVersion = before.views().lease("APP", "cancelled-there").orElseThrow().instance()
                .lastDirtyTimestamp();
        save();
        clock.advance(Duration.ofSeconds(20));

        InstanceRegistry after = new InstanceRegistry(clock, Duration.ofMinutes(3));
        after.register(Instances.up("APP", "both"), Origin.PEER);   // what the sync copied
        after.tombstones().remember("APP", "cancelled-there", cancelledVersion, clock.instant());   // handed over
        java.util.List<String> sent = new java.util.ArrayList<>();
        int back = new RegistryFile(files(), NODE, after, clock).restoreMissing(Duration.ofMinutes(3),
                i -> sent.add(i.id()));

        assertThat(back).isEqualTo(1);
        assertThat(sent).as("to be sent to the peers").containsExactly("only-here");
        assertThat(after.views().lease("APP", "cancelled-there")).isEmpty();
        InstanceRegistry other = new InstanceRegistry(clock, Duration.ofMinutes(3));
        assertThat(new RegistryFile(files(), NODE, other, clock).restoreMissing(Duration.ofSeconds(10), i -> { }))
                .as("a snapshot older than the tombstones' window is not trusted beside a peer").isZero();
    }

    /** Found by the fault harness: a status acknowledged here last lost to the peer's older copy for 20 s. */
    @Test
    void afterASyncANewerVersionInTheOwnSnapshotWinsOverThePeersOlderCopy() {
        before.register(Instances.sample("APP", "changed").status(InstanceStatus.DOWN).lastDirtyTimestamp(2_000)
                .build(), Origin.CLIENT);
        save();
        clock.advance(Duration.ofSeconds(20));

        InstanceRegistry after = new InstanceRegistry(clock, Duration.ofMinutes(3));
        after.register(Instances.up("APP", "changed"), Origin.PEER);   // the peer's copy, version 1,000
        java.util.List<String> sent = new java.util.ArrayList<>();
        int back = new RegistryFile(files(), NODE, after, clock).restoreMissing(Duration.ofMinutes(3),
                i -> sent.add(i.id()));

        assertThat(back).isEqualTo(1);
        assertThat(sent).as("to be sent to the peers, which hold the older copy").containsExactly("changed");
        assertThat(after.views().lease("APP", "changed").orElseThrow().instance().status())
                .isEqualTo(InstanceStatus.DOWN);
    }

    @Test
    void leasesThatLapsedWhileTheNodeWasDownAreDropped() {
        before.register(Instances.up("APP", "old"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(60));
        before.register(Instances.up("APP", "young"), Origin.CLIENT);
        save();
        clock.advance(Duration.ofSeconds(40));    // "old" lapsed 10 s ago, "young" has 50 s left

        InstanceRegistry after = restored();

        assertThat(after.views().lease("APP", "old")).isEmpty();
        assertThat(after.views().lease("APP", "young")).isPresent();
        assertThat(after.size()).isEqualTo(1);
    }

    @Test
    void aSnapshotOlderThanTheLongestLeaseRestoresNothing() {
        before.register(Instances.sample("APP", "short").build(), Origin.CLIENT);
        before.register(Instances.sample("APP", "long").leaseInfo(new LeaseInfo(30, 300, 0, 0, 0, 0)).build(),
                Origin.CLIENT);
        save();
        clock.advance(Duration.ofSeconds(299));
        assertThat(restored().size()).as("control: the longest lease is still running").isEqualTo(1);
        clock.advance(Duration.ofSeconds(1));

        assertThat(restored().size()).isZero();
    }

    @Test
    void statusesAndOverridesAreKept() {
        before.register(Instances.up("APP", "oos"), Origin.CLIENT);
        before.statusUpdate("APP", "oos", InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
        before.register(Instances.sample("APP", "down").status(InstanceStatus.DOWN).build(), Origin.CLIENT);
        before.register(Instances.up("APP", "up"), Origin.CLIENT);
        save();
        clock.advance(Duration.ofSeconds(5));

        InstanceRegistry after = restored();

        assertThat(after.views().instance("APP", "oos").orElseThrow().status()).isEqualTo(InstanceStatus.OUT_OF_SERVICE);
        assertThat(after.views().instance("APP", "oos").orElseThrow().overriddenStatus())
                .isEqualTo(InstanceStatus.OUT_OF_SERVICE);
        assertThat(after.overrides().byId()).containsEntry("oos", InstanceStatus.OUT_OF_SERVICE);
        assertThat(after.views().instance("APP", "down").orElseThrow().status()).isEqualTo(InstanceStatus.DOWN);
        assertThat(after.views().instance("APP", "up").orElseThrow().status()).isEqualTo(InstanceStatus.UP);
        // a client heartbeat after the restore keeps the override, as it would have before
        after.renew("APP", "oos", null, null, Origin.CLIENT);
        assertThat(after.views().instance("APP", "oos").orElseThrow().status()).isEqualTo(InstanceStatus.OUT_OF_SERVICE);
    }

    @Test
    void instancesTheRegistryNowRefusesAreSkipped() {
        before.register(Instances.up("APP", "ok"), Origin.CLIENT);
        before.register(Instances.sample("APP", "long").leaseInfo(new LeaseInfo(30, 600, 0, 0, 0, 0)).build(),
                Origin.CLIENT);
        save();
        LimitsConfig d = LimitsConfig.DEFAULT;
        LimitsConfig stricter = new LimitsConfig(d.maxFieldLength(), d.maxUrlLength(), d.maxMetadataEntries(),
                d.maxMetadataBytes(), d.minLeaseDurationSeconds(), 300, d.maxInstances(), d.maxInstancesPerApp());

        InstanceRegistry after = restoredInto(stricter);

        assertThat(after.views().lease("APP", "ok")).isPresent();
        assertThat(after.views().lease("APP", "long")).isEmpty();
    }

    @Test
    void savingReplacesTheFileWholeAndLeavesNoTemporaryFile() throws IOException {
        before.register(Instances.up("APP", "a"), Origin.CLIENT);
        save();
        before.register(Instances.up("APP", "b"), Origin.CLIENT);
        save();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(RegistryFile.fileName(NODE), IntegrityKey.FILE);
        }
        assertThat(restored().size()).isEqualTo(2);
    }

    @Test
    void aPartialSnapshotIsIgnored() throws IOException {
        byte[] whole = savedBytes();
        Files.write(file(), Arrays.copyOf(whole, whole.length - 10));
        assertThat(restored().size()).isZero();
    }

    @Test
    void aDamagedSnapshotIsIgnored() throws IOException {
        byte[] bytes = savedBytes();
        bytes[bytes.length - 20] ^= 0x20;
        Files.write(file(), bytes);
        assertThat(restored().size()).isZero();
        Files.write(file(), "not a snapshot at all".getBytes(StandardCharsets.UTF_8));
        assertThat(restored().size()).isZero();
        Files.write(file(), new byte[0]);
        assertThat(restored().size()).isZero();
    }

    @Test
    void aSignedSnapshotWithABrokenRegistryIsIgnored() throws IOException {
        byte[] body = "{\"applications\":{\"application\":[{\"name\":".getBytes(StandardCharsets.UTF_8);
        javax.crypto.Mac mac = files().key().mac();
        mac.update(body);
        Files.write(file(), concat(SnapshotFile.header(NODE, t0, body.length, SnapshotFile.seal(mac, NODE, t0,
                body.length)), body));
        assertThat(restored().size()).isZero();
    }

    @Test
    void anotherNodesSnapshotOrAnotherVersionIsIgnored() throws IOException {
        before.register(Instances.up("APP", "a"), Origin.CLIENT);
        RegistryFile other = new RegistryFile(files(), "/eureka/@8762", before, clock);
        other.save();
        Files.move(other.path(), file());
        assertThat(restored().size()).isZero();
        String next = new String(savedBytes(), StandardCharsets.ISO_8859_1).replaceFirst("MUSTER-REGISTRY 2 ",
                "MUSTER-REGISTRY 3 ");
        Files.write(file(), next.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(restored().size()).isZero();
    }

    @Test
    void aMissingFileStartsEmpty() {
        InstanceRegistry after = new InstanceRegistry(clock, Duration.ofMinutes(3));
        assertThat(new RegistryFile(files(), NODE, after, clock).restore()).isZero();
    }

    @Test
    void aPlantedSnapshotIsNotRestored() throws IOException {
        before.register(Instances.sample("ATTACKER", "attacker.evil").ipAddr("6.6.6.6").build(), Origin.CLIENT);
        Applications planted = before.views().snapshot().applications();
        assertThat(restoredFrom(SnapshotFile.encode(planted, NODE, t0, files().key())))
                .as("control: the same registry signed with this directory's key is restored").isEqualTo(1);

        IntegrityKey anotherNodes = SnapshotDirectory.open(dir.resolve("elsewhere")).orElseThrow().key();
        assertThat(restoredFrom(SnapshotFile.encode(planted, NODE, t0, anotherNodes))).as("another key").isZero();
        assertThat(restoredFrom(versionOne(planted))).as("the format before signing").isZero();
    }

    @Test
    void everyHeaderFieldIsCoveredByTheMac() throws IOException {
        String good = new String(savedBytes(), StandardCharsets.ISO_8859_1);
        String later = good.replaceFirst(" " + t0.toEpochMilli() + " ", " " + (t0.toEpochMilli() + 1) + " ");
        assertThat(later).isNotEqualTo(good);
        Files.write(file(), later.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(restored().size()).isZero();
    }

    @Test
    void theSnapshotAndItsKeyAreOwnerOnlyInAnOwnerOnlyDirectory() throws IOException {
        Path fresh = dir.resolve("fresh");
        before.register(Instances.up("APP", "a"), Origin.CLIENT);
        RegistryFile saved = new RegistryFile(SnapshotDirectory.open(fresh).orElseThrow(), NODE, before, clock);
        saved.save();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(saved.path())))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh.resolve(IntegrityKey.FILE))))
                .isEqualTo("rw-------");
        assertThat(Files.size(fresh.resolve(IntegrityKey.FILE))).isEqualTo(IntegrityKey.BYTES);
    }

    @Test
    void aSnapshotThatIsALinkIsNotRestoredAndSavingDoesNotWriteThroughIt() throws IOException {
        byte[] valid = savedBytes();
        Path target = Files.write(dir.resolve("target"), valid);
        Files.delete(file());
        Files.createSymbolicLink(file(), target);

        assertThat(restored().size()).isZero();
        save();

        assertThat(Files.readAllBytes(target)).as("the link's target is untouched").isEqualTo(valid);
        assertThat(Files.isSymbolicLink(file())).isFalse();
        assertThat(restored().size()).isEqualTo(1);
    }

    @Test
    void aDirectoryWritableByItsGroupIsRefusedAndTheNodeRunsWithoutSnapshots() throws IOException {
        Path loose = Files.createDirectory(dir.resolve("loose"));
        Files.setPosixFilePermissions(loose, PosixFilePermissions.fromString("rwxrwx---"));

        assertThat(SnapshotDirectory.open(loose)).isEmpty();
        assertThat(Files.exists(loose.resolve(IntegrityKey.FILE))).as("nothing written into it").isFalse();
    }

    @Test
    void aDamagedKeyIsReplacedAndWhatItSignedIsIgnored() throws IOException {
        savedBytes();
        Files.write(dir.resolve(IntegrityKey.FILE), new byte[] {1, 2, 3});

        assertThat(restored().size()).isZero();
        assertThat(Files.size(dir.resolve(IntegrityKey.FILE))).isEqualTo(IntegrityKey.BYTES);
        save();
        assertThat(restored().size()).as("signed under the new key").isEqualTo(1);
    }

    private int restoredFrom(byte[] bytes) throws IOException {
        Files.write(file(), bytes);
        return restored().size();
    }

    /** A snapshot as version 1 wrote it: a CRC-32 that anyone can compute in place of the MAC. */
    private byte[] versionOne(Applications apps) {
        byte[] body = io.muster.codec.EurekaCodec.encode(io.muster.codec.WireFormat.JSON, apps,
                io.muster.codec.Detail.FULL);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body);
        String header = "MUSTER-REGISTRY 1 " + t0.toEpochMilli() + " " + body.length + " "
                + Long.toHexString(crc.getValue()) + " " + NODE + "\n";
        return concat(header.getBytes(StandardCharsets.UTF_8), body);
    }

    /** A valid snapshot with one instance; restoring it as written is the control for the broken variants. */
    private byte[] savedBytes() throws IOException {
        before.register(Instances.up("APP", "a"), Origin.CLIENT);
        save();
        assertThat(restored().size()).as("control: the intact file restores").isEqualTo(1);
        return Files.readAllBytes(file());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
