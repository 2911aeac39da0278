package io.muster.replication;

import java.time.Instant;

/**
 * A peer that refuses our replication batches for their credentials (401 or 403), told apart the way an operator
 * must fix it: we sent none, the peer rejected the password we sent, or the user lacks the role. Retrying cannot
 * help, so the batches are dropped until the setting is fixed; the dashboard and the log say which.
 *
 * @param user  the user name this node sends to the peer, or null when the peer's URL carries no credentials
 * @param since when the peer first refused in this way
 */
public record PeerRefusal(int status, String user, Instant since) {
    private static final String SETTING = "this peer's URL in eureka.client.serviceUrl.defaultZone"
            + " (or eureka.server.peerDnsUrl)";

    /** Whether an HTTP status refuses the caller rather than the content. */
    static boolean refusesCredentials(int status) {
        return status == 401 || status == 403;
    }

    /** The three things an operator may have to fix. */
    public enum Kind { CREDENTIALS_MISSING, PASSWORD_REJECTED, ROLE_MISSING }

    public Kind kind() {
        if (user == null) {
            return Kind.CREDENTIALS_MISSING;
        }
        return status == 401 ? Kind.PASSWORD_REJECTED : Kind.ROLE_MISSING;
    }

    /** What is wrong, in a sentence that follows the peer's URL. */
    public String problem() {
        return switch (kind()) {
            case CREDENTIALS_MISSING -> "refuses our replication (HTTP " + status + "): we sent no credentials";
            case PASSWORD_REJECTED -> "refuses our replication (HTTP 401): it rejected the password we sent for"
                    + " user '" + user + "' (wrong password, or no such user in its realm)";
            case ROLE_MISSING -> "refuses our replication (HTTP 403): user '" + user + "' signed in but lacks the"
                    + " eureka-peer role there";
        };
    }

    /** What to change, and where. */
    public String fix() {
        return switch (kind()) {
            case CREDENTIALS_MISSING -> "put a user that has the eureka-peer role on that node into " + SETTING
                    + ": http://user:password@host:port/eureka/";
            case PASSWORD_REJECTED -> "make the password for '" + user + "' in " + SETTING + " the one that user"
                    + " has in the peer's realm (tomcat-users.xml, or Payara's file realm)";
            case ROLE_MISSING -> "give '" + user + "' the eureka-peer role in the peer's realm, or put a user that"
                    + " has it into " + SETTING;
        };
    }
}
