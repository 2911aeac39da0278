package io.muster.config;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Keys that operators carry over from Eureka and Spring Cloud configurations but that change nothing in Muster,
 * each with the reason, and the "did you mean" search for keys nobody knows. Names are written as in Spring's
 * documentation, without the {@code eureka.} or {@code eureka.server.} prefix.
 */
final class KnownKeys {
    private static final String CLIENT_SIDE = "a setting of the embedded client; Muster has none";
    private static final String AWS = "AWS only; Muster does not run AWS integration";
    private static final String POOL = "Muster's replication uses one worker per peer and no connection pool";

    /** Understood, accepted, and without effect here (normalized name -> reason). */
    static final Map<String, String> NO_EFFECT = Map.ofEntries(
            entry("numberRegistrySyncRetries", "Muster retries the start-up sync in the background until a peer"
                    + " answers or waitTimeInMsWhenSyncEmpty ends, so start-up never blocks"),
            entry("registrySyncRetries", "see numberRegistrySyncRetries"),
            entry("client.fetchRegistry", "Muster copies the registry from peers itself"),
            entry("client.registryFetchIntervalSeconds", CLIENT_SIDE),
            entry("client.preferSameZoneEureka", CLIENT_SIDE),
            entry("client.region", CLIENT_SIDE),
            entry("client.enabled", CLIENT_SIDE),
            entry("client.healthcheck.enabled", CLIENT_SIDE),
            entry("client.eurekaServerConnectTimeoutSeconds", CLIENT_SIDE),
            entry("client.eurekaServerReadTimeoutSeconds", CLIENT_SIDE),
            entry("client.instanceInfoReplicationIntervalSeconds", CLIENT_SIDE),
            entry("client.initialInstanceInfoReplicationIntervalSeconds", CLIENT_SIDE),
            entry("client.useDnsForFetchingServiceUrls", "use eureka.server.peerDnsUrl"),
            entry("instance.leaseRenewalIntervalInSeconds", "Muster renews its own registration every 30 s"),
            entry("instance.leaseExpirationDurationInSeconds", "Muster's own lease lasts 90 s"),
            entry("instance.statusPageUrlPath", CLIENT_SIDE),
            entry("instance.healthCheckUrlPath", CLIENT_SIDE),
            entry("instance.nonSecurePort", "the port comes from the container"),
            entry("instance.securePortEnabled", CLIENT_SIDE),
            entry("dashboard.enabled.lastn", CLIENT_SIDE),
            entry("shouldBatchReplication", "unused in Eureka too"),
            entry("numberOfReplicationRetries", "unused in Eureka too"),
            entry("peerEurekaStatusRefreshTimeIntervalMs", "unused in Eureka too"),
            entry("minThreadsForPeerReplication", POOL),
            entry("maxThreadsForPeerReplication", POOL),
            entry("maxIdleThreadAgeInMinutesForPeerReplication", POOL),
            entry("peerNodeTotalConnections", POOL),
            entry("peerNodeTotalConnectionsPerHost", POOL),
            entry("peerNodeConnectionIdleTimeoutSeconds", POOL),
            entry("maxElementsInStatusReplicationPool", AWS),
            entry("maxThreadsForStatusReplication", AWS),
            entry("enableReplicatedRequestCompression", "Muster's batches are small; not implemented"),
            entry("primeAwsReplicaConnections", AWS),
            entry("aWSAccessId", AWS),
            entry("aWSSecretKey", AWS),
            entry("eIPBindRebindRetries", AWS),
            entry("eIPBindingRetryIntervalMs", AWS),
            entry("route53BindRebindRetries", AWS),
            entry("jsonCodecName", "Muster has one JSON codec"),
            entry("xmlCodecName", "Muster has one XML codec"),
            entry("logIdentityHeaders", "Muster does not log identity headers"),
            entry("rateLimiter.enabled", "not implemented; put a rate limit in front of the server"),
            entry("props", "names the properties file itself"));

    private KnownKeys() {
    }

    private static Map.Entry<String, String> entry(String name, String reason) {
        return Map.entry(normalize(name), reason);
    }

    static String normalize(String name) {
        return name.toLowerCase(Locale.ROOT).replace("-", "");
    }

    /**
     * The closest of the known names to an unknown one (by edit distance on the normalized names), or null when
     * none is close enough to be a likely typo.
     *
     * @param known display spellings, e.g. {@code enableSelfPreservation}
     */
    static String closest(String unknown, Collection<String> known) {
        String u = normalize(unknown);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(u, normalize(k));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        // a third of the name may differ: catches dropped letters and swapped words' endings, not unrelated keys
        return best != null && bestDistance <= Math.max(2, u.length() / 3) ? best : null;
    }

    /** Levenshtein distance, two rows. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Namespaces whose keys are maps, not settings: any key under them is known. */
    static final List<String> MAP_PREFIXES = List.of("client.serviceurl.", "serviceurl.",
            "client.availabilityzones.", "instance.metadatamap.", "experimental.");
}
