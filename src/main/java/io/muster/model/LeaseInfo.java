package io.muster.model;

/**
 * Lease settings the client asked for plus the lease timestamps the server reports (epoch millis, 0 when unset).
 * Non-positive intervals fall back to Eureka's defaults, as its own builder does.
 */
public record LeaseInfo(int renewalIntervalInSecs, int durationInSecs, long registrationTimestamp,
                        long lastRenewalTimestamp, long evictionTimestamp, long serviceUpTimestamp) {
    public static final int DEFAULT_RENEWAL_INTERVAL_SECS = 30;
    public static final int DEFAULT_DURATION_SECS = 90;
    public static final LeaseInfo DEFAULT = new LeaseInfo(0, 0, 0, 0, 0, 0);

    public LeaseInfo {
        renewalIntervalInSecs = renewalIntervalInSecs <= 0 ? DEFAULT_RENEWAL_INTERVAL_SECS : renewalIntervalInSecs;
        durationInSecs = durationInSecs <= 0 ? DEFAULT_DURATION_SECS : durationInSecs;
    }
}
