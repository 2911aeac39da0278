package io.muster.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Query parameters read as the container reads them, for the values the Eureka API takes. */
class QueryStringTest {

    @Test
    void findsTheFirstValueOfAParameterByItsExactName() {
        String q = "status=UP&lastDirtyTimestamp=1700000000000&overriddenstatus=OUT_OF_SERVICE&status=DOWN";
        assertThat(QueryString.first(q, "status")).isEqualTo("UP");
        assertThat(QueryString.first(q, "lastDirtyTimestamp")).isEqualTo("1700000000000");
        assertThat(QueryString.first(q, "overriddenstatus")).isEqualTo("OUT_OF_SERVICE");
        assertThat(QueryString.first(q, "lastDirty")).isNull();
        assertThat(QueryString.first(q, "Status")).as("names are case-sensitive").isNull();
        assertThat(QueryString.first(null, "status")).isNull();
        assertThat(QueryString.first("", "status")).isNull();
    }

    @Test
    void valuesArePercentAndPlusDecodedAndAMissingValueIsEmpty() {
        assertThat(QueryString.first("regions=us-east-1%2Ceu-west-1", "regions")).isEqualTo("us-east-1,eu-west-1");
        assertThat(QueryString.first("a=x+y&b", "a")).isEqualTo("x y");
        assertThat(QueryString.first("a=x&b", "b")).isEmpty();
        assertThat(QueryString.first("b=&a=1", "b")).isEmpty();
        assertThat(QueryString.first("x=1&&a=2", "a")).isEqualTo("2");
    }

    @Test
    void aValueWithMalformedEscapesIsDroppedAsTheContainerDropsIt() {
        assertThat(QueryString.first("lastDirtyTimestamp=%zz1", "lastDirtyTimestamp")).isNull();
        assertThat(QueryString.first("lastDirtyTimestamp=12%", "lastDirtyTimestamp")).isNull();
    }
}
