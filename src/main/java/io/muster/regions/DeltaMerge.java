package io.muster.regions;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A copy of a registry with a delta applied, as a Eureka client applies one: DELETED removes, the rest replace. */
final class DeltaMerge {
    private DeltaMerge() {
    }

    /** The copy after the delta, with the hash of what it now holds (to be compared with the delta's). */
    static Applications apply(Applications copy, Applications delta) {
        Map<String, Map<String, InstanceInfo>> apps = new TreeMap<>();
        for (Application app : copy.applications()) {
            Map<String, InstanceInfo> byId = apps.computeIfAbsent(app.name(), n -> new LinkedHashMap<>());
            app.instances().forEach(i -> byId.put(i.id(), i));
        }
        for (Application app : delta.applications()) {
            for (InstanceInfo i : app.instances()) {
                if (i.actionType() == ActionType.DELETED) {
                    Map<String, InstanceInfo> byId = apps.get(app.name());
                    if (byId != null) {
                        byId.remove(i.id());
                    }
                } else {
                    apps.computeIfAbsent(app.name(), n -> new LinkedHashMap<>()).put(i.id(), i);
                }
            }
        }
        List<Application> result = new ArrayList<>();
        apps.forEach((name, byId) -> {
            if (!byId.isEmpty()) {
                result.add(new Application(name, new ArrayList<>(byId.values())));
            }
        });
        Applications merged = new Applications(copy.version(), "", result);
        return new Applications(copy.version(), AppsHashCode.of(merged), result);
    }
}
