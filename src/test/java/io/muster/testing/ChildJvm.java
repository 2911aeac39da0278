package io.muster.testing;

import java.util.List;

/**
 * JVM options for the servers the ITs start as child processes (embedded Payara, Tomcat, Payara Server). Each lives
 * for seconds to minutes and mostly runs one-off start-up code beside the test and other servers on two cores, so
 * what it spends on compiling, verifying and collecting is CPU the suite waits for. They change how fast a child
 * gets there, not what it does: the benchmarks and the soak start their servers without them.
 */
public final class ChildJvm {
    /**
     * C1 only, and no verification of classes outside the JDK (the WAR's, the container's: built by javac and Maven
     * Central, verified in every other JVM the build runs). Measured on the 2-core machine for an embedded Payara
     * child to serving, with the class-data archive: 11.7 s of CPU with C1 alone, about 8 s with these and
     * {@link #SMALL_HEAP_GC}. Not one compiler thread: it saved a little more at start, but left the servers slow
     * to compile what they then serve, and the checks' time bounds (a write on every node within 2 s) are the
     * product's, not the test's, to spend.
     */
    public static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:-BytecodeVerificationRemote");

    /** For a heap of a few hundred MB, the serial collector costs least: no concurrent or parallel GC threads. */
    public static final String SMALL_HEAP_GC = "-XX:+UseSerialGC";

    /** What a server started for a functional check gets: {@link #QUICK_START} and {@link #SMALL_HEAP_GC}. */
    public static final List<String> FUNCTIONAL_CHECK =
            java.util.stream.Stream.concat(QUICK_START.stream(), java.util.stream.Stream.of(SMALL_HEAP_GC)).toList();

    private ChildJvm() {
    }

    /** {@link #FUNCTIONAL_CHECK}, space-separated, as CATALINA_OPTS takes them. */
    public static String quickStartOptions() {
        return String.join(" ", FUNCTIONAL_CHECK);
    }

    /** {@link #quickStartOptions()} with this maximum heap, for a server started by a script (JAVA_OPTS and the like). */
    public static String quickStartOptions(int heapMegabytes) {
        return "-Xmx" + heapMegabytes + "m " + quickStartOptions();
    }
}
