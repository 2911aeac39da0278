package io.muster.chaos;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One directed peer link (node A's URL for node B) as a loopback TCP proxy the harness switches between modes.
 * Every switch closes the open connections, so a kept-alive connection cannot carry on in the old mode.
 *
 * <p>The modes that touch only replication batches read one HTTP request per connection: a batch is answered (500)
 * or held unanswered (the sender's read timeout fires); any other request (start-up sync, cluster check) is passed
 * on with {@code Connection: close}, so the node is otherwise reachable.
 */
public final class LinkProxy implements AutoCloseable {
    public enum Mode {
        /** Bytes piped both ways. */
        PASS,
        /** Piped, each chunk sent on after {@code delayMillis}. */
        DELAY,
        /** Connections accepted, requests read and never answered, as if the packets were lost. */
        DROP,
        /** Each connection reset (RST) once its first bytes arrive. */
        RESET,
        /** Replication batches answered 500; everything else passed. */
        BATCH_500,
        /** Replication batches never answered (the sender times out); everything else passed. */
        BATCH_TIMEOUT,
        /**
         * Replication batches answered 200 with no results, so the sender counts them delivered and they are gone
         * (a batch lost after the peer's acknowledgement); every other request 503, as from a peer looking away.
         */
        BATCHES_LOST
    }

    private final ServerSocket server;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile Mode mode = Mode.PASS;
    private volatile long delayMillis;
    final LongAdder connections = new LongAdder();
    final LongAdder batchesRefused = new LongAdder();

    public LinkProxy(int port, int target) throws IOException {
        this.server = new ServerSocket(port, 100, InetAddress.getLoopbackAddress());
        this.target = target;
        daemon("link-" + port, this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    public void set(Mode newMode, long delay) {
        delayMillis = delay;
        mode = newMode;
        open.forEach(LinkProxy::closeQuietly);
        open.clear();
    }

    Mode mode() {
        return mode;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                connections.increment();
                open.add(client);
                Mode m = mode;
                daemon("link-conn", () -> serve(client, m));
            } catch (IOException e) {
                // closed
            }
        }
    }

    private void serve(Socket client, Mode m) {
        try {
            switch (m) {
                case PASS, DELAY -> pipeBothWays(client, null, m == Mode.DELAY ? delayMillis : 0);
                case DROP -> client.getInputStream().transferTo(OutputStream.nullOutputStream());
                case RESET -> {
                    client.getInputStream().read();
                    client.setSoLinger(true, 0);
                    client.close();
                }
                case BATCH_500, BATCH_TIMEOUT, BATCHES_LOST -> oneRequest(client, m);
            }
        } catch (IOException e) {
            // either side closed, or the mode changed
        } finally {
            closeQuietly(client);
            open.remove(client);
        }
    }

    private void oneRequest(Socket client, Mode m) throws IOException {
        InputStream in = client.getInputStream();
        String head = readHead(in);
        byte[] body = in.readNBytes(contentLength(head));
        boolean batch = head.startsWith("POST ") && head.contains("peerreplication/batch");
        if (m == Mode.BATCHES_LOST) {
            String text = batch ? "{\"responseList\":[]}" : "";
            client.getOutputStream().write(((batch ? "HTTP/1.1 200 OK" : "HTTP/1.1 503 Service Unavailable")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + text.length()
                    + "\r\nConnection: close\r\n\r\n" + text).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        if (batch) {
            batchesRefused.increment();
            if (m == Mode.BATCH_500) {
                String text = "chaos: batch refused";
                client.getOutputStream().write(("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: " + text.length() + "\r\nConnection: close\r\n\r\n" + text)
                        .getBytes(StandardCharsets.US_ASCII));
            } else {
                in.transferTo(OutputStream.nullOutputStream());   // held until the sender gives up
            }
            return;
        }
        String closing = head.replaceFirst("(?i)\r\nConnection:[^\r]*", "")
                .replaceFirst("\r\n\r\n$", "\r\nConnection: close\r\n\r\n");
        byte[] request = concat(closing.getBytes(StandardCharsets.US_ASCII), body);
        pipeBothWays(client, request, 0);
    }

    private void pipeBothWays(Socket client, byte[] firstRequest, long delay) throws IOException {
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
        open.add(upstream);
        try {
            if (firstRequest != null) {
                upstream.getOutputStream().write(firstRequest);
            } else {
                daemon("link-up", () -> pipe(client, upstream, delay));
            }
            pipe(upstream, client, delay);
        } finally {
            closeQuietly(upstream);
            open.remove(upstream);
        }
    }

    private static void pipe(Socket from, Socket to, long delay) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buf = new byte[16 * 1024];
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException ignored) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return 0;
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        int matched = 0;
        while (matched < 4 && (c = in.read()) >= 0) {
            b.write(c);
            matched = (c == '\r' && matched % 2 == 0) || (c == '\n' && matched % 2 == 1) ? matched + 1
                    : c == '\r' ? 1 : 0;
        }
        if (matched < 4) {
            throw new IOException("connection closed before the request head ended");
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        set(Mode.PASS, 0);
    }
}
