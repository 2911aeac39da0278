package io.muster.codec;

import com.netflix.discovery.converters.wrappers.CodecWrappers;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Strict but compatible decoding, and an XML encoder that cannot be made to write a broken document. */
class StrictParsingTest {
    private static final String OK = """
            {"instance":{"instanceId":"i","hostName":"h","app":"A","ipAddr":"10.0.0.1","status":"UP",
            "dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"}}}""";

    private static InstanceInfo json(String body) {
        return EurekaCodec.decodeInstance(WireFormat.JSON, body.getBytes(StandardCharsets.UTF_8), 0);
    }

    @Test
    void duplicateJsonKeysAreRefusedAtAnyDepth() {
        assertThat(json(OK).status().name()).isEqualTo("UP");
        assertThatThrownBy(() -> json(OK.replace("\"status\":\"UP\"", "\"status\":\"UP\",\"status\":\"DOWN\"")))
                .isInstanceOf(WireFormatException.class).hasMessageContaining("duplicate field 'status'");
        assertThatThrownBy(() -> json(OK.replace("\"name\":\"MyOwn\"", "\"name\":\"MyOwn\",\"name\":\"Nope\"")))
                .isInstanceOf(WireFormatException.class).hasMessageContaining("duplicate field");
        assertThatThrownBy(() -> ReplicationBatchCodec.decodeRequest(
                "{\"replicationList\":[],\"replicationList\":[]}".getBytes(StandardCharsets.UTF_8), 0))
                .isInstanceOf(WireFormatException.class);
    }

    @Test
    void dataCenterClassesNetflixCannotLoadAreRefused() {
        for (String known : new String[]{"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo",
                "com.netflix.appinfo.MyDataCenterInfo", "com.netflix.appinfo.AmazonInfo"}) {
            assertThat(json(OK.replace("com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo", known))).isNotNull();
        }
        assertThatThrownBy(() -> json(OK.replace("com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo",
                "no.such.Class"))).isInstanceOf(WireFormatException.class).hasMessageContaining("no.such.Class");
        String xml = "<instance><dataCenterInfo class=\"no.such.Class\"><name>MyOwn</name></dataCenterInfo></instance>";
        assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.XML, xml.getBytes(StandardCharsets.UTF_8), 0))
                .isInstanceOf(WireFormatException.class);
    }

    @Test
    void badXmlIsNeverPrintedToStderr() {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            byte[][] bad = {{'<', 'a', '>', (byte) 0xC3, (byte) 0x28, '<', '/', 'a', '>'},
                    "<instance>".getBytes(StandardCharsets.UTF_8), "\u0000<a/>".getBytes(StandardCharsets.UTF_8),
                    "<?xml version='1.0' encoding='bogus'?><a/>".getBytes(StandardCharsets.UTF_8),
                    {(byte) 0xFE, (byte) 0xFF, 0, '<'}, "<a><b></a>".getBytes(StandardCharsets.UTF_8)};
            for (byte[] body : bad) {
                assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.XML, body, 0))
                        .isInstanceOf(WireFormatException.class);
            }
        } finally {
            System.setErr(original);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void declaredEncodingsAndByteOrderMarksStillWork() {
        String body = "<?xml version='1.0' encoding='ISO-8859-1'?><instance><app>caf\u00e9</app></instance>";
        assertThat(EurekaCodec.decodeInstance(WireFormat.XML, body.getBytes(StandardCharsets.ISO_8859_1), 0).app())
                .isEqualTo("CAF\u00c9");
        byte[] bom = "\uFEFF<instance><app>x</app></instance>".getBytes(StandardCharsets.UTF_8);
        assertThat(EurekaCodec.decodeInstance(WireFormat.XML, bom, 0).app()).isEqualTo("X");
    }

    /** Defence in depth: what the registry refuses must still not break the XML if it ever gets this far. */
    @Test
    void xmlEncoderLeavesOutKeysThatAreNotXmlNamesAndDropsCharactersXmlCannotCarry() throws Exception {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("ok", "cr\r\nlf, lone\uD800, \uFFFE, nul\u0000, pair\uD83D\uDE00");
        metadata.put("@class", "evil");
        metadata.put("--><application><name>PAYMENTS</name></application><!--", "evil");
        metadata.put("a:b", "evil");
        metadata.put("", "evil");
        InstanceInfo i = InstanceInfo.builder().instanceId("i").hostName("h").app("A").ipAddr("10.0.0.1")
                .dataCenterInfo(new DataCenterInfo("Amazon", Map.of("instance-id", "i", "x y", "evil")))
                .metadata(metadata).build();
        String xml = new String(EurekaCodec.encode(WireFormat.XML,
                new Applications(1, "UP_1_", List.of(new Application("A", List.of(i)))), Detail.FULL),
                StandardCharsets.UTF_8);
        assertThat(xml).doesNotContain("evil", "PAYMENTS").contains("cr&#13;\nlf, lone, , nul, pair\uD83D\uDE00");
        var netflix = CodecWrappers.getCodec(CodecWrappers.XStreamXml.class)
                .decode(xml, com.netflix.discovery.shared.Applications.class);
        assertThat(netflix.getRegisteredApplications()).singleElement()
                .satisfies(a -> assertThat(a.getName()).isEqualTo("A"));
        assertThat(netflix.getRegisteredApplications("A").getByInstanceId("i").getMetadata())
                .containsExactly(Map.entry("ok", "cr\r\nlf, lone, , nul, pair\uD83D\uDE00"));
    }

    @Test
    void xmlNamesFollowTheXmlSpecWithoutColons() {
        for (String good : new String[]{"a", "_x", "a.b-c", "é", "ключ", "a__b", "_-x"}) {
            assertThat(XmlNames.isName(good)).as(good).isTrue();
        }
        for (String bad : new String[]{"", "1a", "-a", ".a", "a:b", "@a", "a b", "a<b", "a>b", "a/b", "\u0000"}) {
            assertThat(XmlNames.isName(bad)).as(bad).isFalse();
        }
    }
    /** Issue 22 item 8: Jackson would read the overlong C0 AF as '/'; every ill-formed sequence is refused. */
    @Test
    void bodiesThatAreNotWellFormedUtf8AreRefused() {
        byte[][] bad = {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
                {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80,
                (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}};
        for (byte[] sequence : bad) {
            for (WireFormat format : WireFormat.values()) {
                byte[] body = format == WireFormat.JSON ? withHost(OK, sequence)
                        : withHost("<instance><instanceId>i</instanceId><hostName>h</hostName><app>A</app>"
                        + "<ipAddr>10.0.0.1</ipAddr><dataCenterInfo><name>MyOwn</name></dataCenterInfo></instance>",
                        sequence);
                assertThatThrownBy(() -> EurekaCodec.decodeInstance(format, body, 0))
                        .as(format + " " + java.util.HexFormat.of().formatHex(sequence))
                        .isInstanceOf(WireFormatException.class).hasMessageContaining("not valid UTF");
            }
        }
        byte[] good = withHost(OK, "é日😀".getBytes(StandardCharsets.UTF_8));
        assertThat(EurekaCodec.decodeInstance(WireFormat.JSON, good, 0).hostName()).isEqualTo("hé日😀");
        assertThat(Utf8.firstMalformed(new byte[]{'a', (byte) 0xC0, (byte) 0xAF})).isEqualTo(1);
        assertThat(Utf8.firstMalformed(new byte[]{(byte) 0xEF, (byte) 0xBF, (byte) 0xBF, (byte) 0xF4, (byte) 0x8F,
                (byte) 0xBF, (byte) 0xBF})).as("U+FFFF and U+10FFFF are well-formed").isEqualTo(-1);
    }

    private static byte[] withHost(String body, byte[] sequence) {
        String marker = body.contains("\"hostName\":\"h\"") ? "\"hostName\":\"h" : "<hostName>h";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        int at = body.indexOf(marker) + marker.length();
        byte[] out = new byte[b.length + sequence.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(sequence, 0, out, at, sequence.length);
        System.arraycopy(b, at, out, at + sequence.length, b.length - at);
        return out;
    }

    /** Issue 22 item 8: values a cast or Eureka's defaults would turn into something else. */
    @Test
    void numbersThatWouldBeReplacedOrSaturatedAreRefused() {
        assertThatThrownBy(() -> json(OK.replace("\"status\":\"UP\"", "\"lastDirtyTimestamp\":1e400")))
                .isInstanceOf(WireFormatException.class).hasMessage("number out of range: 1e400");
        assertThatThrownBy(() -> json(OK.replace("\"status\":\"UP\"", "\"lastDirtyTimestamp\":-1e400")))
                .isInstanceOf(WireFormatException.class);
        assertThat(json(OK.replace("\"status\":\"UP\"", "\"lastDirtyTimestamp\":1.7e12")).lastDirtyTimestamp())
                .isEqualTo(1_700_000_000_000L);
        for (String duration : new String[]{"0", "\"0\"", "-1"}) {
            assertThatThrownBy(() -> json(OK.replace("\"status\":\"UP\"",
                    "\"leaseInfo\":{\"durationInSecs\":" + duration + "}")))
                    .as(duration).isInstanceOf(WireFormatException.class).hasMessageContaining("durationInSecs");
        }
        String xml = "<instance><leaseInfo><durationInSecs>0</durationInSecs></leaseInfo></instance>";
        assertThatThrownBy(() -> EurekaCodec.decodeInstance(WireFormat.XML, xml.getBytes(StandardCharsets.UTF_8), 0))
                .isInstanceOf(WireFormatException.class).hasMessageContaining("durationInSecs 0");
        for (String absent : new String[]{"{}", "{\"durationInSecs\":null}", "{\"durationInSecs\":\"\"}"}) {
            assertThat(json(OK.replace("\"status\":\"UP\"", "\"leaseInfo\":" + absent)).leaseInfo()
                    .durationInSecs()).as(absent + " means Eureka's default").isEqualTo(90);
        }
    }
}
