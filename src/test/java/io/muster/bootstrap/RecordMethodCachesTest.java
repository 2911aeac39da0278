package io.muster.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnJre;
import org.junit.jupiter.api.condition.JRE;

import java.lang.ref.WeakReference;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record's generated equals, run once in a class loader of its own (as in an undeployed WAR): after
 * {@link RecordMethodCaches#release()} nothing of the JDK keeps that loader. The Tomcat finding this stands for:
 * {@code ObjectMethods.OBJECT_EQ.asTypeCache} held {@code StatusOverrides$Key} of a stopped application.
 */
class RecordMethodCachesTest {
    /** Loaded again, by a loader of its own, for each test: the application's record. */
    record Probe(String app, String id) {
    }

    @Test
    void afterTheReleaseTheJdkKeepsNoClassOfTheApplication() throws Exception {
        WeakReference<ClassLoader> loader = callEqualsInALoaderOfItsOwn();
        RecordMethodCaches.release();
        assertThat(collected(loader, 50)).as("the application's loader, after the release").isTrue();
    }

    /** What the release is for (JDK 17; later JDKs cache loader-safely): without it the loader stays. */
    @Test
    @EnabledOnJre(JRE.JAVA_17)
    void withoutTheReleaseTheLastRecordsLoaderStays() throws Exception {
        WeakReference<ClassLoader> loader = callEqualsInALoaderOfItsOwn();
        assertThat(collected(loader, 5)).as("the application's loader, without the release").isFalse();
        RecordMethodCaches.release();
        assertThat(collected(loader, 50)).as("the application's loader, after the release").isTrue();
    }

    @Test
    void theReleaseNeverThrowsAndCanBeRepeated() {
        RecordMethodCaches.release();
        RecordMethodCaches.release();
    }

    private static WeakReference<ClassLoader> callEqualsInALoaderOfItsOwn() throws Exception {
        URL classes = Probe.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader app = new URLClassLoader(new URL[]{classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> probe = app.loadClass(Probe.class.getName());
            assertThat(probe).isNotSameAs(Probe.class);
            Constructor<?> make = probe.getDeclaredConstructor(String.class, String.class);
            make.setAccessible(true);
            Object a = make.newInstance("APP", "i-1");
            Object b = make.newInstance("APP", "i-1");
            assertThat(a.equals(b)).isTrue();   // the first call bootstraps the generated equals
            assertThat(a.hashCode()).isEqualTo(b.hashCode());
            assertThat(a.toString()).contains("i-1");
            return new WeakReference<>(app);
        }
    }

    private static boolean collected(WeakReference<?> ref, int rounds) throws InterruptedException {
        for (int i = 0; i < rounds && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ref.get() == null;
    }
}
