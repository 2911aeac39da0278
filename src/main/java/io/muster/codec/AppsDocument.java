package io.muster.codec;

import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.model.LeaseInfo;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * An {@code applications} document given one application at a time, what {@link RegistrySegments} and
 * {@link DocumentWriter} write from. The caller, not the codec, knows where the applications come from: each one
 * names the instance objects it is made of, which {@link RegistrySegments} compares by identity with what it
 * encoded last, and builds the application to write only when asked, so that an unchanged one is never built and a
 * changed one is built as of the moment it is encoded.
 *
 * @param version      {@code versions__delta}
 * @param appsHashCode {@code apps__hashcode}
 * @param apps         in the order written
 */
public record AppsDocument(long version, String appsHashCode, List<App> apps) {

    public AppsDocument {
        apps = List.copyOf(apps);
    }

    /** Instances in all applications together. */
    long instances() {
        long n = 0;
        for (App app : apps) {
            n += app.sources().length;
        }
        return n;
    }

    /**
     * @param name    the application's name, what an encoding is kept under
     * @param sources the instance objects the application is built from; never changed after construction
     * @param content builds the application as written
     * @param leases    the lease of {@code sources[k]} as written now: a changed run of a large application writes
     *                  the leases of its changed instances only, and decorating copies of all was most of its cost
     */
    public record App(String name, InstanceInfo[] sources, Supplier<Application> content,
                      IntFunction<LeaseInfo> leases) {

        /** Whether {@code other} holds the very same objects as {@code sources[from, to)}, in the same order. */
        boolean sameSources(int from, int to, InstanceInfo[] other) {
            if (other == null || other.length != to - from) {
                return false;
            }
            for (int i = from; i < to; i++) {
                if (other[i - from] != sources[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
