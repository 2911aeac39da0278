package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The full registry or its delta grouped by app, with instances as stored rather than decorated with their lease:
 * an incremental payload build compares each group's {@link Group#sources} by identity with what it encoded last
 * time and decorates and re-encodes only the groups that changed.
 *
 * @param version      {@code versions__delta}: 1 for the full registry, the delta's own counter for the delta
 * @param appsHashCode the hash of the whole registry at the moment the groups were taken
 * @param groups       one per app with instances, sorted by app name
 * @param sequence     the registry change sequence the groups reflect
 */
public record AppGroups(long version, String appsHashCode, List<Group> groups, long sequence) {

    public AppGroups {
        groups = List.copyOf(groups);
    }

    /** The same content as Eureka's model, every instance decorated with its lease as of now. */
    public Applications decorated() {
        List<Application> apps = new ArrayList<>(groups.size());
        for (Group g : groups) {
            apps.add(g.decorated());
        }
        return new Applications(version, appsHashCode, apps);
    }

    /**
     * One app. {@code sources[i]} is an instance as the registry holds it (a write replaces the object, a renewal
     * does not), or as the delta reports it (a departed one). {@code live} is the app's lease map, read when the
     * group is decorated so that lease timestamps are those of that moment. The array is owned by this group and
     * never changes after construction.
     */
    public record Group(String app, InstanceInfo[] sources, Map<String, Lease> live) {

        public Application decorated() {
            List<InstanceInfo> instances = new ArrayList<>(sources.length);
            for (InstanceInfo source : sources) {
                Lease lease = lease(source);
                instances.add(lease == null ? source : lease.decorate(source));
            }
            return new Application(app, instances);
        }

        /** What {@link #decorated()} writes as {@code sources[k]}'s lease, without the decorated copy. */
        public LeaseInfo leaseInfo(int k) {
            Lease lease = lease(sources[k]);
            return lease == null ? sources[k].leaseInfo() : lease.leaseInfo(sources[k].leaseInfo());
        }

        private Lease lease(InstanceInfo source) {
            return source.actionType() == ActionType.DELETED ? null : live.get(source.id());
        }
    }
}
