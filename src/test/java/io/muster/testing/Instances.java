package io.muster.testing;

import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.util.Map;

/** Test data: instances as a Spring Cloud client would register them. */
public final class Instances {
    private Instances() {
    }

    public static InstanceInfo.Builder sample(String app, String id) {
        return InstanceInfo.builder().instanceId(id).hostName("host-" + id).app(app).ipAddr("10.0.0.1")
                .status(InstanceStatus.UP).port(new PortInfo(8080, true)).securePort(new PortInfo(443, false))
                .dataCenterInfo(DataCenterInfo.MY_OWN).leaseInfo(new LeaseInfo(30, 90, 0, 0, 0, 0))
                .vipAddress(app.toLowerCase()).secureVipAddress(app.toLowerCase())
                .metadata(Map.of("zone", "z1")).lastDirtyTimestamp(1_000).lastUpdatedTimestamp(1_000);
    }

    public static InstanceInfo up(String app, String id) {
        return sample(app, id).build();
    }
}
