package io.muster.codec;

import io.muster.model.Applications;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * An {@code applications} document without its applications, split where they go: {@code head}, the applications
 * one after another (comma-separated in JSON, see {@link #separator}), then {@code tail}. Cut from
 * {@link EurekaCodec}'s own encoding of the empty document, so it stays byte for byte what the codec writes.
 */
record Envelope(byte[] head, byte[] tail, byte[] separator) {
    private static final byte[] JSON_APPLICATION_LIST = "\"application\":[]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] XML_APPLICATIONS_END = "</applications>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COMMA = {','};
    private static final byte[] NOTHING = {};
    /** {@code {"application":} around a single-application JSON document, absent from its list form. */
    private static final int JSON_APPLICATION_WRAPPER = "{\"application\":".length();

    static Envelope of(WireFormat format, long version, String appsHashCode, Detail detail) {
        byte[] empty = EurekaCodec.encode(format, new Applications(version, appsHashCode, List.of()), detail);
        int split = format == WireFormat.JSON
                ? indexOf(empty, JSON_APPLICATION_LIST) + JSON_APPLICATION_LIST.length - 1
                : empty.length - XML_APPLICATIONS_END.length;
        return new Envelope(Arrays.copyOfRange(empty, 0, split), Arrays.copyOfRange(empty, split, empty.length),
                format == WireFormat.JSON ? COMMA : NOTHING);
    }

    /** Where an application's list form starts in its single-application document. */
    static int listFormStart(WireFormat format) {
        return format == WireFormat.JSON ? JSON_APPLICATION_WRAPPER : 0;
    }

    /** Where an application's list form ends in its single-application document of {@code length} bytes. */
    static int listFormEnd(WireFormat format, int length) {
        return format == WireFormat.JSON ? length - 1 : length;
    }

    private static int indexOf(byte[] in, byte[] what) {
        outer:
        for (int i = 0; i + what.length <= in.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("no application list in the envelope");
    }
}
