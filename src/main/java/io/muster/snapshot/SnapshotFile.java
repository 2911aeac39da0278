package io.muster.snapshot;

import io.muster.codec.AppsDocument;
import io.muster.codec.Detail;
import io.muster.codec.DocumentWriter;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.Applications;
import io.muster.registry.AppGroups;

import java.io.IOException;
import java.io.OutputStream;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;

/**
 * The snapshot file's format: one header line, then the registry in Eureka's JSON (the codec every read uses).
 * The header is {@code MUSTER-REGISTRY <version> <savedAtMillis> <bodyBytes> <hmac> <node>}. The HMAC-SHA256,
 * under the directory's {@link IntegrityKey}, covers the body and every other header field: a damaged or partial
 * file fails it, and so does one planted by someone without the key or copied from another node's directory. The
 * node ({@link SnapshotIdentity#text}) catches a file of another server that shares this directory or a copy of
 * it (a Payara domain copied with its files), and one written while the writer's identity was unknown. Version 1 files (a CRC-32 in place of the
 * MAC) are refused: nothing shows who wrote them.
 * Stateless.
 */
public final class SnapshotFile {
    static final String MAGIC = "MUSTER-REGISTRY";
    static final int VERSION = 2;

    /** What a valid file holds. */
    public record Content(Instant savedAt, String node, Applications applications) {
    }

    private SnapshotFile() {
    }

    public static byte[] encode(Applications apps, String node, Instant savedAt, IntegrityKey key) {
        byte[] body = EurekaCodec.encode(WireFormat.JSON, apps, Detail.FULL);
        Mac mac = key.mac();
        mac.update(body);
        byte[] head = header(node, savedAt, body.length, seal(mac, node, savedAt, body.length));
        byte[] out = new byte[head.length + body.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }

    /**
     * Finishes a MAC that has been fed the body: adds the header's other fields, framed so that no two headers
     * and bodies give the same input (the body's length is among them, the node's length ends it).
     */
    static byte[] seal(Mac bodyMac, String node, Instant savedAt, long length) {
        byte[] name = node.getBytes(StandardCharsets.UTF_8);
        bodyMac.update(ByteBuffer.allocate(16 + name.length + 4).putLong(savedAt.toEpochMilli()).putLong(length)
                .put(name).putInt(name.length).flip());
        return bodyMac.doFinal();
    }

    /** The header line for a body of {@code length} bytes with this MAC, as {@link #encode} writes it. */
    static byte[] header(String node, Instant savedAt, long length, byte[] mac) {
        return (MAGIC + ' ' + VERSION + ' ' + savedAt.toEpochMilli() + ' ' + length + ' '
                + HexFormat.of().formatHex(mac) + ' ' + node + '\n').getBytes(StandardCharsets.UTF_8);
    }

    /** Writes the body of a snapshot of {@code groups}: what {@link #encode} puts after the header. */
    static void writeBody(OutputStream out, AppGroups groups) throws IOException {
        DocumentWriter.write(out, WireFormat.JSON, Detail.FULL, document(groups));
    }

    /** The registry's groups as the codec takes them: each app built, decorated with its leases, when encoded. */
    private static AppsDocument document(AppGroups groups) {
        return new AppsDocument(groups.version(), groups.appsHashCode(), groups.groups().stream()
                .map(g -> new AppsDocument.App(g.app(), g.sources(), g::decorated, g::leaseInfo)).toList());
    }

    /**
     * Decodes a file written for {@code node} and signed with {@code key}.
     *
     * @throws UnusableSnapshotException naming why the file cannot be used (never for a valid file of this node)
     */
    public static Content decode(byte[] file, String node, long now, IntegrityKey key) {
        int eol = indexOf(file, (byte) '\n', Math.min(file.length, 4097));
        Header h = readHeader(file, eol, file.length);
        Mac mac = key.mac();
        mac.update(file, h.start, (int) h.length);
        h.check(mac, node);
        return h.content(new java.io.ByteArrayInputStream(file, h.start, (int) h.length), node, now);
    }

    /**
     * {@link #decode(byte[], String, long, IntegrityKey)} of a file read as it goes: its MAC is checked in one pass
     * and its registry decoded in a second, so a snapshot of a million instances (about a gigabyte) is never held
     * whole, nor twice.
     */
    public static Content decode(FileChannel file, String node, long now, IntegrityKey key) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(4097);
        while (head.hasRemaining() && file.read(head, head.position()) > 0) {
            // until the header's bound or the end
        }
        byte[] first = java.util.Arrays.copyOf(head.array(), head.position());
        Header h = readHeader(first, indexOf(first, (byte) '\n', first.length), file.size());
        Mac mac = key.mac();
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        for (long at = h.start; at < h.start + h.length; ) {
            chunk.clear();
            int n = file.read(chunk, at);
            if (n < 0) {
                throw new UnusableSnapshotException("partial: it ended while being read");
            }
            mac.update(chunk.array(), 0, (int) Math.min(n, h.start + h.length - at));
            at += n;
        }
        h.check(mac, node);
        file.position(h.start);
        return h.content(new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(file), 1 << 16),
                node, now);
    }

    /** A header line checked against the file's size; the body starts at {@code start}. */
    private record Header(String[] fields, long savedAt, long length, byte[] expected, int start) {

        void check(Mac bodyMac, String node) {
            if (!MessageDigest.isEqual(seal(bodyMac, fields[5], Instant.ofEpochMilli(savedAt), length), expected)) {
                throw new UnusableSnapshotException("its integrity check fails: damaged, or not written in this"
                        + " directory under its key (planted, or copied from another node)");
            }
            if (!fields[5].equals(node)) {
                // after the MAC: the header's identity is what this directory's key signed, not a planted claim
                throw new UnusableSnapshotException(SnapshotIdentity.isUnknownIdentity(fields[5])
                        ? "written while the writer's identity was unknown (" + fields[5] + "): it may be any server's"
                        + " on this machine"
                        : "written by another server (" + fields[5] + "); this one is " + node);
            }
        }

        Content content(java.io.InputStream body, String node, long now) {
            try {
                return new Content(Instant.ofEpochMilli(savedAt), node, EurekaCodec.decodeApplications(body, now));
            } catch (RuntimeException e) {
                throw new UnusableSnapshotException("unreadable registry: " + e.getMessage());
            }
        }
    }

    private static Header readHeader(byte[] file, int eol, long size) {
        if (eol < 0 || eol > 4096) {
            throw new UnusableSnapshotException("no header line");
        }
        String[] h = new String(file, 0, eol, StandardCharsets.UTF_8).split(" ", 6);
        if (h.length < 2 || !h[0].equals(MAGIC)) {
            throw new UnusableSnapshotException("not a Muster registry snapshot");
        }
        if (h[1].equals("1")) {
            throw new UnusableSnapshotException("format version 1, from before snapshots were signed, so nothing"
                    + " shows this node wrote it (the next save replaces it)");
        }
        if (!h[1].equals(String.valueOf(VERSION))) {
            throw new UnusableSnapshotException("format version " + h[1] + ", this server reads " + VERSION);
        }
        if (h.length != 6) {
            throw new UnusableSnapshotException("a damaged header");
        }
        long savedAt;
        long length;
        byte[] expected;
        try {
            savedAt = Long.parseLong(h[2]);
            length = Long.parseLong(h[3]);
            expected = HexFormat.of().parseHex(h[4]);
        } catch (IllegalArgumentException e) {
            throw new UnusableSnapshotException("a damaged header");
        }
        int start = eol + 1;
        if (size - start != length) {
            throw new UnusableSnapshotException("partial: " + (size - start) + " of " + length + " bytes");
        }
        return new Header(h, savedAt, length, expected, start);
    }

    private static int indexOf(byte[] bytes, byte b, int within) {
        for (int i = 0; i < within; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
