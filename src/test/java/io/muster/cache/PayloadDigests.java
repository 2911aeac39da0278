package io.muster.cache;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;
import io.muster.config.ServerConfig.ResponseCacheConfig;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Not a test: prints a SHA-256 of every payload shape after each of a fixed sequence of registry changes, on a
 * fixed clock, so that two builds of the server can be compared end to end (same output = same bytes served).
 * Run with {@code main}; used to check the fragment assembly of issue 14 against the encoder it replaced.
 */
public final class PayloadDigests {
    public static void main(String[] args) throws Exception {
        MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
        InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
        ResponseCache cache = new ResponseCache(registry,
                new ResponseCacheConfig(true, Duration.ofMillis(500), Duration.ofSeconds(180), 100), clock);
        registry.addListener(cache);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (int round = 0; round < 12; round++) {
            clock.advance(Duration.ofMillis(700));
            for (int n = 0; n < 400; n++) {
                int at = (round * 131 + n * 7) % 1000;
                if (round % 3 == 2 && n % 5 == 0) {
                    registry.renew(app(at), id(at), null, null, Origin.CLIENT);
                } else if (round > 3 && n % 17 == 0) {
                    registry.cancel(app(at), id(at), Origin.CLIENT);
                } else {
                    registry.register(instance(at, round), Origin.CLIENT);
                }
            }
            for (CacheKey.Entity e : CacheKey.Entity.values()) {
                String name = switch (e) {
                    case APP -> app(3);
                    case VIP, SVIP -> "vip-3";
                    default -> "";
                };
                for (WireFormat f : WireFormat.values()) {
                    for (Detail d : Detail.values()) {
                        Payload p = cache.current(new CacheKey(e, name, f, d));
                        System.out.printf("%d %s %s %s %d %s%n", round, e, f, d, p.bytes().length,
                                HexFormat.of().formatHex(sha.digest(p.bytes())));
                    }
                }
            }
        }
    }

    private static String app(int at) {
        return "APP-" + at % 13;
    }

    private static String id(int at) {
        return "10.1." + at / 250 + "." + at % 250 + ":" + app(at).toLowerCase() + ":8080";
    }

    private static InstanceInfo instance(int at, int round) {
        Map<String, String> metadata = new LinkedHashMap<>();
        if (at % 4 != 0) {
            metadata.put("zone", "z" + at % 3);
            metadata.put("label", new String[]{"plain", "ünï", "日本", "<&>", "emoji 😀"}[(at + round) % 5]);
        }
        Map<String, String> aws = new LinkedHashMap<>();
        aws.put("instance-id", "i-" + at);
        aws.put("availability-zone", "eu-west-1a");
        aws.put("ami-id", "ami-" + round);
        return Instances.sample(app(at), id(at)).metadata(metadata)
                .dataCenterInfo(at % 5 == 0 ? new DataCenterInfo("Amazon", aws) : DataCenterInfo.MY_OWN)
                .vipAddress("vip-" + at % 7 + ",all").secureVipAddress(at % 2 == 0 ? "vip-3" : null)
                .lastDirtyTimestamp(1_000 + round).build();
    }
}
