package io.muster.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Requests whose body length two parsers could read differently, refused before any handler runs. A proxy in
 * front that takes {@code Content-Length} while the container takes {@code Transfer-Encoding} (or the reverse)
 * would see one request where the container sees two, the second one hidden in the first one's body: request
 * smuggling. Tomcat refuses such framing itself; Payara's Grizzly reads on and serves the hidden request. So the
 * answer is a 400 and {@code Connection: close}, after which both containers close the connection: the bytes
 * after the headers are never read as a request.
 *
 * <p>Refused: {@code Transfer-Encoding} together with {@code Content-Length}; a {@code Transfer-Encoding} that is
 * not exactly one {@code chunked} (other codings, lists, repeats, several header lines); several
 * {@code Content-Length} header lines, a list, or a value that is not a plain decimal number.
 */
final class Framing {
    private Framing() {
    }

    /**
     * True when the request was refused (the response is then complete and the connection marked for closing).
     * A chunked request that passes is answered with {@code Connection: close} too: when a {@code Content-Length}
     * line comes before the {@code Transfer-Encoding} line, Grizzly drops it before any filter can see it, so on
     * Payara every chunked request may have carried both, and RFC 9112 (6.1) asks the server to close the
     * connection after such a request whatever it answers. Eureka clients send a length with their bodies.
     */
    static boolean refused(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        List<String> transferEncodings = values(req, "Transfer-Encoding");
        String problem = problem(transferEncodings, values(req, "Content-Length"));
        if (problem == null) {
            if (!transferEncodings.isEmpty()) {
                rsp.setHeader("Connection", "close");
            }
            return false;
        }
        byte[] body = (problem + "\n").getBytes(StandardCharsets.UTF_8);
        rsp.setStatus(400);
        rsp.setHeader("Connection", "close");
        rsp.setContentType("text/plain;charset=UTF-8");
        rsp.setContentLength(body.length);
        rsp.getOutputStream().write(body);
        rsp.flushBuffer();
        return true;
    }

    /** The one-line reason the framing is ambiguous, or null when it is not. */
    static String problem(List<String> transferEncodings, List<String> contentLengths) {
        if (!transferEncodings.isEmpty() && !contentLengths.isEmpty()) {
            return "a request may not carry both Transfer-Encoding and Content-Length";
        }
        if (!transferEncodings.isEmpty()
                && (transferEncodings.size() > 1 || !transferEncodings.get(0).trim().equalsIgnoreCase("chunked"))) {
            return "Transfer-Encoding must be exactly chunked";
        }
        if (contentLengths.size() > 1) {
            return "a request may carry only one Content-Length";
        }
        if (!contentLengths.isEmpty() && !isDecimal(contentLengths.get(0).trim())) {
            return "Content-Length must be one decimal number";
        }
        return null;
    }

    private static boolean isDecimal(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) < '0' || s.charAt(k) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Every header line of that name, as sent (containers keep repeated lines apart in getHeaders). */
    private static List<String> values(HttpServletRequest req, String name) {
        var lines = req.getHeaders(name);
        if (lines == null || !lines.hasMoreElements()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(1);
        for (String line : Collections.list(lines)) {
            out.add(line == null ? "" : line.toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
