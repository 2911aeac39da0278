package io.muster.api;

import io.muster.codec.WireFormat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/** Reads request bodies: size limit, optional gzip, and the content type that picks the codec. */
final class RequestBodies {
    static final int MAX_BYTES = BodyLimits.CLIENT_BYTES;
    private static final long DRAIN_LIMIT = 32L << 20;
    /** Room for an ordinary registration (1-2 KB) in the first array. */
    static final int FIRST_READ = 4096;
    /**
     * The largest declared length an array is made for before the bytes arrive: what a connection that declares a
     * length and then sends nothing holds (the container's connection timeout ends it).
     */
    static final int MAX_HINT = 16 * 1024;

    private RequestBodies() {
    }

    /**
     * JSON or XML by the exact media type ({@code application/json} or {@code application/xml}, any case, with
     * parameters); a charset other than UTF-8 or ISO-8859-1 and every other type are a 415.
     */
    static WireFormat format(String contentType) {
        if (contentType != null) {
            String ct = contentType.toLowerCase(Locale.ROOT);
            int semicolon = ct.indexOf(';');
            String type = (semicolon < 0 ? ct : ct.substring(0, semicolon)).trim();
            if (semicolon < 0 || charsetOk(ct.substring(semicolon + 1))) {
                if (type.equals("application/json")) {
                    return WireFormat.JSON;
                }
                if (type.equals("application/xml")) {
                    return WireFormat.XML;
                }
            }
        }
        throw Problem.of(415, "Content-Type must be application/json or application/xml");
    }

    private static boolean charsetOk(String params) {
        for (String param : params.split(";")) {
            String p = param.trim();
            if (p.startsWith("charset=")) {
                String charset = p.substring(8).replace("\"", "").trim();
                return charset.equals("utf-8") || charset.equals("iso-8859-1");
            }
        }
        return true;
    }

    /**
     * Reads and drops the rest of a refused body, up to a bound: a client blocks until its body is sent, so without
     * this it would never see the 413 (Tomcat swallows 2 MB by itself; Payara's Grizzly does not).
     */
    private static void drain(InputStream in, byte[] buffer, long limit) throws IOException {
        long dropped = 0;
        int n;
        while (dropped < limit && (n = in.read(buffer)) > 0) {
            dropped += n;
        }
    }

    static byte[] read(InputStream body, String contentEncoding) {
        return read(body, contentEncoding, MAX_BYTES);
    }

    static byte[] read(InputStream body, String contentEncoding, int maxBytes) {
        return read(body, contentEncoding, maxBytes, -1);
    }

    /**
     * The whole body, read straight into one array: of the declared length when there is one (up to
     * {@link #MAX_HINT}: a declared length alone holds no more), otherwise starting at
     * {@link #FIRST_READ} bytes and doubling. A registration (about 1.5 KB) costs one array of its size, not a copy
     * buffer beside a growing stream (which allocated eight times the body per request), nor a 4 KB array and a
     * trimmed copy (half of what a registration allocated).
     *
     * @param declaredLength the request's Content-Length, or -1
     */
    static byte[] read(InputStream body, String contentEncoding, int maxBytes, long declaredLength) {
        try {
            InputStream in = body;
            boolean gzip = contentEncoding != null && contentEncoding.toLowerCase(Locale.ROOT).contains("gzip");
            if (!gzip && body instanceof BodyLimits.InMemory whole) {
                return checked(whole.takeBytes(), maxBytes);
            }
            if (gzip) {
                in = new GZIPInputStream(body);
            }
            byte[] buf = new byte[!gzip && declaredLength > 0 && declaredLength <= Math.min(maxBytes, MAX_HINT)
                    ? (int) declaredLength : Math.min(FIRST_READ, maxBytes + 1)];
            int size = 0;
            while (true) {
                if (size == buf.length) {   // full: one more byte says whether it must grow
                    int next = in.read();
                    if (next < 0) {
                        break;
                    }
                    // one byte past the bound is enough to know a body is too large
                    buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, maxBytes + 1L));
                    buf[size++] = (byte) next;
                } else {
                    int n = in.read(buf, size, buf.length - size);
                    if (n < 0) {
                        break;
                    }
                    size += n;
                }
                if (size > maxBytes) {
                    drain(in, buf, DRAIN_LIMIT);
                    throw tooLarge(maxBytes);
                }
            }
            return checked(size == buf.length ? buf : Arrays.copyOf(buf, size), maxBytes);
        } catch (IOException e) {
            throw Problem.badRequest("cannot read request body");
        }
    }

    private static RuntimeException tooLarge(int maxBytes) {
        return Problem.tooLarge("body larger than " + (maxBytes >> 20) + " MiB");
    }

    private static byte[] checked(byte[] body, int maxBytes) {
        if (body.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        if (body.length == 0) {
            throw Problem.badRequest("cannot parse request body: empty");
        }
        return body;
    }
}
