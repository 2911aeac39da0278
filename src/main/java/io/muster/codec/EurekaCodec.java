package io.muster.codec;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;

/** Entry point of the codec package: encode and decode by {@link WireFormat}. Stateless and thread-safe. */
public final class EurekaCodec {
    private EurekaCodec() {
    }

    public static byte[] encode(WireFormat format, InstanceInfo instance) {
        return format == WireFormat.JSON ? JsonEncoder.instance(instance) : XmlEncoder.instance(instance);
    }

    public static byte[] encode(WireFormat format, Application app, Detail detail) {
        return format == WireFormat.JSON ? JsonEncoder.application(app, detail) : XmlEncoder.application(app, detail);
    }

    public static byte[] encode(WireFormat format, Applications apps, Detail detail) {
        return format == WireFormat.JSON ? JsonEncoder.applications(apps, detail)
                : XmlEncoder.applications(apps, detail);
    }

    /**
     * Decodes a registration body. {@code now} fills the timestamps a client left out, as Eureka's decoder does.
     *
     * @throws WireFormatException with a short client-safe message when the body is not an instance document
     */
    public static InstanceInfo decodeInstance(WireFormat format, byte[] body, long now) {
        return format == WireFormat.JSON ? JsonDecoder.instance(body, now) : XmlDecoder.instance(body, now);
    }

    public static Applications decodeApplications(WireFormat format, byte[] body, long now) {
        return format == WireFormat.JSON ? JsonDecoder.applications(body, now) : XmlDecoder.applications(body, now);
    }

    /** A JSON {@code applications} document decoded as it is read, never held whole. */
    public static Applications decodeApplications(java.io.InputStream json, long now) {
        return JsonDecoder.applications(json, now);
    }

    /**
     * Eureka's {@code /status} document.
     *
     * @param healthy null when no threshold is configured (Eureka then leaves the field out)
     * @param self    this server's own instance, or null
     */
    public static byte[] encodeStatus(WireFormat format, java.util.Map<String, java.util.Map<String, String>> sections,
                                      Boolean healthy, InstanceInfo self) {
        return format == WireFormat.JSON ? JsonEncoder.status(sections, healthy, self)
                : XmlEncoder.status(sections, healthy, self);
    }

    /** A two-level document of string values as XML, e.g. the {@code <status>} document. */
    public static byte[] encodeSections(String root, java.util.Map<String, java.util.Map<String, String>> sections) {
        return XmlEncoder.sections(root, sections);
    }
}
