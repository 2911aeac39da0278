package io.muster.resources;

import io.muster.codec.WireFormat;
import jakarta.ws.rs.core.Response;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/** Reads request bodies: size limit, optional gzip, and the content type that picks the codec. */
final class RequestBodies {
    static final int MAX_BYTES = 1 << 20;

    private RequestBodies() {
    }

    /** JSON or XML by the Content-Type's subtype, as Eureka's provider decides; anything else is a 415. */
    static WireFormat format(String contentType) {
        if (contentType != null) {
            String ct = contentType.toLowerCase(Locale.ROOT);
            int semicolon = ct.indexOf(';');
            String type = (semicolon < 0 ? ct : ct.substring(0, semicolon)).trim();
            String params = semicolon < 0 ? "" : ct.substring(semicolon + 1).replace(" ", "");
            int at = params.indexOf("charset=");
            String charset = at < 0 ? "utf-8" : params.substring(at + 8).split(";")[0].replace("\"", "");
            boolean charsetOk = charset.equals("utf-8") || charset.equals("iso-8859-1");
            if (charsetOk && type.endsWith("json")) {
                return WireFormat.JSON;
            }
            if (charsetOk && type.endsWith("xml")) {
                return WireFormat.XML;
            }
        }
        throw Problems.of(Response.Status.UNSUPPORTED_MEDIA_TYPE,
                "Content-Type must be application/json or application/xml");
    }

    static byte[] read(InputStream body, String contentEncoding) {
        return read(body, contentEncoding, MAX_BYTES);
    }

    static byte[] read(InputStream body, String contentEncoding, int maxBytes) {
        try {
            InputStream in = body;
            if (contentEncoding != null && contentEncoding.toLowerCase(Locale.ROOT).contains("gzip")) {
                in = new GZIPInputStream(body);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (out.size() + n > maxBytes) {
                    throw Problems.of(Response.Status.REQUEST_ENTITY_TOO_LARGE,
                            "body larger than " + (maxBytes >> 20) + " MiB");
                }
                out.write(buffer, 0, n);
            }
            if (out.size() == 0) {
                throw Problems.badRequest("cannot parse request body: empty");
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw Problems.badRequest("cannot read request body");
        }
    }
}
