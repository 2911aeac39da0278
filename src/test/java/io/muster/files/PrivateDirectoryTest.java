package io.muster.files;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The directory rule on the real file system: what another local user could prepare (links, loose modes, a
 * directory of their own) is refused, and what the server creates is its user's alone.
 */
class PrivateDirectoryTest {
    @TempDir
    Path tmp;

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    private Path victim() throws IOException {
        return Files.writeString(tmp.resolve("victim"), "someone else's file");
    }

    @Test
    void theDirectoryAndEveryFileAreCreatedOwnerOnly() throws IOException {
        Path dir = tmp.resolve("parent/muster-test");

        PrivateDirectory d = PrivateDirectory.openOrThrow(dir);
        d.write("written", new byte[] {1});
        try (FileChannel out = d.append("appended")) {
            out.write(java.nio.ByteBuffer.wrap(new byte[] {2}));
        }
        d.createNew("temp").close();
        d.commit("temp", "committed");

        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("written"))).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("appended"))).isEqualTo("rw-------");
        assertThat(mode(dir.resolve("committed"))).isEqualTo("rw-------");
        assertThat(d.read("written")).containsExactly(1);
        assertThat(d.read("appended")).containsExactly(2);
        assertThat(d.read("missing")).isNull();
    }

    @Test
    void anExistingOwnerOnlyDirectoryIsUsedAsItIs() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("d"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Files.write(dir.resolve("kept"), new byte[] {7});
        Files.setPosixFilePermissions(dir.resolve("kept"), PosixFilePermissions.fromString("rw-------"));

        assertThat(PrivateDirectory.open(dir, "tests")).hasValueSatisfying(d -> {
            try {
                assertThat(d.read("kept")).containsExactly(7);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aDirectoryThatIsASymbolicLinkIsRefusedAndItsTargetIsNotWritten() throws IOException {
        Path target = Files.createDirectory(tmp.resolve("target"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), target);

        assertThatThrownBy(() -> PrivateDirectory.openOrThrow(link)).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("symbolic link");
        assertThat(PrivateDirectory.open(link, "tests")).isEmpty();
        try (var files = Files.list(target)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void aFileThatIsASymbolicLinkIsNeitherReadNorWrittenThrough() throws IOException {
        PrivateDirectory d = PrivateDirectory.openOrThrow(tmp.resolve("d"));
        Path victim = victim();
        Path read = Files.createSymbolicLink(d.path().resolve("read"), victim);
        Files.createSymbolicLink(d.path().resolve("append"), victim);
        Files.createSymbolicLink(d.path().resolve("new"), victim);
        Files.createSymbolicLink(d.path().resolve("replaced"), victim);

        assertThatThrownBy(() -> d.read("read")).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> d.append("append")).isInstanceOf(UnsafeFileException.class);
        d.write("new", "new".getBytes(StandardCharsets.UTF_8));
        d.write("temp", "replacement".getBytes(StandardCharsets.UTF_8));
        d.commit("temp", "replaced");

        assertThat(Files.readString(victim)).isEqualTo("someone else's file");
        assertThat(Files.isSymbolicLink(read)).as("control: the link is still there").isTrue();
        assertThat(Files.isSymbolicLink(d.path().resolve("new"))).isFalse();
        assertThat(Files.readString(d.path().resolve("new"))).isEqualTo("new");
        assertThat(Files.isSymbolicLink(d.path().resolve("replaced"))).isFalse();
        assertThat(Files.readString(d.path().resolve("replaced"))).isEqualTo("replacement");
    }

    @Test
    void aDirectoryWritableByItsGroupOrByOthersIsRefused() throws IOException {
        for (String mode : new String[] {"rwxrwx---", "rwx----wx", "rwxrwxrwx"}) {
            Path dir = Files.createDirectory(tmp.resolve("d-" + mode));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(mode));

            assertThatThrownBy(() -> PrivateDirectory.openOrThrow(dir)).as(mode)
                    .isInstanceOf(UnsafeFileException.class).hasMessageContaining("writable by");
            assertThat(PrivateDirectory.open(dir, "tests")).as(mode).isEmpty();
        }
    }

    @Test
    void aFileWritableByItsGroupIsRefused() throws IOException {
        PrivateDirectory d = PrivateDirectory.openOrThrow(tmp.resolve("d"));
        Path file = d.write("f", new byte[] {1});
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));

        assertThatThrownBy(() -> d.read("f")).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("writable by its group");
        assertThatThrownBy(() -> d.append("f")).isInstanceOf(UnsafeFileException.class);
    }

    @Test
    void aPlainFileWhereTheDirectoryShouldBeIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        assertThatThrownBy(() -> PrivateDirectory.openOrThrow(file)).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("not a directory");
    }

    /** Needs root to give a file away (chown); as any other user this is what another user's mkdir leaves. */
    @Test
    void aDirectoryOrFileOwnedByAnotherUserIsRefused() throws IOException {
        UserPrincipal nobody;
        try {
            nobody = tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (IOException e) {
            nobody = null;
        }
        assumeTrue(nobody != null && "root".equals(System.getProperty("user.name")),
                "giving a file to another user takes root");
        Path theirs = Files.createDirectory(tmp.resolve("theirs"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        Files.setOwner(theirs, nobody);
        PrivateDirectory mine = PrivateDirectory.openOrThrow(tmp.resolve("mine"));
        Files.setOwner(mine.write("planted", new byte[] {1}), nobody);

        assertThatThrownBy(() -> PrivateDirectory.openOrThrow(theirs)).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("owned by nobody");
        assertThatThrownBy(() -> mine.read("planted")).isInstanceOf(UnsafeFileException.class)
                .hasMessageContaining("owned by nobody");
        assertThatThrownBy(() -> mine.append("planted")).isInstanceOf(UnsafeFileException.class);
    }

    @Test
    void namesThatLeaveTheDirectoryAreNotFileNames() throws IOException {
        PrivateDirectory d = PrivateDirectory.openOrThrow(tmp.resolve("d"));
        for (String name : new String[] {"../victim", "a/b", "..", "."}) {
            assertThatThrownBy(() -> d.write(name, new byte[] {1})).as(name)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(Files.exists(tmp.resolve("victim"))).isFalse();
    }

    /** A zip file system stands in for one without POSIX permissions (as on Windows): the files still work. */
    @Test
    void onAFileSystemWithoutPosixPermissionsTheFilesStillWork() throws IOException {
        try (FileSystem zip = FileSystems.newFileSystem(tmp.resolve("fs.zip"), Map.of("create", "true"))) {
            assertThat(zip.supportedFileAttributeViews()).doesNotContain("posix");
            PrivateDirectory d = PrivateDirectory.openOrThrow(zip.getPath("/muster"));

            d.write("temp", new byte[] {1, 2});
            d.commit("temp", "file");
            try (FileChannel out = d.append("file")) {
                out.write(java.nio.ByteBuffer.wrap(new byte[] {3}));
            }

            assertThat(d.read("file")).containsExactly(1, 2, 3);
            assertThat(PrivateDirectory.openOrThrow(zip.getPath("/muster")).read("file")).containsExactly(1, 2, 3);
        }
    }
}
