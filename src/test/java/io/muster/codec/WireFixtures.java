package io.muster.codec;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.DataCenterInfo;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.model.PortInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry the golden wire files describe. */
final class WireFixtures {
    private WireFixtures() {
    }

    static InstanceInfo orders1() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("management.port", "8080");
        metadata.put("zone_name", "eu$1");
        return InstanceInfo.builder().instanceId("host-a:orders:8080").hostName("host-a").app("ORDERS")
                .ipAddr("10.0.0.5").status(InstanceStatus.UP).overriddenStatus(InstanceStatus.UNKNOWN)
                .port(new PortInfo(8080, true)).securePort(new PortInfo(443, false)).countryId(1)
                .dataCenterInfo(DataCenterInfo.MY_OWN)
                .leaseInfo(new LeaseInfo(30, 90, 1700000000100L, 1700000090100L, 0, 1700000000100L))
                .metadata(metadata).homePageUrl("http://host-a:8080/")
                .statusPageUrl("http://host-a:8080/actuator/info")
                .healthCheckUrl("http://host-a:8080/actuator/health").vipAddress("orders").secureVipAddress("orders")
                .lastUpdatedTimestamp(1700000000100L).lastDirtyTimestamp(1700000000000L)
                .actionType(ActionType.ADDED).build();
    }

    static InstanceInfo orders2Down() {
        return orders1().toBuilder().instanceId("host-b:orders:8080").hostName("host-b").ipAddr("10.0.0.6")
                .status(InstanceStatus.DOWN).metadata(Map.of()).build();
    }

    static InstanceInfo billingOnAws() {
        Map<String, String> aws = new LinkedHashMap<>();
        aws.put("instance-id", "i-0abc");
        aws.put("availability-zone", "eu-west-1a");
        aws.put("ami-id", "ami-1");
        return orders1().toBuilder().instanceId(null).hostName("ip-10-0-0-7").app("BILLING").ipAddr("10.0.0.7")
                .dataCenterInfo(new DataCenterInfo("Amazon", aws)).port(new PortInfo(9000, true))
                .securePort(new PortInfo(9443, true)).metadata(Map.of()).vipAddress("billing")
                .secureVipAddress("billing").sid("s-1").asgName("billing-asg").build();
    }

    static Applications registry() {
        return new Applications(1, "DOWN_1_UP_2_", List.of(
                new Application("BILLING", List.of(billingOnAws())),
                new Application("ORDERS", List.of(orders1(), orders2Down()))));
    }
}
