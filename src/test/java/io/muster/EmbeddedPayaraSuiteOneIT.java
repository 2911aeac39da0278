package io.muster;

import org.junit.platform.suite.api.SelectClasses;
import org.junit.platform.suite.api.Suite;

/**
 * Half of the ITs that deploy the WAR into embedded Payara, run in one JVM (Payara boots once per JVM) beside
 * {@link EmbeddedPayaraSuiteTwoIT} in another: the longest one with the short ones, about as long as the other half.
 */
@Suite
@SelectClasses(names = {
        "io.muster.web.ResourceBoundsIT",
        "io.muster.bootstrap.RestartWithoutGapIT",
        "io.muster.api.SecurityIT",
        "io.muster.api.RegistryApiIT",
        "io.muster.api.AuditIT",
        "io.muster.api.VersionIT",
})
class EmbeddedPayaraSuiteOneIT {
}
