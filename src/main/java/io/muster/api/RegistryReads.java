package io.muster.api;

import io.muster.cache.CacheKey;
import io.muster.cache.Payload;
import io.muster.cache.ResponseCache;
import io.muster.codec.Detail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.WireFormat;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;

import java.util.Map;
import java.util.Optional;

/**
 * The rules of every read: cached payloads (full registry, delta, one app, a VIP) with Eureka's format, compact
 * and gzip choices and the start-up gate, and single instances encoded on demand.
 */
public final class RegistryReads {
    public static final String INDEX_HEADER = "X-Muster-Index";
    static final String VARY = "Accept, Accept-Encoding, " + EurekaHeaders.EUREKA_ACCEPT;
    private static final Map<String, String> PLAIN = Map.of("Vary", VARY);
    private static final Map<String, String> GZIP = Map.of("Vary", VARY, "Content-Encoding", "gzip");

    private final InstanceRegistry registry;
    private final ResponseCache cache;
    private final TrafficGate gate;
    private final boolean deltaDisabled;

    RegistryReads(InstanceRegistry registry, ResponseCache cache, TrafficGate gate, boolean deltaDisabled) {
        this.registry = registry;
        this.cache = cache;
        this.gate = gate;
        this.deltaDisabled = deltaDisabled;
    }

    /**
     * A cached payload: 403 while the gate holds reads back (and for deltas when they are disabled: clients then
     * fetch the full registry, or ask another node), 404 for an unknown app, else 200 with the ready bytes.
     */
    public Reply fetch(CacheKey.Entity entity, String name, Representation form) {
        return fetchAfter(entity, name, null, form, -1);
    }

    /**
     * {@link #fetch}, merged with the remote regions a {@code ?regions=} value names (full and delta only, as in
     * Eureka; names not configured here are ignored, and none left means the local registry alone).
     */
    public Reply fetch(CacheKey.Entity entity, String name, String regions, Representation form) {
        return fetchAfter(entity, name, regions, form, -1);
    }

    /**
     * {@link #fetch}, with content newer than {@code index} when the registry has it (the blocking fetch). Full and
     * delta answers carry the sequence they reflect in {@value #INDEX_HEADER}, to be passed back as
     * {@code waitForChangeAfter}.
     */
    public Reply fetchAfter(CacheKey.Entity entity, String name, String regions, Representation form, long index) {
        if (!gate.allowsReads() || (entity == CacheKey.Entity.DELTA && deltaDisabled)) {
            return Reply.empty(403);
        }
        String key = entity == CacheKey.Entity.APP ? InstanceWrites.appName(name) : name;
        boolean regional = entity == CacheKey.Entity.ALL_APPS || entity == CacheKey.Entity.DELTA;
        String regionKey = regional ? cache.regionsKey(regions) : "";
        CacheKey cacheKey = new CacheKey(entity, key, form.format(), form.detail(), regionKey);
        Payload payload = cache.get(cacheKey);
        if (payload.builtFrom() <= index && registry.sequence() > index) {
            payload = cache.current(cacheKey);
        }
        if (payload.isEmpty()) {
            return Reply.empty(404);
        }
        boolean gzip = form.gzip();
        String builtFrom = Long.toString(payload.builtFrom());
        Map<String, String> headers = !regional ? (gzip ? GZIP : PLAIN)
                : gzip ? Map.of("Vary", VARY, "Content-Encoding", "gzip", INDEX_HEADER, builtFrom)
                : Map.of("Vary", VARY, INDEX_HEADER, builtFrom);
        byte[] body = gzip ? cache.gzipped(cacheKey, payload) : cache.plain(payload);
        if (body == null) {
            return Reply.text(503, "the registry is too large to send uncompressed now (" + payload.length() / 1024
                    + " KB; the heap is near its limit): ask with Accept-Encoding: gzip, or again later")
                    .withHeaders(Map.of("Retry-After", "10"));
        }
        return new Reply(200, cacheKey.format().mediaType(), body, headers);
    }

    /**
     * The full registry as JSON for a peer's start-up sync, whatever the gate says: a node that holds reads because
     * it could not reach its peers still holds its snapshot and what was registered since, and peers restarted
     * together take the newest of what each holds (see the sync). Never for clients: they are not told about it.
     */
    public Reply fullForPeer(String acceptEncoding) {
        CacheKey key = new CacheKey(CacheKey.Entity.ALL_APPS, "", WireFormat.JSON, Detail.FULL, "");
        Payload payload = cache.current(key);
        boolean gzip = acceptEncoding != null && acceptEncoding.contains("gzip");
        byte[] body = gzip ? cache.gzipped(key, payload) : cache.plain(payload);
        if (body == null) {
            return Reply.text(503, "the registry is too large to send uncompressed now: ask with gzip")
                    .withHeaders(Map.of("Retry-After", "10"));
        }
        return new Reply(200, WireFormat.JSON.mediaType(), body, gzip ? GZIP : PLAIN);
    }

    /** The registry's change sequence now: a blocking fetch waits until it passes the client's index. */
    public long sequence() {
        return registry.sequence();
    }

    public Reply instance(String app, String id, String accept) {
        return encoded(registry.views().instance(InstanceWrites.appName(app), id), accept);
    }

    public Reply instanceById(String id, String accept) {
        return encoded(registry.views().instanceById(id), accept);
    }

    private static Reply encoded(Optional<InstanceInfo> instance, String accept) {
        if (instance.isEmpty()) {
            return Reply.empty(404);
        }
        WireFormat format = WireFormat.fromAccept(accept);
        return Reply.ok(format.mediaType(), EurekaCodec.encode(format, instance.get()));
    }
}
