package io.muster.replication;

import io.muster.codec.EurekaCodec;
import io.muster.codec.ReplicationBatchCodec;
import io.muster.codec.WireFormatException;
import io.muster.model.Applications;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Replication and sync calls over {@link HttpURLConnection}: blocking calls suit one worker thread per peer, and
 * it starts no threads of its own that would outlive an undeploy. Sends the peer's credentials as HTTP Basic.
 * Public for the remote-region fetcher, which reads another region's registry the way a sync reads a peer's.
 */
public final class HttpPeerClient implements PeerClient {
    private static final int MAX_RESPONSE = 64 << 20;
    static final long LOOKUP_TIMEOUT_MS = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PeerUrl peer;
    private final Duration connectTimeout;
    private final Duration readTimeout;
    private final Clock clock;

    public HttpPeerClient(PeerUrl peer, Duration connectTimeout, Duration readTimeout, Clock clock) {
        this.peer = peer;
        this.connectTimeout = connectTimeout;
        this.readTimeout = readTimeout;
        this.clock = clock;
    }

    @Override
    public List<ReplicationResult> sendBatch(List<ReplicationItem> items) throws IOException {
        HttpURLConnection c = open("peerreplication/batch/", "POST");
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json");
        byte[] body = ReplicationBatchCodec.encodeRequest(items);
        c.setFixedLengthStreamingMode(body.length);
        try (OutputStream out = c.getOutputStream()) {
            out.write(body);
        }
        return ReplicationBatchCodec.decodeResponse(read(c), clock.millis());
    }

    @Override
    public Applications fetchRegistry() throws IOException {
        return fetch("apps/");
    }

    /** The peer's delta; a {@link PeerClient.StatusException} when it answers otherwise than 2xx. */
    public Applications fetchDelta() throws IOException {
        return fetch("apps/delta");
    }

    /**
     * A registry (or delta) decoded as it arrives rather than read whole first: a million instances are about a
     * gigabyte of JSON, 15 times the bound of other answers. Its text is bounded by half this node's heap instead,
     * about two million ordinary instances on a 4 GB heap, more than such a heap holds.
     */
    private Applications fetch(String path) throws IOException {
        HttpURLConnection c = open(path, "GET");
        c.setRequestProperty("Accept-Encoding", "gzip");
        try (InputStream in = bounded(body(c), Math.max(MAX_RESPONSE, Runtime.getRuntime().maxMemory() / 2))) {
            return EurekaCodec.decodeApplications(in, clock.millis());
        } catch (WireFormatException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;   // the link or the bound, not the peer's JSON
            }
            throw e;
        }
    }

    private static InputStream bounded(InputStream in, long limit) {
        return new java.io.FilterInputStream(in) {
            private long read;

            @Override
            public int read() throws IOException {
                int b = super.read();
                count(b < 0 ? 0 : 1);
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                count(Math.max(0, n));
                return n;
            }

            private void count(int n) throws IOException {
                read += n;
                if (read > limit) {
                    throw new IOException("response larger than " + limit + " bytes");
                }
            }
        };
    }

    @Override
    public Applications fetchRegistryForSync() throws IOException {
        return fetch("api/cluster/registry");
    }

    @Override
    public PeerDigest fetchDigest() throws IOException {
        HttpURLConnection c = open("api/cluster/digest", "GET");
        try {
            JsonNode body = JSON.readTree(read(c));
            Map<String, String> apps = new TreeMap<>();
            body.path("apps").fields().forEachRemaining(e -> apps.put(e.getKey(), e.getValue().asText()));
            Map<String, Long> cancelled = new TreeMap<>();
            body.path("cancelled").fields().forEachRemaining(e -> cancelled.put(e.getKey(), e.getValue().asLong()));
            return new PeerDigest(apps, cancelled, body.path("readsHeld").asBoolean(false));
        } catch (StatusException e) {
            if (e.status == 404) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Asked on a client's request thread (a registration at the instance cap), so it waits at most
     * {@link #LOOKUP_TIMEOUT_MS} however slow the peer link is configured to be.
     */
    @Override
    public boolean holds(String app, String id) throws IOException {
        HttpURLConnection c = open("apps/" + PeerUrl.segment(app) + "/" + PeerUrl.segment(id), "GET");
        c.setConnectTimeout((int) Math.min(connectTimeout.toMillis(), LOOKUP_TIMEOUT_MS));
        c.setReadTimeout((int) Math.min(readTimeout.toMillis(), LOOKUP_TIMEOUT_MS));
        try {
            read(c);
            return true;
        } catch (StatusException e) {
            if (e.status == 404) {
                return false;
            }
            throw e;
        }
    }

    private HttpURLConnection open(String path, String method) throws IOException {
        HttpURLConnection c = (HttpURLConnection) peer.resolve(path).toURL().openConnection();
        c.setRequestMethod(method);
        c.setConnectTimeout((int) connectTimeout.toMillis());
        c.setReadTimeout((int) readTimeout.toMillis());
        c.setUseCaches(false);
        c.setRequestProperty("Accept", "application/json");
        c.setRequestProperty("User-Agent", "Muster-Replication");
        c.setRequestProperty("DiscoveryIdentity-Name", "DefaultServer");
        c.setRequestProperty("DiscoveryIdentity-Version", "1.0");
        if (peer.authorization() != null) {
            c.setRequestProperty("Authorization", peer.authorization());
        }
        return c;
    }

    /** The body of a 2xx answer, inflated if gzipped; a {@link StatusException} for any other. */
    private static InputStream body(HttpURLConnection c) throws IOException {
        int status = c.getResponseCode();
        if (status < 200 || status > 299) {
            drain(c.getErrorStream());
            throw new StatusException(status);
        }
        InputStream raw = c.getInputStream();
        return "gzip".equalsIgnoreCase(c.getContentEncoding()) ? new GZIPInputStream(raw) : raw;
    }

    private static byte[] read(HttpURLConnection c) throws IOException {
        try (InputStream in = body(c)) {
            byte[] bytes = in.readNBytes(MAX_RESPONSE + 1);
            if (bytes.length > MAX_RESPONSE) {
                throw new IOException("response larger than " + MAX_RESPONSE + " bytes");
            }
            return bytes;
        }
    }

    /** Reading the error body lets the JDK keep the connection alive for the next call. */
    private static void drain(InputStream in) {
        if (in == null) {
            return;
        }
        try (in) {
            in.readNBytes(64 * 1024);
        } catch (IOException ignored) {
            // the connection is dropped instead
        }
    }
}
