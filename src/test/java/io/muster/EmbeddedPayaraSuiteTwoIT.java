package io.muster;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;

/** The other half of the embedded-Payara ITs (see {@link EmbeddedPayaraSuiteOneIT}). */
@Suite
@SelectClasses(names = {
        "io.muster.bootstrap.LifecycleIT",
        "io.muster.api.AbuseInputIT",
        "io.muster.web.ChangeStreamIT",
        "io.muster.api.MetricsIT",
        "io.muster.api.InputContractIT",
        "io.muster.api.TwoRoadsParityIT",
        "io.muster.web.SlowBodiesIT",
})
class EmbeddedPayaraSuiteTwoIT {
}
