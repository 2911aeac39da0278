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
                .map(g -> new AppsDocument.App(g.app(), g.sources(), g::decorated)).toList());
    }

    /**
     * Decodes a file written for {@code node} and signed with {@code key}.
     *
     * @throws UnusableSnapshotException naming why the file cannot be used (never for a valid file of this node)
     */
    public static Content decode(byte[] file, String node, long now, IntegrityKey key) {
        int eol = indexOf(file, (byte) '\n');
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
        int length;
        byte[] expected;
        try {
            savedAt = Long.parseLong(h[2]);
            length = Integer.parseInt(h[3]);
            expected = HexFormat.of().parseHex(h[4]);
        } catch (IllegalArgumentException e) {
            throw new UnusableSnapshotException("a damaged header");
        }
        int start = eol + 1;
        if (file.length - start != length) {
            throw new UnusableSnapshotException("partial: " + (file.length - start) + " of " + length + " bytes");
        }
        Mac mac = key.mac();
        mac.update(file, start, length);
        if (!MessageDigest.isEqual(seal(mac, h[5], Instant.ofEpochMilli(savedAt), length), expected)) {
            throw new UnusableSnapshotException("its integrity check fails: damaged, or not written in this"
                    + " directory under its key (planted, or copied from another node)");
        }
        if (!h[5].equals(node)) {
            // after the MAC: the header's identity is what this directory's key signed, not a planted claim
            throw new UnusableSnapshotException(SnapshotIdentity.isUnknownIdentity(h[5])
                    ? "written while the writer's identity was unknown (" + h[5] + "): it may be any server's on"
                    + " this machine"
                    : "written by another server (" + h[5] + "); this one is " + node);
        }
        byte[] body = java.util.Arrays.copyOfRange(file, start, file.length);
        try {
            return new Content(Instant.ofEpochMilli(savedAt), node,
                    EurekaCodec.decodeApplications(WireFormat.JSON, body, now));
        } catch (RuntimeException e) {
            throw new UnusableSnapshotException("unreadable registry: " + e.getMessage());
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
