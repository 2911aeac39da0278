package io.muster.compat;

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

/**
 * A loopback TCP link between two nodes that can lose replication batches: forwarding, it pipes bytes both ways;
 * losing, it answers each replication POST 200 with an empty result list (so the sender counts the batch as
 * delivered and it is gone, as a batch lost after the peer's acknowledgement would be) and every other request 503.
 * Switching closes the open connections, so a kept-alive connection cannot carry on in the old mode.
 */
final class LossyLink implements AutoCloseable {
    private final ServerSocket server;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean losing;

    LossyLink(int port, int target) throws IOException {
        this.server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        start("lossy-link-accept", this::accept);
    }

    void lose(boolean lose) {
        losing = lose;
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private static void start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                if (losing) {
                    start("lossy-link-drop", () -> answerLost(client));
                } else {
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                    open.add(upstream);
                    start("lossy-link-up", () -> pipe(client, upstream));
                    start("lossy-link-down", () -> pipe(upstream, client));
                }
            } catch (IOException e) {
                // closed, or the target is down: the caller sees the connection fail
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException ignored) {
            // either side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private void answerLost(Socket client) {
        try (client; InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
            String head = readHead(in);
            int length = 0;
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            in.readNBytes(length);
            boolean batch = head.startsWith("POST ") && head.contains("peerreplication/batch");
            String body = batch ? "{\"responseList\":[]}" : "";
            out.write(((batch ? "HTTP/1.1 200 OK" : "HTTP/1.1 503 Service Unavailable")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        } catch (IOException ignored) {
            // the sender gave up
        } finally {
            open.remove(client);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            b.write(c);
            byte[] a = b.toByteArray();
            int n = a.length;
            if (n >= 4 && a[n - 4] == '\r' && a[n - 3] == '\n' && a[n - 2] == '\r' && a[n - 1] == '\n') {
                break;
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
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
        lose(losing);
    }
}
