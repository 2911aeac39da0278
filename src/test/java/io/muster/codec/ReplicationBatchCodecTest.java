package io.muster.codec;

import io.muster.model.ReplicationAction;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Eureka's replication batch format, against a golden file, and read by the Netflix server's own classes. */
class ReplicationBatchCodecTest {
    private static final long NOW = 1_800_000_000_000L;

    static List<ReplicationItem> batch() {
        return List.of(
                new ReplicationItem(ReplicationAction.REGISTER, "ORDERS", "host-a:orders:8080", 1700000000000L, "UP", null,
                        WireFixtures.orders1()),
                new ReplicationItem(ReplicationAction.HEARTBEAT, "ORDERS", "host-b:orders:8080", 1700000000500L, "UP",
                        "OUT_OF_SERVICE", null),
                new ReplicationItem(ReplicationAction.CANCEL, "BILLING", "host-c:billing:9000", null, null, null, null),
                new ReplicationItem(ReplicationAction.STATUS_UPDATE, "ORDERS", "host-a:orders:8080", 1700000000000L,
                        "OUT_OF_SERVICE", null, null));
    }

    @Test
    void batchIsWrittenAsTheGoldenFileAndReadBack() throws IOException {
        byte[] written = ReplicationBatchCodec.encodeRequest(batch());
        byte[] golden = EurekaCodecTest.golden("replication-batch.json", written);
        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo(new String(golden, StandardCharsets.UTF_8));
        assertThat(ReplicationBatchCodec.decodeRequest(golden, NOW)).isEqualTo(batch());
    }

    @Test
    void responsesRoundTripWithTheConflictEntity() {
        List<ReplicationResult> results = List.of(ReplicationResult.of(200),
                new ReplicationResult(409, WireFixtures.orders1()), ReplicationResult.of(404));
        String json = new String(ReplicationBatchCodec.encodeResponse(results), StandardCharsets.UTF_8);
        assertThat(json).startsWith("{\"responseList\":[{\"statusCode\":200},{\"statusCode\":409,\"responseEntity\":{");
        assertThat(ReplicationBatchCodec.decodeResponse(json.getBytes(StandardCharsets.UTF_8), NOW)).isEqualTo(results);
    }

    @Test
    void malformedItemsAndUnknownActionsAreMarkedSoTheyCanBeAnswered400() {
        String json = "{\"replicationList\":[7,{\"appName\":\"A\",\"id\":\"x\",\"lastDirtyTimestamp\":\"abc\","
                + "\"action\":\"Heartbeat\"},{\"appName\":\"A\",\"id\":\"y\",\"action\":\"Cancel\"},"
                + "{\"appName\":\"A\",\"id\":\"z\",\"action\":\"Explode\"},{\"appName\":\"A\",\"id\":\"w\"}]}";
        List<ReplicationItem> items = ReplicationBatchCodec.decodeRequest(json.getBytes(StandardCharsets.UTF_8), NOW);
        assertThat(items).extracting(ReplicationItem::action)
                .containsExactly(null, null, ReplicationAction.CANCEL, null, null);
    }

    @Test
    void netflixServerClassesReadOurBatch() throws IOException {
        byte[] ours = ReplicationBatchCodec.encodeRequest(batch());
        var mapper = com.netflix.discovery.converters.wrappers.CodecWrappers
                .getCodec(com.netflix.discovery.converters.wrappers.CodecWrappers.LegacyJacksonJson.class);
        // eureka-core is not on our class path; the client codec reads the nested instance the same way
        String nested = new String(ours, StandardCharsets.UTF_8);
        int start = nested.indexOf("\"instanceInfo\":") + "\"instanceInfo\":".length();
        int depth = 0;
        int end = start;
        for (; end < nested.length(); end++) {
            char c = nested.charAt(end);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        String wrapped = "{\"instance\":" + nested.substring(start, end + 1) + "}";
        var info = mapper.decode(wrapped, com.netflix.appinfo.InstanceInfo.class);
        assertThat(info.getId()).isEqualTo("host-a:orders:8080");
        assertThat(info.getPort()).isEqualTo(8080);
    }
}
