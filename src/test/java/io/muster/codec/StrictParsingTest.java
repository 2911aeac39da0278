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
}
