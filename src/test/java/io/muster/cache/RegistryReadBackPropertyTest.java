package io.muster.cache;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.netflix.discovery.converters.wrappers.CodecWrapper;
import com.netflix.discovery.converters.wrappers.CodecWrappers;
import io.muster.codec.Detail;
import io.muster.codec.EurekaCodec;
import io.muster.codec.ReplicationBatchCodec;
import io.muster.codec.WireFormat;
import io.muster.codec.WireFormatException;
import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.Origin;
import io.muster.registry.RegistryFullException;
import io.muster.api.InstanceWrites;
import io.muster.api.PeerBatches;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.parsers.SAXParserFactory;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The registry holds only what every client can read back. Each try runs a few writes built from a seed (mutated
 * registrations in JSON and XML, metadata updates, peer batches: missing and wrong-typed fields, unknown enum
 * values, odd, long and unicode strings, XML-special metadata keys and values) against a real registry and response
 * cache. A refused write must leave the registry unchanged; after an accepted one, the full registry, the delta and
 * each app, in JSON and XML, full and compact, must decode with the real Netflix eureka-client 2.0.6 codecs to
 * what the registry itself holds. 2,000 tries per run from a seed printed on failure (rerun one with
 * {@code -Dmuster.seed=...}); the writes it made are in the assertion message.
 */
class RegistryReadBackPropertyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Small caps so that RegistryFullException paths are exercised too. */
    private static final LimitsConfig LIMITS = new LimitsConfig(256, 1024, 64, 4096, 1, 3600, 5, 3);
    private static final List<String> APPS = List.of("ORDERS", "BILLING", "PB");
    private static final List<String> IDS = List.of("i-1", "i-2", "i-3", "host-4");
    private static final CodecWrapper NETFLIX_JSON = CodecWrappers.getCodec(CodecWrappers.JacksonJson.class);
    private static final CodecWrapper LEGACY_JSON = CodecWrappers.getCodec(CodecWrappers.LegacyJacksonJson.class);
    private static final CodecWrapper MINI_JSON = CodecWrappers.getCodec(CodecWrappers.JacksonJsonMini.class);
    private static final CodecWrapper XSTREAM_XML = CodecWrappers.getCodec(CodecWrappers.XStreamXml.class);

    private InstanceRegistry registry;
    private ResponseCache cache;
    private PeerBatches inbound;
    private List<String> log;

    private static final int TRIES = 2000;

    @Test
    void everyAcceptedWriteLeavesARegistryEveryClientReadsBack() throws Exception {
        String given = System.getProperty("muster.seed");
        long first = given != null ? Long.parseLong(given) : new Random().nextLong();
        int tries = given != null ? 1 : TRIES;
        for (int t = 0; t < tries; t++) {
            long seed = first + t;
            try {
                tryOnce(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("failed with -Dmuster.seed=" + seed + ": " + e.getMessage(), e);
            }
        }
    }

    private void tryOnce(long seed) throws Exception {
        Random random = new Random(seed);
        registry = new InstanceRegistry(Clock.systemUTC(), Duration.ofMinutes(3), LIMITS);
        cache = new ResponseCache(registry, new ResponseCacheConfig(false, Duration.ofMillis(500),
                Duration.ofSeconds(180), 16), Clock.systemUTC());
        registry.addListener(cache);
        inbound = new PeerBatches(new InstanceWrites(registry, Clock.systemUTC()), Clock.systemUTC());
        log = new ArrayList<>();
        int writes = 1 + random.nextInt(4);
        for (int w = 0; w < writes; w++) {
            long before = registry.sequence();
            Applications stateBefore = withoutRenewals(registry.views().snapshot().applications());
            int kind = random.nextInt(10);
            boolean accepted = kind < 6 ? register(random) : kind < 8 ? updateMetadata(random) : batch(random);
            if (accepted) {
                everyClientReadsBack();
            } else {
                assertThat(registry.sequence()).as("refused write changed the registry: %s", log).isEqualTo(before);
                // as in Eureka, a peer's heartbeat answered 404 (its copy is newer: it must register again) still
                // renews the lease; that is not a change clients see
                assertThat(withoutRenewals(registry.views().snapshot().applications())).as("%s", log)
                        .isEqualTo(stateBefore);
            }
        }
    }

    private static Applications withoutRenewals(Applications apps) {
        return new Applications(apps.version(), apps.appsHashCode(), apps.applications().stream()
                .map(a -> new io.muster.model.Application(a.name(), a.instances().stream()
                        .map(i -> i.withLeaseInfo(new io.muster.model.LeaseInfo(i.leaseInfo().renewalIntervalInSecs(),
                                i.leaseInfo().durationInSecs(), i.leaseInfo().registrationTimestamp(), 0,
                                i.leaseInfo().evictionTimestamp(), i.leaseInfo().serviceUpTimestamp())))
                        .toList()))
                .toList());
    }

    // ------------------------------------------------------------------------------------------------ writes

    private boolean register(Random random) throws Exception {
        Map<String, Object> instance = Mutations.mutated(random, Mutations.template(random, APPS, IDS));
        boolean xml = random.nextInt(10) < 3;
        byte[] body = xml ? Mutations.xml(Map.of("instance", instance)).getBytes(StandardCharsets.UTF_8)
                : JSON.writeValueAsBytes(Map.of("instance", instance));
        log.add("register " + (xml ? "XML " : "JSON ") + Mutations.printable(new String(body, StandardCharsets.UTF_8)));
        InstanceInfo info;
        try {
            info = EurekaCodec.decodeInstance(xml ? WireFormat.XML : WireFormat.JSON, body, System.currentTimeMillis());
        } catch (WireFormatException e) {
            log.add(" -> undecodable: " + e.getMessage());
            return false;
        }
        return refusedOrApplied(() -> registry.register(info, Origin.CLIENT));
    }

    private boolean updateMetadata(Random random) {
        List<InstanceInfo> present = registry.views().snapshot().applications().applications().stream()
                .flatMap(a -> a.instances().stream()).toList();
        boolean known = !present.isEmpty() && random.nextInt(5) > 0;
        InstanceInfo target = known ? Mutations.pick(random, present) : null;
        String app = known ? target.app() : Mutations.pick(random, APPS);
        String id = known ? target.id() : Mutations.pick(random, IDS);
        Map<String, String> metadata = new LinkedHashMap<>();
        for (int k = random.nextInt(3); k >= 0; k--) {
            String key = random.nextBoolean() ? Mutations.pick(random, Mutations.GOOD_KEYS)
                    : Mutations.pick(random, Mutations.KEYS);
            metadata.put(key, random.nextBoolean() ? "v" + k : Mutations.oddString(random));
        }
        log.add("metadata " + app + "/" + id + " " + Mutations.printable(metadata.toString()));
        boolean[] found = new boolean[1];
        boolean ok = refusedOrApplied(() -> found[0] = registry.updateMetadata(app, id, metadata).isPresent());
        return ok && found[0];
    }

    private boolean batch(Random random) throws Exception {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int k = random.nextInt(3); k >= 0; k--) {
            items.add(Mutations.batchItem(random, APPS, IDS));
        }
        byte[] body = JSON.writeValueAsBytes(Map.of("replicationList", items));
        log.add("batch " + Mutations.printable(new String(body, StandardCharsets.UTF_8)));
        List<ReplicationItem> decoded;
        try {
            decoded = ReplicationBatchCodec.decodeRequest(body, System.currentTimeMillis());
        } catch (WireFormatException e) {
            log.add(" -> undecodable: " + e.getMessage());
            return false;
        }
        List<ReplicationResult> results = inbound.apply(decoded);
        log.add(" -> " + results.stream().map(ReplicationResult::statusCode).toList());
        assertThat(results).as("%s", log).extracting(ReplicationResult::statusCode)
                .allMatch(code -> List.of(200, 400, 404, 409, 503).contains(code));
        // a heartbeat renews a lease without a new sequence number, also when it answers 409 (the peer's copy is
        // older), so "accepted" is any item applied; 400, 404 and 503 items change nothing
        return results.stream().anyMatch(r -> r.statusCode() == 200 || r.statusCode() == 409);
    }

    private boolean refusedOrApplied(Runnable write) {
        try {
            write.run();
            log.add(" -> accepted");
            return true;
        } catch (InvalidInstanceException | RegistryFullException e) {
            assertThat(e.getMessage()).as("one-line reason").isNotBlank().doesNotContain("\n", "\r");
            log.add(" -> refused: " + e.getMessage());
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------------ checks

    private void everyClientReadsBack() throws Exception {
        Applications server = registry.views().snapshot().applications();
        for (WireFormat format : WireFormat.values()) {
            for (Detail detail : Detail.values()) {
                String full = payload(new CacheKey(CacheKey.Entity.ALL_APPS, "", format, detail));
                for (CodecWrapper codec : codecs(format, detail)) {
                    var apps = decode(codec, full, com.netflix.discovery.shared.Applications.class, format, detail);
                    sameRegistry(server, apps, detail, codec.codecName());
                    var delta = decode(codec, payload(new CacheKey(CacheKey.Entity.DELTA, "", format, detail)),
                            com.netflix.discovery.shared.Applications.class, format, detail);
                    deltaMatchesRegistry(delta, codec.codecName());
                    for (Application app : server.applications()) {
                        var one = decode(codec, payload(new CacheKey(CacheKey.Entity.APP, app.name(), format, detail)),
                                com.netflix.discovery.shared.Application.class, format, detail);
                        sameApplication(app, one, detail, codec.codecName());
                    }
                }
            }
        }
    }

    private static List<CodecWrapper> codecs(WireFormat format, Detail detail) {
        if (format == WireFormat.XML) {
            return List.of(XSTREAM_XML);
        }
        return detail == Detail.FULL ? List.of(NETFLIX_JSON, LEGACY_JSON) : List.of(MINI_JSON);
    }

    private String payload(CacheKey key) {
        return new String(cache.get(key).bytes(), StandardCharsets.UTF_8);
    }

    private <T> T decode(CodecWrapper codec, String payload, Class<T> type, WireFormat format, Detail detail) {
        if (format == WireFormat.XML) {
            wellFormed(payload);
        }
        try {
            T decoded = codec.decode(payload, type);
            assertThat(decoded).as("%s decoded %s %s", codec.codecName(), format, detail).isNotNull();
            return decoded;
        } catch (Exception | AssertionError e) {
            return fail(codec.codecName() + " cannot decode the " + format + " " + detail + " payload " + payload
                    + "\nafter " + log, e);
        }
    }

    /** Stricter than XStream's parser: namespace-aware, as any XML client may be. */
    private void wellFormed(String xml) {
        try {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(true);
            f.newSAXParser().parse(new InputSource(new StringReader(xml)), new DefaultHandler() {
                @Override
                public void fatalError(SAXParseException e) throws SAXParseException {
                    throw e;   // no default printing to stderr
                }
            });
        } catch (Exception e) {
            fail("XML payload is not well-formed: " + xml + "\nafter " + log, e);
        }
    }

    private void sameRegistry(Applications server, com.netflix.discovery.shared.Applications decoded, Detail detail,
                              String codec) {
        assertThat(decoded.getAppsHashCode()).as("%s hash after %s", codec, log).isEqualTo(server.appsHashCode());
        Map<String, Application> ours = new TreeMap<>();
        server.applications().forEach(a -> ours.put(a.name(), a));
        Map<String, com.netflix.discovery.shared.Application> theirs = new TreeMap<>();
        decoded.getRegisteredApplications().forEach(a -> theirs.put(a.getName(), a));
        assertThat(theirs.keySet()).as("%s apps after %s", codec, log).isEqualTo(ours.keySet());
        ours.forEach((name, app) -> sameApplication(app, theirs.get(name), detail, codec));
    }

    private void sameApplication(Application ours, com.netflix.discovery.shared.Application theirs, Detail detail,
                                 String codec) {
        assertThat(theirs.getName()).as("%s app name after %s", codec, log).isEqualTo(ours.name());
        Map<String, com.netflix.appinfo.InstanceInfo> byId = new HashMap<>();
        theirs.getInstancesAsIsFromEureka().forEach(i -> byId.put(i.getId(), i));
        assertThat(byId.keySet()).as("%s ids of %s after %s", codec, ours.name(), log)
                .containsExactlyInAnyOrderElementsOf(ours.instances().stream().map(InstanceInfo::id).toList());
        for (InstanceInfo i : ours.instances()) {
            sameInstance(i, byId.get(i.id()), detail, codec);
        }
    }

    private void sameInstance(InstanceInfo ours, com.netflix.appinfo.InstanceInfo theirs, Detail detail,
                              String codec) {
        String what = codec + " " + detail + " " + ours.app() + "/" + ours.id() + " after " + log;
        assertThat(theirs.getAppName()).as(what).isEqualTo(ours.app());
        assertThat(theirs.getStatus().name()).as(what).isEqualTo(ours.status().name());
        assertThat(theirs.getHostName()).as(what).isEqualTo(ours.hostName());
        assertThat(theirs.getIPAddr()).as(what).isEqualTo(ours.ipAddr());
        assertThat(theirs.getPort()).as(what).isEqualTo(ours.port().port());
        assertThat(theirs.getSecurePort()).as(what).isEqualTo(ours.securePort().port());
        assertThat(theirs.getDataCenterInfo().getName().name()).as(what).isEqualTo(ours.dataCenterInfo().name());
        assertThat(theirs.getVIPAddress()).as(what).isEqualTo(ours.vipAddress());
        if (detail == Detail.FULL) {
            assertThat(theirs.getMetadata()).as(what).isEqualTo(ours.metadata());
            assertThat(theirs.getOverriddenStatus().name()).as(what).isEqualTo(ours.overriddenStatus().name());
            assertThat(theirs.getLeaseInfo().getDurationInSecs()).as(what)
                    .isEqualTo(ours.leaseInfo().durationInSecs());
            assertThat(theirs.getHealthCheckUrl()).as(what).isEqualTo(ours.healthCheckUrl());
        }
    }

    /** Every instance in the delta is the registry's current one, or a deletion of one no longer there. */
    private void deltaMatchesRegistry(com.netflix.discovery.shared.Applications delta, String codec) {
        for (var app : delta.getRegisteredApplications()) {
            for (var i : app.getInstancesAsIsFromEureka()) {
                var current = registry.views().instance(app.getName(), i.getId());
                if (i.getActionType() == com.netflix.appinfo.InstanceInfo.ActionType.DELETED) {
                    continue;
                }
                assertThat(current).as("%s delta lists %s/%s after %s", codec, app.getName(), i.getId(), log)
                        .isPresent();
                assertThat(i.getStatus().name()).as("%s delta status after %s", codec, log)
                        .isEqualTo(current.get().status().name());
                assertThat(i.getHostName()).as("%s delta hostName after %s", codec, log)
                        .isEqualTo(current.get().hostName());
            }
        }
    }
}
