package io.muster.model;

/**
 * Lease settings the client asked for plus the lease timestamps the server reports (epoch millis, 0 when unset).
 * Non-positive intervals fall back to Eureka's defaults, as its own builder does.
 *
 * <p>equals and hashCode are written out because the server calls them on every read: on JDK 17 the generated
 * ones cache a method handle typed with this class in a JDK-wide static, which pins the web application's
 * class loader after an undeploy. (Records whose equals, hashCode or toString the server never calls keep the
 * generated ones; see CacheKey for the other case.)
 */
public record LeaseInfo(int renewalIntervalInSecs, int durationInSecs, long registrationTimestamp,
                        long lastRenewalTimestamp, long evictionTimestamp, long serviceUpTimestamp) {
    public static final int DEFAULT_RENEWAL_INTERVAL_SECS = 30;
    public static final int DEFAULT_DURATION_SECS = 90;
    public static final LeaseInfo DEFAULT = new LeaseInfo(0, 0, 0, 0, 0, 0);
    /** What Eureka and Spring Cloud clients register with: the defaults, no timestamps. */
    private static final LeaseInfo CLIENT_DEFAULT = new LeaseInfo(DEFAULT_RENEWAL_INTERVAL_SECS,
            DEFAULT_DURATION_SECS, 0, 0, 0, 0);

    /** {@link #DEFAULT} or the usual client lease, shared, when it is one of them (a decoder's); else a new one. */
    public static LeaseInfo of(int renewalIntervalInSecs, int durationInSecs, long registrationTimestamp,
                               long lastRenewalTimestamp, long evictionTimestamp, long serviceUpTimestamp) {
        if ((registrationTimestamp | lastRenewalTimestamp | evictionTimestamp | serviceUpTimestamp) == 0) {
            if (renewalIntervalInSecs == 0 && durationInSecs == 0) {
                return DEFAULT;
            }
            if (renewalIntervalInSecs == DEFAULT_RENEWAL_INTERVAL_SECS && durationInSecs == DEFAULT_DURATION_SECS) {
                return CLIENT_DEFAULT;
            }
            return asked(renewalIntervalInSecs, durationInSecs);
        }
        return new LeaseInfo(renewalIntervalInSecs, durationInSecs, registrationTimestamp, lastRenewalTimestamp,
                evictionTimestamp, serviceUpTimestamp);
    }

    /** Other settings clients register with, no timestamps, one object each (a handful; bounded all the same). */
    private static final HeldOnce<Long, LeaseInfo> ASKED = new HeldOnce<>(1_024);

    private static LeaseInfo asked(int renewalIntervalInSecs, int durationInSecs) {
        return ASKED.get((long) renewalIntervalInSecs << 32 | durationInSecs & 0xFFFFFFFFL,
                key -> new LeaseInfo(renewalIntervalInSecs, durationInSecs, 0, 0, 0, 0));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LeaseInfo l && renewalIntervalInSecs == l.renewalIntervalInSecs
                && durationInSecs == l.durationInSecs && registrationTimestamp == l.registrationTimestamp
                && lastRenewalTimestamp == l.lastRenewalTimestamp && evictionTimestamp == l.evictionTimestamp
                && serviceUpTimestamp == l.serviceUpTimestamp;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(registrationTimestamp * 31 + lastRenewalTimestamp) * 31 + durationInSecs;
    }

    public LeaseInfo {
        renewalIntervalInSecs = renewalIntervalInSecs <= 0 ? DEFAULT_RENEWAL_INTERVAL_SECS : renewalIntervalInSecs;
        durationInSecs = durationInSecs <= 0 ? DEFAULT_DURATION_SECS : durationInSecs;
    }
}
