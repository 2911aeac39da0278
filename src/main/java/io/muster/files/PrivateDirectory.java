package io.muster.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * A directory owned by the server's user that no one else can enter (0700), holding owner-only files (0600). The
 * registry, its metadata and the bodies served to authenticated clients live here, and what is read back decides
 * what the registry holds, so nothing in it may be readable or plantable by another local user.
 *
 * <p>The rules: the directory and every file are created with their modes (never chmod afterwards, which would
 * leave a window); nothing is followed through a symbolic link (attributes read with {@code NOFOLLOW_LINKS}, files
 * opened with it, new files opened {@code CREATE_NEW}, so a planted link makes the open fail instead of writing
 * through it); and a directory or file owned by another user, or writable by group or others, is refused with an
 * {@link UnsafeFileException}. Its modes are not repaired: a directory an operator set up loosely, or one someone
 * else created first, says something is wrong, and the operator is the one to decide.
 *
 * <p>On a file system without POSIX permissions (Windows) the modes and owners cannot be set or compared the same
 * way (a file an administrator creates belongs to the Administrators group); links are still refused, and the
 * directory's ACL is the operator's, as one INFO line at creation says.
 *
 * <p>Thread safety: immutable; concurrent writers must use different names.
 */
public final class PrivateDirectory {
    private static final Logger LOG = Logger.getLogger(PrivateDirectory.class.getName());
    static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> WRITE_BY_OTHERS =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);
    private static final Set<PosixFilePermission> ACCESS_BY_OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);

    private final Path dir;
    private final boolean posix;
    private final UserPrincipal user;

    private PrivateDirectory(Path dir, boolean posix, UserPrincipal user) {
        this.dir = dir;
        this.posix = posix;
        this.user = user;
    }

    /**
     * The directory, created owner-only if missing (its parents as the operator's umask says), or empty with one
     * SEVERE line naming why it is refused: the caller then runs without the files for this run.
     *
     * @param purpose what goes without, in words for that line ("registry snapshots", ...)
     */
    public static Optional<PrivateDirectory> open(Path dir, String purpose) {
        try {
            return Optional.of(openOrThrow(dir));
        } catch (IOException | RuntimeException e) {
            LOG.severe("Muster: " + purpose + " are off for this run: refusing the directory " + dir + " ("
                    + (e instanceof UnsafeFileException ? e.getMessage() : e.toString())
                    + "); it must be a directory owned by the server's user and writable by it alone");
            return Optional.empty();
        }
    }

    /** As {@link #open}, throwing instead of logging. */
    public static PrivateDirectory openOrThrow(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        boolean posix = absolute.getFileSystem().supportedFileAttributeViews().contains("posix");
        Path parent = absolute.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            if (posix) {
                Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
            } else {
                Files.createDirectory(absolute);
                LOG.info("Muster: " + absolute + " is on a file system without POSIX permissions; its access is"
                        + " whatever the directory's ACL inherits");
            }
        } catch (FileAlreadyExistsException e) {
            // someone's, checked below like any directory that was already there
        }
        PrivateDirectory d = new PrivateDirectory(absolute, posix, posix ? currentUser(absolute) : null);
        d.check(absolute, true);
        return d;
    }

    public Path path() {
        return dir;
    }

    /** The file's content, or null when there is none; refused if it is a link, another user's or writable. */
    public byte[] read(String name) throws IOException {
        Path file = file(name);
        try {
            check(file, false);
        } catch (NoSuchFileException e) {
            return null;
        }
        try (FileChannel in = FileChannel.open(file, options(StandardOpenOption.READ))) {
            long size = in.size();
            if (size > Integer.MAX_VALUE - 16) {
                throw new IOException(file + " is too large (" + size + " bytes)");
            }
            ByteBuffer bytes = ByteBuffer.allocate((int) size);
            while (bytes.hasRemaining() && in.read(bytes) >= 0) {
                // until full or the end (a file shortened meanwhile)
            }
            return bytes.position() == bytes.capacity() ? bytes.array()
                    : java.util.Arrays.copyOf(bytes.array(), bytes.position());
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The file open for reading, checked as {@link #read} checks it. */
    public FileChannel openForReading(String name) throws IOException {
        Path file = file(name);
        check(file, false);
        return FileChannel.open(file, options(StandardOpenOption.READ));
    }

    /**
     * A new, empty, owner-only file under {@code name}, open for writing. Whatever was there is removed first
     * (a link is removed, not followed): this is for the temporary files that {@link #commit} renames, and for
     * files only this server writes.
     */
    public FileChannel createNew(String name) throws IOException {
        Path file = file(name);
        Files.deleteIfExists(file);
        return FileChannel.open(file, options(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), fileMode());
    }

    /** Writes {@code bytes} to a new owner-only file (see {@link #createNew}) and returns its path. */
    public Path write(String name, byte[] bytes) throws IOException {
        try (FileChannel out = createNew(name)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                out.write(b);
            }
        }
        return file(name);
    }

    /** Renames {@code temp} over {@code name} in one step: a reader sees the old file or the new one whole. */
    public void commit(String temp, String name) throws IOException {
        try {
            Files.move(file(temp), file(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(file(temp), file(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Renames {@code temp} to {@code name} only if no {@code name} exists (two servers creating the same file at
     * once: one wins, the other reads the winner's).
     *
     * @throws FileAlreadyExistsException when another got there first; {@code temp} is then deleted
     */
    public void publish(String temp, String name) throws IOException {
        try {
            Files.createLink(file(name), file(temp));
        } catch (UnsupportedOperationException e) {
            Files.move(file(temp), file(name));
        } finally {
            Files.deleteIfExists(file(temp));
        }
    }

    /** The file open for appending, created owner-only if missing; an existing one is checked first. */
    public FileChannel append(String name) throws IOException {
        Path file = file(name);
        try {
            return FileChannel.open(file, options(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND), fileMode());
        } catch (FileAlreadyExistsException e) {
            check(file, false);
            return FileChannel.open(file, options(StandardOpenOption.WRITE, StandardOpenOption.APPEND));
        }
    }

    public boolean exists(String name) {
        return Files.exists(file(name), LinkOption.NOFOLLOW_LINKS);
    }

    public void delete(String name) throws IOException {
        Files.deleteIfExists(file(name));
    }

    /** Removes the directory if it is empty (the files' owner is done with it). */
    public void deleteIfEmpty() {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            LOG.fine("keeping " + dir + ": " + e);
        }
    }

    private Path file(String name) {
        Path file = dir.resolve(name);
        if (!file.getParent().equals(dir) || name.equals("..") || name.equals(".")) {
            throw new IllegalArgumentException("not a plain file name: " + name);
        }
        return file;
    }

    /**
     * The options with NOFOLLOW_LINKS, so a link put in place between the check and the open makes the open fail.
     * Not on other file systems, some of which refuse the option; there the check alone keeps links out.
     */
    private Set<OpenOption> options(OpenOption... options) {
        Set<OpenOption> all = new HashSet<>(Set.of(options));
        if (posix) {
            all.add(LinkOption.NOFOLLOW_LINKS);
        }
        return all;
    }

    private FileAttribute<?>[] fileMode() {
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
                : new FileAttribute<?>[0];
    }

    private void check(Path p, boolean directory) throws IOException {
        BasicFileAttributes a = posix ? Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                : Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) {
            throw new UnsafeFileException(p + " is a symbolic link");
        }
        if (directory ? !a.isDirectory() : !a.isRegularFile()) {
            throw new UnsafeFileException(p + " is not a " + (directory ? "directory" : "regular file"));
        }
        UserPrincipal owner = a instanceof PosixFileAttributes pa ? pa.owner() : null;
        if (user != null && owner != null && !owner.equals(user)) {
            throw new UnsafeFileException(p + " is owned by " + owner.getName() + ", not by " + user.getName()
                    + ", the server's user");
        }
        if (a instanceof PosixFileAttributes pa) {
            Set<PosixFilePermission> loose = new HashSet<>(pa.permissions());
            loose.retainAll(WRITE_BY_OTHERS);
            if (!loose.isEmpty()) {
                throw new UnsafeFileException(p + " is writable by " + (loose.size() == 2 ? "group and others"
                        : loose.contains(PosixFilePermission.GROUP_WRITE) ? "its group" : "others")
                        + " (mode " + PosixFilePermissions.toString(pa.permissions()) + ")");
            }
            if (directory && pa.permissions().stream().anyMatch(ACCESS_BY_OTHERS::contains)) {
                LOG.warning("Muster: " + p + " has mode " + PosixFilePermissions.toString(pa.permissions())
                        + ": other users can list it (the files in it are owner-only); 0700 keeps even the names"
                        + " private");
            }
        }
    }

    /**
     * The process's user. By name when the system knows it; otherwise (a container running under a uid without
     * a passwd entry) as the owner of a file the process creates.
     */
    private static UserPrincipal currentUser(Path near) throws IOException {
        try {
            return near.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            Path probe = Files.createTempFile("muster-owner", ".probe");
            try {
                return Files.getOwner(probe);
            } finally {
                Files.deleteIfExists(probe);
            }
        }
    }
}
