package io.muster.web;

import jakarta.servlet.ServletConnection;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Requests whose body length two parsers could read differently, refused before any handler runs. A proxy in
 * front that takes {@code Content-Length} while the container takes {@code Transfer-Encoding} (or the reverse)
 * would see one request where the container sees two, the second one hidden in the first one's body: request
 * smuggling. Tomcat's connector drops the Content-Length of such a request before any filter sees it, reads the
 * body as chunked and closes the connection after its answer, so nothing is hidden there (and nothing is left for
 * this class to see); Payara's Grizzly passes both headers on, reads on and serves the hidden request.
 *
 * <p>Refused with 400 and {@code Connection: close}: {@code Transfer-Encoding} together with
 * {@code Content-Length}; a {@code Transfer-Encoding} that is not exactly one {@code chunked} (other codings,
 * lists, repeats, several header lines); several {@code Content-Length} header lines, a list, or a value that is
 * not a plain decimal number.
 *
 * <p>{@code Connection: close} is not enough on Grizzly: it still parses and serves the request already read
 * behind the refused one (only its answer is lost), and it drops a {@code Content-Length} line that comes before
 * {@code Transfer-Encoding} before any filter can see it, so there every chunked request may have carried both.
 * So every connection told to close (after a refusal, and after any chunked request, as RFC 9112 6.1 asks for
 * one that carried both) is remembered for a few seconds by the container's id for it, and a request that
 * still arrives on it is refused the same way. Eureka clients send a length with their bodies and do not
 * pipeline, so neither costs them anything.
 */
final class Framing {
    /** Long enough for what was already sent behind the last request; a closed connection sends nothing more. */
    private static final long REMEMBER_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Bounds the memory one client can make this take; past it the oldest marks go first. */
    static final int MAX_REMEMBERED = 16_384;

    /** Connections told to close, by {@link #connection}, to the nano time their mark expires. */
    private final Map<String, Long> closing = new ConcurrentHashMap<>();

    /** True when the request was refused (the response is then complete and the connection marked for closing). */
    boolean refused(HttpServletRequest req, HttpServletResponse rsp) {
        List<String> transferEncodings = values(req, "Transfer-Encoding");
        String problem = problem(transferEncodings, values(req, "Content-Length"));
        if (problem == null && !closing.isEmpty() && isClosing(connection(req))) {
            problem = "a request on a connection already told to close";
        }
        if (problem == null) {
            if (!transferEncodings.isEmpty()) {
                rsp.setHeader("Connection", "close");
                remember(connection(req));
            }
            return false;
        }
        remember(connection(req));
        byte[] body = (problem + "\n").getBytes(StandardCharsets.UTF_8);
        rsp.setStatus(400);
        rsp.setHeader("Connection", "close");
        rsp.setContentType("text/plain;charset=UTF-8");
        rsp.setContentLength(body.length);
        try {
            rsp.getOutputStream().write(body);
            rsp.flushBuffer();
        } catch (IOException e) {
            // a request read behind a refused one finds its connection closed: it was never to be answered, and
            // a stack trace per such request would let a client fill the log
        }
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

    int remembered() {
        return closing.size();
    }

    void remember(String connection) {
        long now = System.nanoTime();
        closing.put(connection, now + REMEMBER_NANOS);
        if (closing.size() > MAX_REMEMBERED) {
            closing.values().removeIf(expiry -> expiry - now < 0);
            for (Iterator<String> it = closing.keySet().iterator(); closing.size() > MAX_REMEMBERED && it.hasNext(); ) {
                it.next();
                it.remove();
            }
        }
    }

    boolean isClosing(String connection) {
        Long expiry = closing.get(connection);
        if (expiry == null) {
            return false;
        }
        if (expiry - System.nanoTime() < 0) {
            closing.remove(connection, expiry);
            return false;
        }
        return true;
    }

    /**
     * One TCP connection: the container's id for it (Tomcat and Grizzly number connections and never reuse a
     * number) with the client's address and port. The address and port alone named a later connection too: a
     * client port freed when the server closed a connection is often reused within the mark's 10 s, and that
     * client's next, plain request was refused (one of 250 connections in {@code SlowBodiesIT}).
     */
    private static String connection(HttpServletRequest req) {
        ServletConnection c = req.getServletConnection();
        String id = c == null ? null : c.getConnectionId();
        return req.getRemoteAddr() + ' ' + req.getRemotePort() + ' ' + req.getLocalPort() + ' ' + id;
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

    /**
     * Every header line of that name, as sent (containers keep repeated lines apart in getHeaders). Asked twice of
     * every request: the usual single line costs no list of its own.
     */
    private static List<String> values(HttpServletRequest req, String name) {
        return lowered(req.getHeaders(name));
    }

    /** The lines of one header name, lower-cased, in order; null lines as empty ones. */
    static List<String> lowered(java.util.Enumeration<String> lines) {
        if (lines == null || !lines.hasMoreElements()) {
            return List.of();
        }
        String first = lower(lines.nextElement());
        if (!lines.hasMoreElements()) {
            return List.of(first);
        }
        List<String> out = new ArrayList<>(2);
        out.add(first);
        while (lines.hasMoreElements()) {
            out.add(lower(lines.nextElement()));
        }
        return out;
    }

    private static String lower(String line) {
        return line == null ? "" : line.toLowerCase(Locale.ROOT);
    }
}
