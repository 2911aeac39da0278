package io.muster.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.runtime.ObjectMethods;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Lets go of the last record class the JDK's record methods were made for, at undeploy.
 *
 * <p>A record's generated {@code equals}, {@code hashCode} and {@code toString} are made, the first time each is
 * called, by {@link ObjectMethods#bootstrap}, from method handles that are JDK-wide statics ({@code OBJECT_EQ},
 * {@code OBJECTS_EQUALS}, {@code OBJECTS_HASHCODE}, {@code OBJECTS_TOSTRING}). On JDK 17 each of these keeps the
 * last {@code asType} result in a strong field, typed with the record class (equals) or its component types. So
 * the last record of this application whose equals was first called (say {@code StatusOverrides.Key}, on the
 * first heartbeat of an instance with a status override) keeps the class, its loader and the whole application
 * reachable after an undeploy, until some later record somewhere in the JVM replaces it: Tomcat's findleaks
 * reported the undeployed WAR now and then, depending on which requests the deployment had served. A heap dump
 * showed the path: {@code ObjectMethods.OBJECT_EQ.asTypeCache.type.ptypes[0]} = {@code StatusOverrides$Key}, whose
 * loader was the stopped one. (JDK 20 and later keep only classes of the handle's own loaders there.)
 *
 * <p>Writing equals and hashCode out in every record is not enough: any of them whose generated method runs pins
 * the application. Instead, {@link #release()} asks the same bootstrap for methods of a JDK class ({@link String}),
 * which replaces each cached entry with one that holds only JDK classes. Harmless on any JDK: at worst it makes
 * three method handles.
 */
final class RecordMethodCaches {
    private static final Logger LOG = Logger.getLogger(RecordMethodCaches.class.getName());

    private RecordMethodCaches() {
    }

    /** Call last at undeploy, when no code of the application runs any more. Never throws. */
    static void release() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            // a "record" String with one component, itself: every shared handle is adapted to String types
            MethodHandle component = MethodHandles.identity(String.class);
            for (String method : new String[]{"equals", "hashCode", "toString"}) {
                ObjectMethods.bootstrap(lookup, method, MethodHandle.class, String.class, "value", component);
            }
        } catch (Throwable e) {   // an undeploy must not fail for it; the loader may then stay until a redeploy
            LOG.log(Level.FINE, "Muster: could not release the JDK's record method caches", e);
        }
    }
}
