package io.muster.replication;

import com.sun.net.httpserver.HttpServer;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.testing.Instances;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer's registry is decoded as it arrives, so a start-up sync copies registries far larger than the 64 MB any
 * other answer may be (a million instances are about a gigabyte of JSON; the bound read whole stopped syncs at
 * about 65,000 instances): here 60,000 instances, 80 MB of JSON sent gzipped, none of it held whole by either side.
 */
class HttpPeerClientTest {
    private static final int INSTANCES = 60_000;
    private HttpServer peer;

    @AfterEach
    void stop() {
        if (peer != null) {
            peer.stop(0);
        }
    }

    @Test
    void aPeersRegistryOfMoreThanSixtyFourMegabytesIsCopiedWhole() throws Exception {
        AtomicLong sent = new AtomicLong();
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.createContext("/eureka/apps/", ex -> {
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.getResponseHeaders().add("Content-Encoding", "gzip");
            ex.sendResponseHeaders(200, 0);
            try (OutputStream out = new GZIPOutputStream(ex.getResponseBody(), 1 << 16) {
                {
                    def.setLevel(Deflater.BEST_SPEED);
                }
            }) {
                sent.set(writeRegistry(out));
            }
            ex.close();
        });
        peer.start();
        HttpPeerClient client = new HttpPeerClient(PeerUrl.parse("http://127.0.0.1:" + peer.getAddress().getPort()
                + "/eureka/"), Duration.ofSeconds(5), Duration.ofSeconds(60), Clock.systemUTC());

        Applications copied = client.fetchRegistry();

        assertThat(sent.get()).as("JSON bytes sent").isGreaterThan(64L << 20);
        assertThat(copied.instanceCount()).isEqualTo(INSTANCES);
        assertThat(copied.applications()).hasSize(INSTANCES / 20);
    }

    /** {"applications":{...}} of INSTANCES instances in apps of 20, each with 1 KB of metadata; the bytes written. */
    private static long writeRegistry(OutputStream out) throws IOException {
        long n = 0;
        n += write(out, "{\"applications\":{\"versions__delta\":\"1\",\"apps__hashcode\":\"UP_" + INSTANCES
                + "_\",\"application\":[");
        String padding = "x".repeat(1_000);
        for (int a = 0; a < INSTANCES / 20; a++) {
            n += write(out, (a > 0 ? "," : "") + "{\"name\":\"APP-" + a + "\",\"instance\":[");
            for (int i = 0; i < 20; i++) {
                InstanceInfo instance = Instances.sample("APP-" + a, "i-" + a + "-" + i)
                        .metadata(Map.of("note", padding)).build();
                String json = new String(EurekaCodec.encode(WireFormat.JSON, instance), StandardCharsets.UTF_8);
                String bare = json.substring(json.indexOf(':') + 1, json.length() - 1);   // without {"instance":...}
                n += write(out, (i > 0 ? "," : "") + bare);
            }
            n += write(out, "]}");
        }
        return n + write(out, "]}}");
    }

    private static int write(OutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b);
        return b.length;
    }
}
