package io.muster.codec;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads Eureka's XML instance and registry documents. DTDs and external entities are refused. Bytes are decoded to
 * text here, not by the parser: the JDK's parser prints "[Fatal Error]" lines to stderr on a malformed byte
 * sequence whatever reporter is set, and a request body must never write to the server's console.
 *
 * <p>One class, although long: one format read in one direction, element by element, as {@link JsonDecoder} is for
 * JSON.
 */
final class XmlDecoder {
    private static final XMLInputFactory FACTORY = newFactory();
    private static final int MAX_DEPTH = 32;
    private static final Pattern DECLARED_ENCODING =
            Pattern.compile("^<\\?xml[^>]*?encoding\\s*=\\s*[\"']([A-Za-z0-9._-]{1,40})[\"']");

    private XmlDecoder() {
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        return f;
    }

    /** A parsed element: name, attributes, text and children. Small documents only (request bodies). */
    record Node(String name, Map<String, String> attributes, String text, List<Node> children) {
        Node child(String childName) {
            for (Node c : children) {
                if (c.name.equals(childName)) {
                    return c;
                }
            }
            return null;
        }

        String childText(String childName) {
            Node c = child(childName);
            return c == null ? null : c.text;
        }
    }

    static InstanceInfo instance(byte[] body, long now) {
        Node root = parse(body);
        if (!"instance".equals(root.name())) {
            throw new WireFormatException("expected an <instance> element");
        }
        return instance(root, now);
    }

    static Applications applications(byte[] body, long now) {
        Node root = parse(body);
        if (!"applications".equals(root.name())) {
            throw new WireFormatException("expected an <applications> element");
        }
        List<Application> apps = new ArrayList<>();
        long version = -1;
        String hash = "";
        for (Node c : root.children()) {
            switch (c.name()) {
                case WireNames.VERSIONS_DELTA -> version = number(c.text(), -1);
                case WireNames.APPS_HASHCODE -> hash = c.text();
                case "application" -> {
                    List<InstanceInfo> instances = new ArrayList<>();
                    for (Node i : c.children()) {
                        if ("instance".equals(i.name())) {
                            instances.add(instance(i, now));
                        }
                    }
                    String name = c.childText("name");
                    if (name == null) {
                        throw new WireFormatException("application without a name");
                    }
                    apps.add(new Application(name.toUpperCase(Locale.ROOT), instances));
                }
                default -> { }
            }
        }
        return new Applications(version, hash, apps);
    }

    private static InstanceInfo instance(Node n, long now) {
        InstanceInfo.Builder b = InstanceInfo.builder().lastUpdatedTimestamp(now).lastDirtyTimestamp(now);
        for (Node c : n.children()) {
            String t = c.text();
            switch (c.name()) {
                case "instanceId" -> b.instanceId(t);
                case "hostName" -> b.hostName(t);
                case "app" -> b.app(t.toUpperCase(Locale.ROOT));
                case "appGroupName" -> b.appGroupName(t.toUpperCase(Locale.ROOT));
                case "ipAddr" -> b.ipAddr(t);
                case "sid" -> b.sid(t);
                case "status" -> b.status(InstanceStatus.parseOrUnknown(t));
                case "overriddenstatus", "overriddenStatus" -> b.overriddenStatus(InstanceStatus.parseOrUnknown(t));
                case "port" -> b.port(port(c, true));
                case "securePort" -> b.securePort(port(c, false));
                case "countryId" -> b.countryId((int) number(t, 1));
                case "dataCenterInfo" -> b.dataCenterInfo(dataCenter(c));
                case "leaseInfo" -> b.leaseInfo(lease(c));
                case "metadata" -> b.metadata(map(c));
                case "homePageUrl" -> b.homePageUrl(t);
                case "statusPageUrl" -> b.statusPageUrl(t);
                case "healthCheckUrl" -> b.healthCheckUrl(t);
                case "secureHealthCheckUrl" -> b.secureHealthCheckUrl(t);
                case "vipAddress" -> b.vipAddress(t);
                case "secureVipAddress" -> b.secureVipAddress(t);
                case "isCoordinatingDiscoveryServer" -> b.isCoordinatingDiscoveryServer(Boolean.parseBoolean(t.trim()));
                case "lastUpdatedTimestamp" -> b.lastUpdatedTimestamp(number(t, now));
                case "lastDirtyTimestamp" -> b.lastDirtyTimestamp(number(t, now));
                case "actionType" -> b.actionType(actionType(t));
                case "asgName" -> b.asgName(t);
                default -> { }
            }
        }
        return b.build();
    }

    private static PortInfo port(Node n, boolean enabledByDefault) {
        String enabled = n.attributes().get("enabled");
        long port = number(n.text(), 0);
        if (port < 0 || port > 65535) {
            throw new WireFormatException("port out of range: " + port);
        }
        return PortInfo.of((int) port, enabled == null ? enabledByDefault : Boolean.parseBoolean(enabled.trim()));
    }

    private static DataCenterInfo dataCenter(Node n) {
        String cls = n.attributes().get("class");
        if (cls != null) {
            WireNames.checkDataCenterClass(cls);
        }
        String name = n.childText("name");
        Node metadata = n.child("metadata");
        return name == null ? null : DataCenterInfo.of(name, metadata == null ? Map.of() : map(metadata));
    }

    private static LeaseInfo lease(Node n) {
        String renewal = n.childText("lastRenewalTimestamp");
        String duration = n.childText("durationInSecs");
        if (duration != null && !duration.isBlank()) {
            WireNames.checkLeaseDuration(number(duration, 0));
        }
        return LeaseInfo.of(WireNames.toInt(number(n.childText("renewalIntervalInSecs"), 0)),
                WireNames.toInt(number(duration, 0)),
                number(n.childText("registrationTimestamp"), 0),
                number(renewal != null ? renewal : n.childText("renewalTimestamp"), 0),
                number(n.childText("evictionTimestamp"), 0),
                number(n.childText("serviceUpTimestamp"), 0));
    }

    private static Map<String, String> map(Node n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Node c : n.children()) {
            m.put(XmlNames.decode(c.name()), c.text());
        }
        return m;
    }

    private static ActionType actionType(String s) {
        try {
            return ActionType.valueOf(s.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static long number(String s, long fallback) {
        if (s == null || s.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new WireFormatException("not a number: " + (s.length() > 40 ? s.substring(0, 40) + "..." : s));
        }
    }

    static Node parse(byte[] body) {
        XMLStreamReader r = null;
        try {
            r = FACTORY.createXMLStreamReader(new StringReader(text(body)));
            while (r.hasNext() && r.next() != XMLStreamConstants.START_ELEMENT) {
                if (r.getEventType() == XMLStreamConstants.DTD) {
                    throw new WireFormatException("DTDs are not accepted");
                }
            }
            if (r.getEventType() != XMLStreamConstants.START_ELEMENT) {
                throw new WireFormatException("cannot parse request body: no XML element");
            }
            Node root = element(r, 0);
            while (r.hasNext()) {
                int e = r.next();
                if (e == XMLStreamConstants.START_ELEMENT || e == XMLStreamConstants.CHARACTERS && !r.isWhiteSpace()) {
                    throw new WireFormatException("trailing content after the XML document");
                }
            }
            return root;
        } catch (XMLStreamException | RuntimeException e) {
            if (e instanceof WireFormatException w) {
                throw w;
            }
            throw new WireFormatException("cannot parse request body: malformed XML", e);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing to release: the input is a byte array
                }
            }
        }
    }

    /** The body as text: UTF-8 unless a byte-order mark or the XML declaration says otherwise; strict. */
    static String text(byte[] body) {
        Charset charset = StandardCharsets.UTF_8;
        int offset = 0;
        if (startsWith(body, 0xEF, 0xBB, 0xBF)) {
            offset = 3;
        } else if (startsWith(body, 0xFE, 0xFF)) {
            charset = StandardCharsets.UTF_16BE;
            offset = 2;
        } else if (startsWith(body, 0xFF, 0xFE)) {
            charset = StandardCharsets.UTF_16LE;
            offset = 2;
        } else {
            String head = new String(body, 0, Math.min(body.length, 200), StandardCharsets.ISO_8859_1);
            Matcher m = DECLARED_ENCODING.matcher(head);
            if (m.find()) {
                try {
                    charset = Charset.forName(m.group(1));
                } catch (IllegalArgumentException e) {
                    throw new WireFormatException("cannot parse request body: unsupported encoding " + m.group(1));
                }
            }
        }
        try {
            return charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body, offset, body.length - offset)).toString();
        } catch (CharacterCodingException e) {
            throw new WireFormatException("cannot parse request body: not valid " + charset.name());
        }
    }

    private static boolean startsWith(byte[] body, int... prefix) {
        if (body.length < prefix.length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if ((body[k] & 0xFF) != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    /** Reads the element the reader is on, up to and including its end tag. */
    private static Node element(XMLStreamReader r, int depth) throws XMLStreamException {
        if (depth > MAX_DEPTH) {
            throw new WireFormatException("XML nested too deeply");
        }
        String name = r.getLocalName();
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < r.getAttributeCount(); i++) {
            attributes.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
        }
        List<Node> children = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (true) {
            int e = r.next();
            if (e == XMLStreamConstants.START_ELEMENT) {
                children.add(element(r, depth + 1));
            } else if (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA) {
                text.append(r.getText());
            } else if (e == XMLStreamConstants.END_ELEMENT) {
                return new Node(name, attributes, children.isEmpty() ? text.toString() : text.toString().trim(),
                        children);
            } else if (e == XMLStreamConstants.END_DOCUMENT) {
                throw new WireFormatException("cannot parse request body: truncated XML");
            }
        }
    }
}
