package io.muster.chaos;

import io.muster.testing.SlowBodies;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Requests on sockets of their own, for what an HTTP client library will not send or will not do: ambiguous
 * framing, bytes that are not UTF-8, and clients that ask for an answer and then never read it. Loopback only.
 */
final class RawHttp {
    /** What a server that keeps a connection open after answering shows within the read timeout. */
    static final String STILL_OPEN = SlowBodies.STILL_OPEN;

    private RawHttp() {
    }

    static String head(String method, int port, String path, String headers) {
        return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + headers + "\r\n";
    }

    /**
     * Sends the bytes on a fresh connection and reads until the server closes it; ends with {@link #STILL_OPEN}
     * when the server was still holding it open after the timeout.
     */
    static String exchange(int port, byte[] request, Duration timeout) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            return SlowBodies.answer(s, timeout);
        }
    }

    /**
     * A client that sends a request and reads only the status line, then nothing more: with a 4 KB receive buffer
     * the server's writes of a large answer stall after a few hundred KB. The caller closes it.
     */
    static Socket unread(int port, String request) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
        return s;
    }

    /** The status code of the answer on a socket from {@link #unread} (reading only its first line), or -1. */
    static int statusOf(Socket s, Duration timeout) {
        try {
            s.setSoTimeout((int) timeout.toMillis());
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) >= 0 && c != '\n' && line.length() < 100; ) {
                line.append((char) c);
            }
            String[] parts = line.toString().split(" ");
            return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
