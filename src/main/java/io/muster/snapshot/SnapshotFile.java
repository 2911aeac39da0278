package io.muster.snapshot;

import io.muster.codec.Detail;
import io.muster.codec.DocumentWriter;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.Applications;
import io.muster.registry.AppGroups;

import java.io.IOException;
import java.io.OutputStream;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.CRC32;

/**
 * The snapshot file's format: one header line, then the registry in Eureka's JSON (the codec every read uses).
 * The header is {@code MUSTER-REGISTRY <version> <savedAtMillis> <bodyBytes> <crc32> <node>}; length and checksum
 * catch a partial or damaged file, the node catches a file written by another server (e.g. a copied directory).
 * Stateless.
 */
public final class SnapshotFile {
    static final String MAGIC = "MUSTER-REGISTRY";
    static final int VERSION = 1;

    /** What a valid file holds. */
    public record Content(Instant savedAt, String node, Applications applications) {
    }

    private SnapshotFile() {
    }

    public static byte[] encode(Applications apps, String node, Instant savedAt) {
        byte[] body = EurekaCodec.encode(WireFormat.JSON, apps, Detail.FULL);
        byte[] head = header(node, savedAt, body.length, crc(body, 0, body.length));
        byte[] out = new byte[head.length + body.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }

    /** The header line for a body of {@code length} bytes with this CRC-32, as {@link #encode} writes it. */
    static byte[] header(String node, Instant savedAt, long length, long crc) {
        return (MAGIC + ' ' + VERSION + ' ' + savedAt.toEpochMilli() + ' ' + length + ' ' + Long.toHexString(crc)
                + ' ' + node + '\n').getBytes(StandardCharsets.UTF_8);
    }

    /** Writes the body of a snapshot of {@code groups}: what {@link #encode} puts after the header. */
    static void writeBody(OutputStream out, AppGroups groups) throws IOException {
        DocumentWriter.write(out, WireFormat.JSON, Detail.FULL, groups);
    }

    /**
     * Decodes a file written for {@code node}.
     *
     * @throws UnusableSnapshotException naming why the file cannot be used (never for a valid file of this node)
     */
    public static Content decode(byte[] file, String node, long now) {
        int eol = indexOf(file, (byte) '\n');
        if (eol < 0 || eol > 4096) {
            throw new UnusableSnapshotException("no header line");
        }
        String[] h = new String(file, 0, eol, StandardCharsets.UTF_8).split(" ", 6);
        if (h.length != 6 || !h[0].equals(MAGIC)) {
            throw new UnusableSnapshotException("not a Muster registry snapshot");
        }
        if (!h[1].equals(String.valueOf(VERSION))) {
            throw new UnusableSnapshotException("format version " + h[1] + ", this server reads " + VERSION);
        }
        if (!h[5].equals(node)) {
            throw new UnusableSnapshotException("written by another node (" + h[5] + ")");
        }
        long savedAt;
        int length;
        long crc;
        try {
            savedAt = Long.parseLong(h[2]);
            length = Integer.parseInt(h[3]);
            crc = Long.parseLong(h[4], 16);
        } catch (NumberFormatException e) {
            throw new UnusableSnapshotException("a damaged header");
        }
        int start = eol + 1;
        if (file.length - start != length) {
            throw new UnusableSnapshotException("partial: " + (file.length - start) + " of " + length + " bytes");
        }
        if (crc(file, start, length) != crc) {
            throw new UnusableSnapshotException("checksum mismatch");
        }
        byte[] body = java.util.Arrays.copyOfRange(file, start, file.length);
        try {
            return new Content(Instant.ofEpochMilli(savedAt), node,
                    EurekaCodec.decodeApplications(WireFormat.JSON, body, now));
        } catch (RuntimeException e) {
            throw new UnusableSnapshotException("unreadable registry: " + e.getMessage());
        }
    }

    private static long crc(byte[] bytes, int from, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, from, length);
        return crc.getValue();
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
