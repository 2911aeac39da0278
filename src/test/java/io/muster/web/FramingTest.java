package io.muster.web;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 22 item 9: the framing rule, header lines as the container hands them over (lower-cased by Framing). */
class FramingTest {
    private static String problem(List<String> te, List<String> cl) {
        return Framing.problem(te, cl);
    }

    @Test
    void oneUnambiguousFramingIsAccepted() {
        assertThat(problem(List.of(), List.of())).isNull();
        assertThat(problem(List.of("chunked"), List.of())).isNull();
        assertThat(problem(List.of(" chunked "), List.of())).as("optional white space").isNull();
        assertThat(problem(List.of(), List.of("0"))).isNull();
        assertThat(problem(List.of(), List.of("1048576"))).isNull();
    }

    @Test
    void everyOtherShapeIsRefusedWithOneLine() {
        assertThat(problem(List.of("chunked"), List.of("5"))).contains("both Transfer-Encoding and Content-Length");
        for (List<String> te : List.of(List.of("chunked", "chunked"), List.of("gzip, chunked"),
                List.of("chunked, chunked"), List.of("identity"), List.of("gzip"), List.of(""), List.of("chunked;x=1"),
                List.of("xchunked"))) {
            assertThat(problem(te, List.of())).as(te.toString()).isEqualTo("Transfer-Encoding must be exactly chunked");
        }
        assertThat(problem(List.of(), List.of("0", "5"))).isEqualTo("a request may carry only one Content-Length");
        assertThat(problem(List.of(), List.of("5", "5"))).as("even when they agree").isNotNull();
        for (String cl : new String[]{"0, 0", "+0", "-1", "0x10", "", "1 2", "9999999999999999999"}) {
            assertThat(problem(List.of(), List.of(cl))).as(cl).isEqualTo("Content-Length must be one decimal number");
        }
    }

    @Test
    void everyLineOfAHeaderIsKeptInOrderLowerCased() {
        assertThat(Framing.lowered(null)).isEmpty();
        assertThat(Framing.lowered(java.util.Collections.emptyEnumeration())).isEmpty();
        assertThat(Framing.lowered(java.util.Collections.enumeration(List.of("Chunked")))).containsExactly("chunked");
        assertThat(Framing.lowered(java.util.Collections.enumeration(java.util.Arrays.asList("5", null, "GZIP"))))
                .containsExactly("5", "", "gzip");
    }

    @Test
    void connectionsToldToCloseAreRememberedWithinABound() {
        Framing framing = new Framing();
        framing.remember("127.0.0.1 50000 8080");
        assertThat(framing.isClosing("127.0.0.1 50000 8080")).isTrue();
        assertThat(framing.isClosing("127.0.0.1 50001 8080")).as("another connection").isFalse();
        for (int k = 0; k < Framing.MAX_REMEMBERED + 1000; k++) {
            framing.remember("10.0.0.1 " + k + " 8080");
        }
        assertThat(framing.remembered()).isLessThanOrEqualTo(Framing.MAX_REMEMBERED);
    }

    /** Not framing, but the other query value that used to be a 500: minutes beyond what a Duration holds. */
    @Test
    void aTimeoutBeyondADurationIsMalformedNotAnError() {
        assertThat(ChangeStreams.parseTimeout("153722867280912931m")).isNull();
        assertThat(ChangeStreams.parseTimeout("99999999999999999999")).isNull();
        assertThat(ChangeStreams.parseTimeout("5m")).hasMinutes(5);
        assertThat(ChangeStreams.parseTimeout("500ms")).hasMillis(500);
    }
}
