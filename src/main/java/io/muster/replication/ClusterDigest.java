package io.muster.replication;

import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cheap comparison between two nodes: per application, a hash of its instances' sorted (id, status,
 * lastDirtyTimestamp). Two nodes that agree on every hash hold the same instances in the same states (lease times
 * and metadata-only changes are left out: they do not change what clients route to). Only apps whose hashes differ
 * are fetched in full.
 */
public final class ClusterDigest {
    private ClusterDigest() {
    }

    /** App name to hash, apps without instances left out (a node may keep an empty app that the other dropped). */
    public static Map<String, String> of(Applications apps) {
        Map<String, String> out = new TreeMap<>();
        for (Application app : apps.applications()) {
            if (!app.instances().isEmpty()) {
                out.put(app.name(), hash(app.instances()));
            }
        }
        return out;
    }

    /** {@link #of(Applications)} of the registry's groups, the instances as held (a digest reads no lease). */
    public static Map<String, String> of(io.muster.registry.AppGroups groups) {
        Map<String, String> out = new TreeMap<>();
        for (io.muster.registry.AppGroups.Group g : groups.groups()) {
            if (g.sources().length > 0) {
                out.put(g.app(), hash(java.util.Arrays.asList(g.sources())));
            }
        }
        return out;
    }

    static String hash(List<InstanceInfo> instances) {
        List<InstanceInfo> sorted = new ArrayList<>(instances);
        sorted.sort(Comparator.comparing(InstanceInfo::id));
        StringBuilder b = new StringBuilder(sorted.size() * 48);
        for (InstanceInfo i : sorted) {
            b.append(i.id()).append('\u0000').append(i.status().name()).append('\u0000')
                    .append(i.lastDirtyTimestamp()).append('\n');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
